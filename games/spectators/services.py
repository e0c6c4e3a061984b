"""Spectators: sockets that watch a room without a seat, counted against their own cap.

A spectator socket is a Spectator row while it is open (every worker counts the same rows),
and a place under its address like any socket (games.limits.sockets). The room's row lock
makes the count and the new row one step, so two workers cannot both take the last place;
rows a dead worker left are not seen for clock.PRESENCE_TIMEOUT, stop counting, and are
deleted by the next opening in that room or by the sweep, whichever comes first.

Every opening and closing records that the room's spectator count changed: its players see how many
watch, in a notice games.realtime.counts coalesces (one per room per second at most, however many
spectators come and go), and in every snapshot.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction

from games import protocol
from games.limits.addresses import Place, place_release
from games.limits.sockets import Refusal
from games.limits.throttle import ROOM_GUESSES, attempt_count, retry_after
from games.models import Room, Spectator
from games.rooms.selectors import room_watchable
from games.rules import clock
from games.seats.presence import placed_and_counted
from games.spectators.counts import spectators_changed


def room_to_watch(code: str, address: str | None) -> Room | None:
    """Return the room a watch link names, or None: no such room to watch, or the address has
    missed ROOM_GUESSES' allowance (shared with the room pages over HTTP), when it is not even
    looked up. A miss counts against the address, so watch links cannot be guessed faster
    than room links. An unknown address (a test's socket; daphne behind a proxy without
    --proxy-headers) is not counted, as the socket limits do not count it."""
    if address is not None and retry_after(ROOM_GUESSES, address) is not None:
        return None
    room = room_watchable(code)
    if room is None and address is not None:
        attempt_count(ROOM_GUESSES, address)
    return room


def spectator_open(
    *, room_id: int, channel: str, place: Place | None, now: datetime
) -> Refusal | None:
    """Count a new spectator socket of the room (and its address's place); return why it is
    refused instead, counting nothing, when the room or the address is full."""
    return placed_and_counted(
        place=place,
        now=now,
        count=lambda: _spectator_claim(room_id=room_id, channel=channel, now=now),
    )


def _spectator_claim(*, room_id: int, channel: str, now: datetime) -> Refusal | None:
    with transaction.atomic():
        Room.objects.select_for_update().filter(pk=room_id).first()  # one opening at a time
        watching = Spectator.objects.filter(room_id=room_id)
        watching.filter(seen_at__lt=now - clock.PRESENCE_TIMEOUT).delete()
        if watching.count() >= settings.BOGGLE_ROOM_SPECTATORS_MAX:
            return Refusal(protocol.SPECTATORS_FULL)
        Spectator.objects.create(room_id=room_id, channel=channel, opened_at=now, seen_at=now)
        spectators_changed(room_id=room_id)
    return None


def spectators_tidy(*, now: datetime) -> int:
    """Forget the spectator sockets not seen for clock.PRESENCE_TIMEOUT (their worker died
    before it could); return how many (the sweep calls this)."""
    gone = Spectator.objects.filter(seen_at__lt=now - clock.PRESENCE_TIMEOUT)
    with transaction.atomic():
        for room_id in set(gone.values_list("room_id", flat=True)):
            spectators_changed(room_id=room_id)
        deleted, _ = gone.delete()
    return deleted


def spectator_seen(*, channel: str, now: datetime) -> None:
    """Record that a spectator socket is alive (every ping)."""
    Spectator.objects.filter(channel=channel).update(seen_at=now)


def spectator_close(*, channel: str, place: Place | None) -> None:
    """Count a spectator socket that spectator_open counted as closed."""
    if place is not None:
        place_release(place)
    with transaction.atomic():
        for room_id in Spectator.objects.filter(channel=channel).values_list("room_id", flat=True):
            spectators_changed(room_id=room_id)
        Spectator.objects.filter(channel=channel).delete()
