"""Request bodies refused by their declared size before anything reads them.

Every page's form and every JSON request of the game is a few KB; only the admin's uploads
(a dictionary's word list, a definitions source) take files. A request whose Content-Length
is over what its path may take is answered 413 at once: nothing parses it, so a 100 MiB
multipart body costs the server nothing but its headers. nginx refuses them first in
production (client_max_body_size, boggle_site/deploy/nginx.py); this is the same wall inside
the application, for any server in front.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

TOO_LARGE = "This request is too large ({size:,} bytes; at most {limit:,} here)."


def body_limit(path: str) -> int:
    """Return the largest body a request to this path may declare, in bytes."""
    for prefix, limit in settings.BOGGLE_BODY_LIMITS.items():
        if path.startswith(prefix):
            return int(limit)
    return int(settings.BOGGLE_BODY_MAX_BYTES)


class BodyLimitMiddleware:
    """Answer 413 to a request that declares a body larger than its path may take."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse("Bad Content-Length.", status=400, content_type="text/plain")
        limit = body_limit(request.path_info)
        if size > limit:
            message = TOO_LARGE.format(size=size, limit=limit)
            return HttpResponse(message, status=413, content_type="text/plain")
        return self.get_response(request)
