"""Django's own middleware, run on the event loop where its hooks do no I/O.

Under daphne a request goes through the middleware chain asynchronously, and Django's
`MiddlewareMixin` runs each synchronous hook (`process_request`, `process_response`, and
`process_view` through the handler) in the request's thread: a hand-off to a thread and back
for each. With the chain in settings.MIDDLEWARE that was about fourteen hand-offs a request,
and in a rush of daily starts (`make bench-daily`: 2,000 in a minute on one worker) a tenth of
the event loop's time went to them while every socket on the worker waited. Most of these
hooks only read headers and cookies or set them: they run here on the loop, as Django's sync
chain would run them inline. The few that may touch the database or a file, as they say
below, still go to the thread:

- the session's `process_response` when it saves the session;
- the messages' `process_response` when messages were read or added (the fallback storage
  may keep them in the session);
- the CSRF check (`process_view`) of an unsafe request with a large body or a multipart
  one: it parses the form, which for an upload may mean files on disk (a small form's body
  is in memory already, parsed here on the loop);
- every CSRF hook when the CSRF secret lives in the session (CSRF_USE_SESSIONS).

In a synchronous chain (the test client, a WSGI server) each class behaves as Django's.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest, HttpResponseBase
from django.middleware import clickjacking, common, csrf, security
from django.utils.deprecation import MiddlewareMixin

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")  # those the CSRF check lets through


class OnTheLoop(MiddlewareMixin):
    """Run a middleware's request and response hooks on the event loop, in async mode,
    unless `request_in_thread` or `response_in_thread` says this call needs the thread."""

    def request_in_thread(self, request: HttpRequest) -> bool:
        return False

    def response_in_thread(self, request: HttpRequest, response: HttpResponseBase) -> bool:
        return False

    async def __acall__(self, request: HttpRequest) -> Any:
        response = None
        hook = getattr(self, "process_request", None)
        if hook is not None:
            if self.request_in_thread(request):
                response = await sync_to_async(hook, thread_sensitive=True)(request)
            else:
                response = hook(request)
        response = response or await self.get_response(request)  # type: ignore[misc]  # async mode
        hook = getattr(self, "process_response", None)
        if hook is not None:
            if self.response_in_thread(request, response):
                response = await sync_to_async(hook, thread_sensitive=True)(request, response)
            else:
                response = hook(request, response)
        return response


class SecurityMiddleware(OnTheLoop, security.SecurityMiddleware):
    """Headers and the HTTPS redirect: no I/O."""


class CommonMiddleware(OnTheLoop, common.CommonMiddleware):
    """The slash redirect (a URL resolve) and Content-Length: no I/O."""


class XFrameOptionsMiddleware(OnTheLoop, clickjacking.XFrameOptionsMiddleware):
    """A header: no I/O."""


class AuthenticationMiddleware(OnTheLoop, auth.AuthenticationMiddleware):
    """Sets a lazy `request.user`: the session and the user are read when a view asks."""


class SessionMiddleware(OnTheLoop, sessions.SessionMiddleware):
    """Makes a lazy session; saves it, in the thread, only when it changed."""

    def response_in_thread(self, request: HttpRequest, response: HttpResponseBase) -> bool:
        session = getattr(request, "session", None)
        return session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)


class MessageMiddleware(OnTheLoop, messages.MessageMiddleware):
    """Makes the request's message storage; stores messages, in the thread, when there are
    any to store."""

    def response_in_thread(self, request: HttpRequest, response: HttpResponseBase) -> bool:
        storage = getattr(request, "_messages", None)
        return storage is not None and (storage.used or storage.added_new)


# The largest body of an unsafe request whose CSRF check parses its form on the loop: a
# form's fields (a daily start, a login, a room's settings) are a few hundred bytes.
SMALL_FORM_BYTES = 16 * 1024


def _form_on_disk_maybe(request: HttpRequest) -> bool:
    """Return whether reading this request's form may be more than parsing a small body in
    memory: a multipart body (an upload) or a large or unknown length."""
    if request.content_type == "multipart/form-data":
        return True
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > SMALL_FORM_BYTES
    except ValueError:
        return True


class CsrfViewMiddleware(OnTheLoop, csrf.CsrfViewMiddleware):
    """The CSRF cookie read and set on the loop, and the check of a small form; the check of
    an upload or a large body in the thread."""

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        if iscoroutinefunction(get_response):  # async mode: Django adapts process_view by
            self.process_view = self._process_view_async  # type: ignore[assignment]  # its kind

    def request_in_thread(self, request: HttpRequest) -> bool:
        return bool(settings.CSRF_USE_SESSIONS)

    def response_in_thread(self, request: HttpRequest, response: HttpResponseBase) -> bool:
        return bool(settings.CSRF_USE_SESSIONS)

    async def _process_view_async(
        self, request: HttpRequest, callback: Any, args: Any, kwargs: Any
    ) -> HttpResponseBase | None:
        check = super().process_view
        unsafe = request.method not in SAFE_METHODS
        if not settings.CSRF_USE_SESSIONS and not (unsafe and _form_on_disk_maybe(request)):
            return check(request, callback, args, kwargs)
        return await sync_to_async(check, thread_sensitive=True)(request, callback, args, kwargs)
