"""Slowing down room-code guessing: a client that asks for rooms that do not exist too often
is refused for a while, whether or not its next guess would have hit.

Room codes are six characters from 28 (481 million codes), so a guesser needs millions of
tries for one hit; this makes each address pay for them. Each address (an IPv6 address by its
/64 network, which one subscriber usually holds whole) may miss `MISSES_ALLOWED` times in a
window of `WINDOW` seconds; after that every room lookup from it answers 429 until the window
ends, without looking the room up, so a flood joins nothing. The counts live in the `throttle`
cache (Redis when REDIS_URL is set), so every worker counts the same misses. Behind a proxy,
daphne must run with --proxy-headers, or every player would share the proxy's address.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse

log = logging.getLogger(__name__)

MISSES_ALLOWED = 10  # rooms that do not exist, per address and window: typos are fine
WINDOW = 60  # seconds
_NESTED = "_room_guess_guard"  # set on a request already counted (join_by_code calls join)

View = Callable[..., HttpResponse]


def client_key(request: HttpRequest) -> str:
    """Return what a client's misses are counted by: its address (an IPv6 one by /64)."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _window(now: float) -> tuple[str, int]:
    """Return the current window's name and the seconds until it ends."""
    index = int(now // WINDOW)
    return str(index), max(1, int((index + 1) * WINDOW - now))


def misses(key: str, now: float | None = None) -> int:
    """Return how many misses the client has had in the current window."""
    name, _ = _window(time.time() if now is None else now)
    return int(caches["throttle"].get(f"room-miss:{key}:{name}", 0))


def miss_record(key: str, now: float | None = None) -> int:
    """Count one more miss for the client; return its misses in this window."""
    name, _ = _window(time.time() if now is None else now)
    cache, cache_key = caches["throttle"], f"room-miss:{key}:{name}"
    cache.add(cache_key, 0, timeout=2 * WINDOW)
    return int(cache.incr(cache_key))


def too_many(retry_after: int) -> HttpResponse:
    """Return the answer to a client that has guessed too often."""
    response = HttpResponse(
        "Too many attempts to open rooms that do not exist. Wait a minute, then check the "
        "room's code.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(retry_after)
    return response


def guard_room_guesses(view: View) -> View:
    """Refuse (429) a client with too many misses, and count every 404 the view gives it.

    The counter failing (Redis away) lets requests through: a throttle must never take the
    game down with it.
    """

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(request, _NESTED, False):
            return view(request, *args, **kwargs)
        setattr(request, _NESTED, True)
        key = client_key(request)
        try:
            if misses(key) >= MISSES_ALLOWED:
                return too_many(_window(time.time())[1])
        except Exception:
            log.warning("room guess throttle unavailable; letting the request through")
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            _count_miss(key)
            raise
        if response.status_code == 404:
            _count_miss(key)
        return response

    return guarded


def _count_miss(key: str) -> None:
    try:
        if miss_record(key) == MISSES_ALLOWED:
            log.warning("room guesses from %s refused for the rest of the minute", key)
    except Exception:
        log.warning("room guess throttle unavailable; the miss was not counted")
