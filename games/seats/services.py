"""Seats in a room: the nickname a seat shows, kept apart from names that read the same;
taking a seat (a person's or a computer player's) while the room has room for it; giving
one up or being removed; and the host role, passed on when its holder goes."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from games import protocol
from games.models import Player, Room
from games.protocol import NO_SUCH_PLAYER, NOT_HOST, ProtocolError
from games.realtime.outbox import event_emit
from games.rules.nicknames import nickname_key
from games.rules.visible import invisible
from games.seats.selectors import player_data

NICKNAME_MAX = 24
# Room for the look-alike key of any 24-character name (NFKC and the skeleton may lengthen
# it) plus a number; Player.nickname_key holds 255.
NICKNAME_KEY_MAX = 240
ROOM_FULL = "This room is full."


class JoinError(ValueError):
    """A create or join request that cannot be honoured; the message is for the player."""


class RoomFull(JoinError):
    """The room has as many seats as settings.BOGGLE_ROOM_PLAYERS_MAX allows."""

    def __init__(self) -> None:
        super().__init__(ROOM_FULL)


def nickname_clean(raw: object) -> str:
    """Return a nickname fit to show: trimmed, single-spaced, letters, digits and a little
    punctuation, 1 to 24 characters; raise JoinError otherwise."""
    if not isinstance(raw, str):
        raise JoinError("Choose a nickname.")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise JoinError("Choose a nickname.")
    if len(name) > NICKNAME_MAX:
        raise JoinError(f"A nickname has at most {NICKNAME_MAX} characters.")
    if not all(ch.isalnum() or ch in " -_.'" for ch in name):
        raise JoinError("A nickname may use letters, digits, spaces and - _ . ' only.")
    if not any(ch.isalnum() and not invisible(ch) for ch in name):
        raise JoinError("A nickname needs letters or digits that show.")
    if len(nickname_key(name)) > NICKNAME_KEY_MAX:
        raise JoinError("That nickname is too long once written out; choose a shorter one.")
    return name


def nickname_free(name: str, taken_keys: set[str]) -> str:
    """Return `name`, or `name` numbered " 2", " 3"... (cut to fit), the first that reads
    like no nickname whose key is in `taken_keys`."""
    candidate, n = name, 1
    while nickname_key(candidate) in taken_keys:
        n += 1
        suffix = f" {n}"
        candidate = name[: NICKNAME_MAX - len(suffix)].rstrip() + suffix
    return candidate


def seat_create(*, room: Room, nickname: str, **fields: Any) -> Player:
    """Seat a player (or, with bot fields, a computer player) in the room under `nickname`,
    numbered if it reads like a name already taken there, and tell the room; raise RoomFull
    when the room has settings.BOGGLE_ROOM_PLAYERS_MAX seats.

    The room's row is locked while the seat is counted and named, so two joins at once can
    neither pass the cap together nor take look-alike names (the unique nickname_key per
    room stands behind this). A second seat for the same identity raises IntegrityError.
    """
    with transaction.atomic():
        Room.objects.select_for_update().filter(pk=room.pk).first()
        seats = Player.objects.filter(room=room)
        if seats.filter(removed_at__isnull=True).count() >= settings.BOGGLE_ROOM_PLAYERS_MAX:
            raise RoomFull()
        name = nickname_free(nickname, set(seats.values_list("nickname_key", flat=True)))
        player = Player.objects.create(room=room, nickname=name, **fields)  # save() keys it
        event_emit(
            room_id=room.id, kind=protocol.PLAYER_JOINED, data={"player": player_data(player, room)}
        )
    return player


def host_check(*, room: Room, player: Player) -> None:
    """Raise ProtocolError(NOT_HOST) unless the player holds the room's host role."""
    if room.host_id != player.id:
        raise ProtocolError(NOT_HOST)


def player_remove(*, room: Room, by: Player, player_id: int, now: datetime) -> None:
    """Remove a player from the room (host only; the host cannot remove themself)."""
    host_check(room=room, player=by)
    with transaction.atomic():
        removed = (
            Player.objects.filter(room=room, pk=player_id, removed_at__isnull=True)
            .exclude(pk=by.pk)
            .update(removed_at=now, connections=0)
        )
        if not removed:
            raise ProtocolError(NO_SUCH_PLAYER)
        event_emit(room_id=room.id, kind=protocol.PLAYER_REMOVED, data={"player_id": player_id})


def player_leave(*, room: Room, player: Player, now: datetime) -> None:
    """Give up a seat for good; a leaving host passes the role on at once."""
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(removed_at=now, connections=0)
        event_emit(room_id=room.id, kind=protocol.PLAYER_REMOVED, data={"player_id": player.id})
        if room.host_id == player.id:
            host_pass(room=room, now=now, away=player.id)


def host_transfer(*, room: Room, by: Player, player_id: int) -> None:
    """Pass the host role to another player in the room."""
    host_check(room=room, player=by)
    if not Player.objects.filter(room=room, pk=player_id, removed_at__isnull=True).exists():
        raise ProtocolError(NO_SUCH_PLAYER)
    with transaction.atomic():
        Room.objects.filter(pk=room.pk).update(host_id=player_id)
        event_emit(room_id=room.id, kind=protocol.HOST_CHANGED, data={"host_id": player_id})


def host_pass(*, room: Room, now: datetime, away: int) -> int | None:
    """Give the host role to the longest-present connected player other than `away`."""
    heir = (
        Player.objects.filter(room=room, removed_at__isnull=True, connections__gt=0, bot_level="")
        .exclude(pk=away)
        .order_by("joined_at", "id")
        .first()
    )
    if heir is None:
        return None
    Room.objects.filter(pk=room.pk).update(host_id=heir.id)
    event_emit(room_id=room.id, kind=protocol.HOST_CHANGED, data={"host_id": heir.id})
    return heir.id
