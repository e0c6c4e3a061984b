"""How many sockets a seat and an address may hold open at once, counted for every worker.

A seat (a browser's player in a room) may have BOGGLE_SOCKETS_PER_SEAT sockets: one per tab,
with room for a few tabs. The seat's count is the Player row's `connections`, which every
worker updates; a row lock makes the check and the count one step, so two workers cannot
both take the last place. An address (an IPv6 one by its /64 network, as games/throttle.py
counts it) may have BOGGLE_SOCKETS_PER_ADDRESS, counted in the shared `throttle` cache
(Redis when REDIS_URL is set). A socket over either limit is accepted only to be told why
and closed with CLOSE_TOO_MANY_SOCKETS; it counts nowhere and costs no snapshot.

Without these, 150 sockets on one seat, each asking for a snapshot seven times a second, made
every other player in the worker wait: the pings of an honest one went from 4 ms to 316 ms.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest

from games import protocol
from games.models import Player
from games.services import rooms
from games.throttle import client_key

log = logging.getLogger(__name__)

# 409 Conflict: the seat or the address already has all the sockets it may hold. Daphne lets
# an application close with 1000 or 3000-4999 only; the error frame sent first says which.
CLOSE_TOO_MANY_SOCKETS = 4409
# An address's count outlives its last change by this long. Counts of a worker that died
# without closing its sockets are forgotten then; a count that expires under sockets still
# open only lets that address open a few more.
ADDRESS_COUNT_TTL_S = 3600


@dataclass(frozen=True)
class Refusal:
    """Why a new socket is turned away: the error code sent to it, then its close code."""

    code: str
    close_code: int = CLOSE_TOO_MANY_SOCKETS


def client_address(scope: dict[str, Any]) -> str | None:
    """Return what a socket's address is counted by, or None when the server does not know
    it (a test communicator; behind a proxy daphne needs --proxy-headers to know it)."""
    client = scope.get("client")
    if not client or not client[0]:
        return None
    request = HttpRequest()  # the throttle's key, so that both count an address alike
    request.META["REMOTE_ADDR"] = client[0]
    return client_key(request)


def socket_open(*, player: Player, address: str | None, now: datetime) -> Refusal | None:
    """Count a new socket for the player's seat and its address (the seat's arrival tells
    the room, as rooms.player_connect does); return why it is refused instead, counting
    nothing, when either already has its limit. `player` is as just read: a seat it shows
    full is refused without a transaction, so a flood of sockets costs no lock."""
    if player.connections >= settings.BOGGLE_SOCKETS_PER_SEAT:
        return Refusal(protocol.TOO_MANY_TABS)
    if address is not None and not _address_claim(address):
        return Refusal(protocol.TOO_MANY_SOCKETS)
    if not _seat_claim(player=player, now=now):
        if address is not None:
            address_release(address)
        return Refusal(protocol.TOO_MANY_TABS)
    return None


def socket_close(*, player_id: int, address: str | None, now: datetime) -> None:
    """Count a socket that socket_open counted as closed (the last one marks the player away)."""
    if address is not None:
        address_release(address)
    player = Player.objects.filter(pk=player_id).first()
    if player is not None:
        rooms.player_disconnect(player=player, now=now)


def _seat_claim(*, player: Player, now: datetime) -> bool:
    with transaction.atomic():
        # Locks the row until the count below commits (SQLite's writes are serial anyway).
        # NO KEY, like the UPDATE that follows: a plain FOR UPDATE also blocks the key-share
        # lock another seat's transaction takes on this row when it updates the room (whose
        # host it may be), and that deadlocked two players connecting together.
        open_now = (
            Player.objects.select_for_update(no_key=True)
            .values_list("connections", flat=True)
            .get(pk=player.pk)
        )
        if open_now >= settings.BOGGLE_SOCKETS_PER_SEAT:
            return False
        rooms.player_connect(player=player, now=now)
        return True


def _address_key(address: str) -> str:
    return f"sockets:{address}"


def address_sockets(address: str) -> int:
    """Return how many sockets the address has open, as counted."""
    return int(caches["throttle"].get(_address_key(address), 0))


def _address_claim(address: str) -> bool:
    """Count one more socket for the address unless it has its limit. When the count is
    unavailable (Redis away) let the socket in: a limit must never take the game down."""
    cache, key = caches["throttle"], _address_key(address)
    try:
        cache.add(key, 0, timeout=ADDRESS_COUNT_TTL_S)
        if cache.incr(key) <= settings.BOGGLE_SOCKETS_PER_ADDRESS:
            cache.touch(key, ADDRESS_COUNT_TTL_S)
            return True
        cache.decr(key)
    except Exception:
        log.warning("socket count per address unavailable; letting the socket in")
        return True
    return False


def address_release(address: str) -> None:
    """Count one socket fewer for the address."""
    cache, key = caches["throttle"], _address_key(address)
    try:
        cache.decr(key)
        cache.touch(key, ADDRESS_COUNT_TTL_S)
    except ValueError:
        pass  # the count expired (or was never taken while Redis was away)
    except Exception:
        log.warning("socket count per address unavailable; a closed socket was not counted")
