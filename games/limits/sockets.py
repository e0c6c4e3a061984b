"""How many sockets a seat and an address may hold open at once, counted for every worker.

A seat (a browser's player in a room) may have BOGGLE_SOCKETS_PER_SEAT sockets: one per tab,
with room for a few tabs. The seat's count is the Player row's `connections`, which every
worker updates; a row lock makes the check and the count one step, so two workers cannot
both take the last place (the sweep's rooms_tidy forgets the sockets of a dead worker). An
address (an IPv6 one by its /64 network, as games/limits/throttle.py counts it) may have
BOGGLE_SOCKETS_PER_ADDRESS, each socket holding a place in games/limits/addresses.py. A socket
over either limit is accepted only to be told why and closed with CLOSE_TOO_MANY_SOCKETS; it
counts nowhere and costs no snapshot.

Without these, 150 sockets on one seat, each asking for a snapshot seven times a second, made
every other player in the worker wait: the pings of an honest one went from 4 ms to 316 ms.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from games import protocol
from games.limits.addresses import RENEW_S, Place, place_renew
from games.limits.buckets import TokenBucket
from games.limits.throttle import address_key
from games.rules import clock

log = logging.getLogger(__name__)

# 409 Conflict: the seat or the address already has all the sockets it may hold. Daphne lets
# an application close with 1000 or 3000-4999 only; the error frame sent first says which.


@dataclass(frozen=True)
class Refusal:
    """Why a new socket is turned away: the error code sent to it, then its close code."""

    code: str
    close_code: int = protocol.CLOSE_TOO_MANY_SOCKETS


def address_of(scope: dict[str, Any]) -> str | None:
    """Return what a socket's address is counted by (the throttle's key, so that both count
    an address alike), or None when the server does not know it (a test communicator; behind
    a proxy daphne needs --proxy-headers to know it)."""
    client = scope.get("client")
    return address_key(client[0]) if client and client[0] else None


def address_place(address: str | None, socket_id: str) -> Place | None:
    """Return the place a new socket will take under its address (from address_of), or None
    when the server does not know the address."""
    if address is None:
        return None
    return Place(address=address, socket_id=socket_id, renewed=time.monotonic())


# Handshakes per address on this worker. Checked before any database work: a burst of
# sockets past it costs the worker a handshake each and nothing else, so the players it
# already serves do not wait behind it (150 sockets at once on one seat, each looked up
# and refused, held an honest player's pings up by 200 ms). Counted per worker on purpose:
# what it protects is this worker's loop and its database threads. A page that is refused
# here reconnects with backoff and is let in a moment later.
OPENINGS_TRACKED = 10_000  # addresses remembered at once; idle ones are forgotten first
_openings: dict[str, TokenBucket] = {}


def opening_allowed(address: str | None, now: float) -> bool:
    """Return whether a socket from this address (from address_of) may open now (`now` is
    monotonic seconds): BOGGLE_SOCKET_OPENS_BURST at once, then BOGGLE_SOCKET_OPENS_PER_SECOND."""
    if address is None:
        return True
    bucket = _openings.get(address)
    if bucket is None:
        if len(_openings) >= OPENINGS_TRACKED:
            _openings_forget(now)
        burst = float(settings.BOGGLE_SOCKET_OPENS_BURST)
        rate = float(settings.BOGGLE_SOCKET_OPENS_PER_SECOND)
        bucket = _openings[address] = TokenBucket(rate=rate, burst=burst, tokens=burst)
    return bucket.allow(now)


def _openings_forget(now: float) -> None:
    """Forget the addresses whose buckets have filled up again (they start afresh the same
    way); if every one is busy, forget the half heard from longest ago."""
    for address, bucket in list(_openings.items()):
        if bucket.tokens + (now - bucket.updated) * bucket.rate >= bucket.burst:
            del _openings[address]
    if len(_openings) >= OPENINGS_TRACKED:
        by_age = sorted(_openings, key=lambda address: _openings[address].updated)
        for address in by_age[: len(by_age) // 2]:
            del _openings[address]


def socket_used(place: Place | None) -> asyncio.Future[None] | None:
    """Renew the socket's place under its address, if due (called on each of its messages),
    in the background: the message does not wait for Redis. At an arena round's start every
    player's first word after the results' pause came with a renewal, and waited for it.
    Return the renewal begun, if one was."""
    if place is None or time.monotonic() - place.renewed < RENEW_S:
        return None
    place.renewed = time.monotonic()
    renewing = asyncio.ensure_future(
        sync_to_async(place_renew, thread_sensitive=False)(place, now=clock.now())
    )
    _renewing.add(renewing)  # the loop keeps only a weak reference to a task
    renewing.add_done_callback(_renewed)
    return renewing


_renewing: set[asyncio.Future[None]] = set()


def _renewed(renewing: asyncio.Future[None]) -> None:
    _renewing.discard(renewing)
    if not renewing.cancelled() and renewing.exception() is not None:
        log.warning("renewing a socket's place failed", exc_info=renewing.exception())
