"""Who is playing: the player identity of an HTTP request or a websocket.

A browser keeps its identity in a cookie the server signs (so a client can neither make
one up nor alter one: a tampered cookie is ignored and a new identity drawn) and scripts
cannot read (HttpOnly). The identity's key is random and secret besides, so the cookie
is never guessable even where the signing key leaked. Playing needs no account: the
first seat a browser takes gives it an identity. A browser logged in to an account plays
as the account's identity, whichever device it is.

Views call `request_identity` (read only: a page view never creates anything) or
`request_identity_ensure` (when the player is about to hold something: a seat, an
attempt); IdentityMiddleware then sets the cookie on the response. Sockets call
`scope_identity`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import User
from django.core import signing
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from games.models import PlayerIdentity

COOKIE_NAME = "player"
COOKIE_SALT = "boggle.player-identity"
COOKIE_MAX_AGE = 400 * 24 * 60 * 60  # the longest browsers keep a cookie (RFC 6265bis)
# Renewed on every seat taken, so a browser that plays keeps its identity.
KEY_BYTES = 32

# The attribute on a request under which the identity is kept once looked up, and the one
# that tells the middleware to set the cookie (the identity changed in this request).
_CACHED = "_player_identity"
_TO_SET = "_player_identity_to_set"


def identity_create(*, user: User | None = None) -> PlayerIdentity:
    """Return a new identity with a fresh random key (owned by `user`, if given)."""
    return PlayerIdentity.objects.create(key=secrets.token_urlsafe(KEY_BYTES), user=user)


def account_identity(user: User) -> PlayerIdentity:
    """Return the identity an account plays as (its first), creating it for an account that
    has none yet (an admin's, made with createsuperuser)."""
    first = PlayerIdentity.objects.filter(user=user).order_by("id").first()
    return first if first is not None else identity_create(user=user)


def identities_of_player(identity: PlayerIdentity) -> QuerySet[PlayerIdentity]:
    """Return every identity of the same player: all of its account's (the browsers whose
    anonymous play moved into the account), or the anonymous identity alone. A player's
    record, and anything a player may have only once (a day's ranked attempt), count over
    these."""
    if identity.user_id is None:
        return PlayerIdentity.objects.filter(pk=identity.pk)
    return PlayerIdentity.objects.filter(user_id=identity.user_id)


def _signer() -> signing.Signer:
    """Return the signer of identity cookies. No timestamp: an identity never expires on
    the server (the browser drops the cookie after COOKIE_MAX_AGE unused), and the same
    identity always has the same cookie."""
    return signing.Signer(salt=COOKIE_NAME + COOKIE_SALT)


def cookie_value(identity: PlayerIdentity) -> str:
    """Return what the identity cookie carries for this identity: its key, signed."""
    return _signer().sign(identity.key)


def identity_from_cookie(value: str | None) -> PlayerIdentity | None:
    """Return the anonymous identity a cookie value names, or None for a missing, tampered
    or unknown one. An identity owned by an account is never returned: a browser
    plays as an account only while it is logged in to it."""
    if not value:
        return None
    try:
        key = _signer().unsign(value)
    except signing.BadSignature:
        return None
    return PlayerIdentity.objects.filter(key=key, user__isnull=True).first()


def _identity_of(user: Any, cookie: str | None) -> PlayerIdentity | None:
    if user is not None and user.is_authenticated:
        return account_identity(user)
    return identity_from_cookie(cookie)


def request_identity(request: HttpRequest) -> PlayerIdentity | None:
    """Return the identity this request plays as, if it has one; never creates one."""
    if not hasattr(request, _CACHED):
        user = getattr(request, "user", None)
        identity = _identity_of(user, request.COOKIES.get(COOKIE_NAME))
        setattr(request, _CACHED, identity)
        cookie = request.COOKIES.get(COOKIE_NAME)
        if identity is not None and cookie != cookie_value(identity):
            setattr(request, _TO_SET, identity)  # logged in: the cookie follows the account
    identity_or_none: PlayerIdentity | None = getattr(request, _CACHED)
    return identity_or_none


def request_identity_ensure(request: HttpRequest) -> PlayerIdentity:
    """Return the identity this request plays as, drawing a new one for a browser that has
    none or sent a cookie that is not valid; the response sets (or renews) its cookie."""
    identity = request_identity(request) or identity_create()
    request_identity_switch(request, identity)  # a new cookie, or the old one renewed
    return identity


def request_identity_switch(request: HttpRequest, identity: PlayerIdentity) -> None:
    """Make this browser play as `identity` from this response on (new, logged in or out)."""
    setattr(request, _CACHED, identity)
    setattr(request, _TO_SET, identity)


def request_identity_forget(request: HttpRequest) -> None:
    """Make this browser hold no identity from this response on (its cookie is deleted)."""
    setattr(request, _CACHED, None)
    setattr(request, _TO_SET, None)


def scope_identity(scope: dict[str, Any]) -> PlayerIdentity | None:
    """Return the identity a websocket plays as (from its cookies: the identity's, and the
    session's when it is logged in), if it has one. Call it where the database may be used
    (through games.realtime.runner.service_run).

    The user is looked up here, once, rather than by Channels' session and authentication
    middleware: those keep a session and a user object in every socket's scope for its whole
    life (memory, a thousand sockets over), look the user up in a thread of their own before
    the consumer runs, and pass every frame sent through a check of the session."""
    cookies: dict[str, str] = scope.get("cookies") or {}
    return _identity_of(
        _session_user(cookies.get(settings.SESSION_COOKIE_NAME)), cookies.get(COOKIE_NAME)
    )


def _session_user(session_key: str | None) -> Any:
    """Return the user a session cookie is logged in as (Django's own check: the session's
    backend and password hash), or None (no cookie: no query)."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]  # reads .session only


class IdentityMiddleware:
    """Set (or delete) the identity cookie when a view changed this browser's identity."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.cookie_set(request, self.get_response(request))

    @staticmethod
    def cookie_set(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """Put this request's identity change, if any, on its response."""
        if not hasattr(request, _TO_SET):
            return response
        identity: PlayerIdentity | None = getattr(request, _TO_SET)
        if identity is None:
            response.delete_cookie(COOKIE_NAME, samesite="Lax")
            return response
        response.set_cookie(
            COOKIE_NAME,
            cookie_value(identity),
            max_age=COOKIE_MAX_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response
