"""Slowing down room-code guessing: a client that asks for rooms that do not exist too often
is refused for a while, whether or not its next guess would have hit.

Room codes are six characters from 28 (481 million codes), so a guesser needs millions of
tries for one hit; this makes each address pay for them. Each address (an IPv6 address by its
/64 network, which one subscriber usually holds whole) may miss `MISSES_ALLOWED` times in a
window of `WINDOW` seconds; after that every room lookup from it answers 429 until the window
ends, without looking the room up, so a flood joins nothing. The counts live in the `throttle`
cache (Redis when REDIS_URL is set), so every worker counts the same misses. Behind a proxy,
daphne must run with --proxy-headers, or every player would share the proxy's address.

The same counters limit what each address may create: rooms (`ROOMS_CREATED`), seats
(`SEATS_TAKEN`) and accounts (`ACCOUNTS_CREATED`), counted when one is made and refused with
429 once the address has made its allowance in the window, so one address cannot fill the
database with rooms or accounts, or a room with seats (a room also has a cap of its own,
settings.BOGGLE_ROOM_PLAYERS_MAX).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string

from games.protocol import ProtocolError

log = logging.getLogger(__name__)

MISSES_ALLOWED = 10  # rooms that do not exist, per address and window: typos are fine
WINDOW = 60  # seconds
_NESTED = "_room_guess_guard"  # set on a request already counted (join_by_code calls join)

View = Callable[..., HttpResponse]
T = TypeVar("T")


@dataclass(frozen=True)
class Allowance:
    """How many attempts of one kind an address may make in a fixed window of time."""

    name: str  # names the counters in the cache
    default: int  # attempts allowed per window, unless the setting below says otherwise
    window: int  # seconds
    refusal: str  # what a refused player reads
    setting: str = ""  # the Django setting that may change `default`

    @property
    def allowed(self) -> int:
        """Return how many attempts an address may make per window: the setting's, when it is
        set (the environment variable of the same name), else the default."""
        value = getattr(settings, self.setting, None) if self.setting else None
        return self.default if value is None else int(value)


ROOM_GUESSES = Allowance(
    "room-miss",
    MISSES_ALLOWED,
    WINDOW,
    "Too many attempts to open rooms that do not exist. Wait a minute, then check the room's code.",
)
# Per address and ten minutes, unless the setting named says otherwise (boggle_site/settings.py).
ROOMS_CREATED = Allowance(
    "room-create",
    20,
    600,
    "Too many rooms were started from your network in the last few minutes. Wait a little, "
    "or join a room a friend started.",
    setting="BOGGLE_ROOMS_PER_ADDRESS",
)
SEATS_TAKEN = Allowance(
    "seat-take",
    100,
    600,
    "Too many seats were taken from your network in the last few minutes. Wait a little, "
    "then join again.",
    setting="BOGGLE_SEATS_PER_ADDRESS",
)
DAILY_STARTS = Allowance(
    "daily-start",
    200,
    600,
    "Too many daily games were started from your network in the last few minutes. Wait a "
    "little, then start again.",
    setting="BOGGLE_DAILY_STARTS_PER_ADDRESS",
)
# Accounts one address may create in an hour: a household or a classroom signs up a few.
ACCOUNTS_CREATED = Allowance(
    "account-create",
    20,
    3600,
    "Too many accounts were created from your network in the last hour. Wait a little, then "
    "try again.",
)

# Word reports (games/reports/services.py), each one sent counted, refused or not: a family
# reporting a few words a round never meets it; a script filling the admin's queue does.
REPORTS_SENT = Allowance(
    "word-report",
    60,
    600,
    "Too many word reports were sent from your network in the last few minutes. Wait a "
    "little, then report again.",
    setting="BOGGLE_REPORTS_PER_ADDRESS",
)

# Rounds the rooms of one address may start in ten minutes (each room also has its own
# limit, games.rounds.services.ROUNDS_PER_WINDOW): one address may hold 20 rooms.
ROUNDS_STARTED = Allowance(
    "round-start",
    100,
    600,
    "Too many rounds were started from your network in the last few minutes. Wait a little.",
)

# Failed forms, counted when the form is refused (400) and refused with 429 once used up:
# sign-ups per address (each refusal says whether a username is taken, so a script could
# probe names), and retyped passwords per account (changing the password or deleting the
# account asks for it again; django-axes counts only the login form's).
SIGNUPS_FAILED = Allowance(
    "signup-fail",
    30,
    600,
    "Too many sign-ups failed from your network in the last few minutes. Wait a little, "
    "then try again.",
)
PASSWORDS_RETYPED = Allowance(
    "password-retype",
    5,
    900,
    "Too many wrong passwords for this account in the last few minutes. Wait a quarter of "
    "an hour, then try again.",
)


def _now() -> float:
    """Return the time the windows are counted in (tests fix it)."""
    return time.time()


def client_address(request: HttpRequest) -> str | None:
    """Return a request's client address: behind the proxy (settings.BEHIND_PROXY) the first
    one X-Forwarded-For names, which the proxy sets to the address it saw; else the peer's.
    None when there is no valid address (django-axes records this one, in an address field)."""
    address = str(request.META.get("REMOTE_ADDR") or "")
    if settings.BEHIND_PROXY:
        address = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[0].strip() or address
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def client_key(request: HttpRequest) -> str:
    """Return what a client's misses are counted by: its address (an IPv6 one by /64)."""
    return address_key(client_address(request) or "unknown")


def address_key(address: str) -> str:
    """Return what an address is counted by: itself, an IPv6 one by its /64 network."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _window(now: float, length: int = WINDOW) -> tuple[str, int]:
    """Return the current window's name and the seconds until it ends."""
    index = int(now // length)
    return str(index), max(1, int((index + 1) * length - now))


_counters_by_config: dict[str, BaseCache] = {}


def _counters() -> BaseCache:
    """Return the process's one `throttle` cache for the current settings.

    Not `caches["throttle"]`: Django makes a cache object per request's context, and with Redis
    each one a connection pool and a new connection of its own (a connect, a handshake and
    redis-py reading its own package metadata), left for the garbage collector at the end of
    the request. One object serves every thread: redis-py's pool is thread-safe.
    """
    config = repr(sorted(settings.CACHES["throttle"].items()))
    cache = _counters_by_config.get(config)
    if cache is None:
        cache = _counters_by_config.setdefault(config, caches.create_connection("throttle"))
    return cache


def attempts(allowance: Allowance, key: str, now: float | None = None) -> int:
    """Return how many attempts of this kind the client has made in the current window."""
    name, _ = _window(_now() if now is None else now, allowance.window)
    return int(_counters().get(f"{allowance.name}:{key}:{name}", 0))


def attempt_record(allowance: Allowance, key: str, now: float | None = None) -> int:
    """Count one more attempt of this kind for the client; return its count in this window."""
    name, _ = _window(_now() if now is None else now, allowance.window)
    cache, cache_key = _counters(), f"{allowance.name}:{key}:{name}"
    cache.add(cache_key, 0, timeout=2 * allowance.window)
    return int(cache.incr(cache_key))


def miss_record(key: str, now: float | None = None) -> int:
    """Count one more miss for the client; return its misses in this window."""
    return attempt_record(ROOM_GUESSES, key, now)


def too_many(retry_after: int, allowance: Allowance = ROOM_GUESSES) -> HttpResponse:
    """Return the answer (429, a page saying why and when to try again) to a client that has
    used up an allowance."""
    page = render_to_string("429.html", {"message": allowance.refusal, "retry_after": retry_after})
    response = HttpResponse(page, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def retry_after(allowance: Allowance, key: str) -> int | None:
    """Return the seconds until a client that has used up the allowance may try again, else
    None (also when the counter is unavailable: a throttle must never take the game down
    with it)."""
    try:
        if attempts(allowance, key) >= allowance.allowed:
            return _window(_now(), allowance.window)[1]
    except Exception:
        log.warning("%s throttle unavailable; letting the request through", allowance.name)
    return None


def attempt_count(allowance: Allowance, key: str) -> None:
    """Count one attempt of this kind for the client, logging when it uses up the allowance
    (an unavailable counter only logs)."""
    try:
        if attempt_record(allowance, key) == allowance.allowed:
            log.warning("%s from %s refused for the window", allowance.name, key)
    except Exception:
        log.warning("%s throttle unavailable; not counted", allowance.name)


def _refused(allowance: Allowance, key: str) -> HttpResponse | None:
    """Return the 429 answer when the client has used up the allowance, else None."""
    wait = retry_after(allowance, key)
    return None if wait is None else too_many(wait, allowance)


def _guard_posts(
    allowance: Allowance, key_of: Callable[[HttpRequest], str], counted_status: int
) -> Callable[[View], View]:
    """Refuse (429) a POST whose key has used up the allowance, and count each POST the view
    answers with `counted_status`."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST":
                return view(request, *args, **kwargs)
            key = key_of(request)
            refused = _refused(allowance, key)
            if refused is not None:
                return refused
            response = view(request, *args, **kwargs)
            if response.status_code == counted_status:
                attempt_count(allowance, key)
            return response

        return guarded

    return decorate


def guard_creations(allowance: Allowance) -> Callable[[View], View]:
    """Refuse (429) a POST from a client that has made `allowance.allowed` things of this
    kind in the window, and count each POST the view answers with a redirect (one made)."""
    return _guard_posts(allowance, client_key, 302)


def socket_allowance_use(
    allowance: Allowance, address: str | None, action: Callable[[], T], code: str
) -> T:
    """Run `action` (a service a socket asked for) unless the address has used up the
    allowance, when ProtocolError(code) says so with the allowance's refusal; count
    it once it succeeds. An unknown address (a test's socket; daphne behind a proxy without
    --proxy-headers) is not counted, as the socket limits do not count it."""
    if address is not None and retry_after(allowance, address) is not None:
        raise ProtocolError(code, allowance.refusal)
    done = action()
    if address is not None:
        attempt_count(allowance, address)
    return done


def account_key(request: HttpRequest) -> str:
    """Return what a logged-in player's failures are counted by: the account, whichever
    address or device they come from."""
    return f"user-{request.user.pk}"


def guard_failures(
    allowance: Allowance, key_of: Callable[[HttpRequest], str] = client_key
) -> Callable[[View], View]:
    """Refuse (429) a POST once `allowance.allowed` POSTs with the same key were refused
    (400) in the window, the right answer included, and count each refused one."""
    return _guard_posts(allowance, key_of, 400)


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
        refused = _refused(ROOM_GUESSES, key)
        if refused is not None:
            return refused
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
