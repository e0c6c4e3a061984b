"""Seats in a room: the nickname a seat shows, kept apart from names that read the same, and
taking a seat (a person's or a computer player's) while the room has room for it."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import transaction

from games import protocol
from games.models import Player, Room
from games.realtime.outbox import event_emit
from games.rooms.selectors import player_data
from games.rules.nicknames import nickname_key

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
