"""The open sockets of each client address, as one register for every worker.

Each socket holds a place under its address, stamped with when it was last known alive: when
it opened, and again on its messages at most every RENEW_S (a page pings every 10 s). A
place not renewed for STALE_S is no longer counted, so the sockets of a worker that died or
was restarted without closing them (daphne cancels them unannounced) stop counting within
a minute, where a plain counter would have kept them for good. The places live in a Redis
sorted set per address when the `throttle` cache is in Redis (REDIS_URL), else in this
process's memory (one process: nothing to share).

When Redis cannot be reached the socket is let in: a limit must never take the game down.
"""

from __future__ import annotations

import functools
import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from games.rules import clock

log = logging.getLogger(__name__)

STALE_S = clock.PRESENCE_TIMEOUT.total_seconds()  # unrenewed this long: not counted
RENEW_S = 20.0  # a socket's place is renewed on its first message this long after the last
KEY_PREFIX = "boggle-sockets:"


@dataclass
class Place:
    """One socket's place under its address."""

    address: str
    socket_id: str  # the socket's channel name: unique over every worker
    renewed: float = 0.0  # time.monotonic() of the last renewal, kept by the socket


@functools.cache
def _client(url: str) -> redis.Redis:
    # One quick retry, not redis-py's default of three with backoff of up to seconds: every
    # new socket waits for this, and an outage must cost it a moment at most.
    return redis.Redis.from_url(
        url, socket_connect_timeout=0.5, socket_timeout=0.5, retry=Retry(NoBackoff(), 1)
    )


def _redis() -> redis.Redis | None:
    """Return the shared Redis the throttle cache uses, or None when it is in memory."""
    config: dict[str, Any] = settings.CACHES.get("throttle", {})
    if not str(config.get("BACKEND", "")).endswith("RedisCache"):
        return None
    return _client(str(config["LOCATION"]))


_memory: dict[str, dict[str, float]] = {}  # address -> socket id -> last renewed (epoch s)
_memory_lock = threading.Lock()


def place_claim(place: Place, *, limit: int, now: datetime) -> bool:
    """Take a place for the socket unless its address already has `limit` live ones; return
    whether it was taken."""
    stamp = now.timestamp()
    client = _redis()
    if client is None:
        with _memory_lock:
            places = _memory.setdefault(place.address, {})
            for socket_id, renewed in list(places.items()):
                if renewed <= stamp - STALE_S:
                    del places[socket_id]
            if len(places) >= limit:
                return False
            places[place.socket_id] = stamp
            return True
    key = KEY_PREFIX + place.address
    try:
        pipe = client.pipeline()  # MULTI/EXEC: forget the stale, add this one, count
        pipe.zremrangebyscore(key, "-inf", stamp - STALE_S)
        pipe.zadd(key, {place.socket_id: stamp})
        pipe.zcard(key)
        pipe.expire(key, int(STALE_S) + 1)
        count = cast(int, pipe.execute()[2])
        if count <= limit:
            return True
        client.zrem(key, place.socket_id)
        return False
    except redis.RedisError:
        log.warning("sockets per address cannot be counted (Redis); letting the socket in")
        return True


def place_renew(place: Place, *, now: datetime) -> None:
    """Stamp the socket's place as alive now (if it still has one)."""
    stamp = now.timestamp()
    client = _redis()
    if client is None:
        with _memory_lock:
            places = _memory.get(place.address, {})
            if place.socket_id in places:
                places[place.socket_id] = stamp
        return
    key = KEY_PREFIX + place.address
    try:
        pipe = client.pipeline()
        pipe.zadd(key, {place.socket_id: stamp}, xx=True)
        pipe.expire(key, int(STALE_S) + 1)
        pipe.execute()
    except redis.RedisError:
        log.warning("sockets per address cannot be counted (Redis); a place was not renewed")


def place_release(place: Place) -> None:
    """Give the socket's place back (it closed)."""
    client = _redis()
    if client is None:
        with _memory_lock:
            places = _memory.get(place.address, {})
            places.pop(place.socket_id, None)
            if not places:
                _memory.pop(place.address, None)
        return
    try:
        client.zrem(KEY_PREFIX + place.address, place.socket_id)
    except redis.RedisError:
        log.warning("sockets per address cannot be counted (Redis); a place was not released")


def places_count(address: str, *, now: datetime) -> int:
    """Return how many live places the address holds."""
    stamp = now.timestamp()
    client = _redis()
    if client is None:
        with _memory_lock:
            return sum(1 for t in _memory.get(address, {}).values() if t > stamp - STALE_S)
    return cast(int, client.zcount(KEY_PREFIX + address, f"({stamp - STALE_S}", "+inf"))


def places_forget(address: str) -> None:
    """Drop every place of the address (tests start from nothing)."""
    client = _redis()
    if client is None:
        with _memory_lock:
            _memory.pop(address, None)
    else:
        client.delete(KEY_PREFIX + address)
