"""The Content-Security-Policy header, from django-csp, naming the page's websocket origin."""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, adding the site's own websocket origin (ws:// or wss://, this
    host) to connect-src: 'self' covers it in browsers of CSP Level 3, older ones need it
    named."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:  # refused already; its answer needs no websocket
            return parts
        scheme = "wss" if request.is_secure() else "ws"
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", []), f"{scheme}://{host}"]
        parts.update = update
        return parts
