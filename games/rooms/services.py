"""Rooms: creating and joining one, its settings and a board given for its next round, and
closing rooms nobody is in (seats and presence: games.seats)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from games import protocol
from games.models import Player, PlayerIdentity, Room
from games.protocol import ROUND_RUNNING, ProtocolError
from games.realtime.outbox import event_emit
from games.rounds.given_boards import BoardRefused, board_given_check, board_given_still_fits
from games.rounds.selectors import rounds_running
from games.rules import clock
from games.rules.room_settings import RoomSettings, SettingsError, settings_from, stored_settings
from games.seats.presence import presence_stale_forget
from games.seats.services import JoinError, host_check, host_pass, nickname_clean, seat_create
from solver.boardlab.boards import BandError, band_check
from solver.dictionaries import selectors as solver_selectors
from solver.models import DiceSet, Dictionary

CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ23456789"  # no vowels, no look-alikes: no words, no typos
CODE_LENGTH = 6


def settings_check(settings: RoomSettings) -> RoomSettings:
    """Return settings whose dictionary and dice exist, with the board size they imply, and
    whose board richness some boards of that kind reach (refused now, not at round start)."""
    if (
        settings.dictionary
        and not Dictionary.objects.filter(slug=settings.dictionary, is_active=True).exists()
    ):
        raise SettingsError(f"there is no active dictionary '{settings.dictionary}'")
    dice = DiceSet.objects.filter(slug=settings.dice).first()
    if dice is None:
        raise SettingsError(f"there is no dice set '{settings.dice}'")
    if dice.dice:  # a set of dice decides the board size
        settings = replace(settings, rows=dice.rows, cols=dice.cols)
    if not settings.any_board:
        try:
            band_check(
                dictionary=solver_selectors.dictionary_or_default(slug=settings.dictionary),
                dice_set=dice,
                rows=settings.rows,
                cols=settings.cols,
                rules=settings.rules,
                band=settings.band,
                min_words=settings.min_words,
            )
        except BandError as exc:
            raise SettingsError(str(exc)) from None
    return settings


def room_create(
    *,
    identity: PlayerIdentity,
    nickname: str,
    settings: dict[str, Any] | RoomSettings,
    solo: bool = False,
    board: str = "",
    board_drawn: bool = False,
    daily: bool = False,
) -> tuple[Room, Player]:
    """Create a room with a fresh code and its host, the creator (alone with the computer
    when solo), with the board the host gave for the first round, if any: checked, unless
    the server drew it for these very settings (`board_drawn`: the daily board). Settings
    come as a player sent them (a dict, checked here) or as RoomSettings the server checked
    already (a daily game's, checked once a minute rather than at each of its starts)."""
    name = nickname_clean(nickname)
    try:
        checked = (
            settings
            if isinstance(settings, RoomSettings)
            else settings_check(settings_from(settings))
        )
    except SettingsError as exc:
        raise JoinError(f"Those settings cannot be used: {str(exc).rstrip('.')}.") from None
    try:
        given = board
        if board and not board_drawn:
            given = board_given_check(text=board, settings=checked).share_code()
    except BoardRefused as exc:
        raise JoinError(f"That board cannot be played: {str(exc).rstrip('.')}.") from None
    for _ in range(10):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=code,
                    settings=checked.as_dict(),
                    is_solo=solo,
                    is_daily=daily,
                    next_board=given,
                )
                host = Player.objects.create(room=room, identity=identity, nickname=name)
                room.host = host
                Room.objects.filter(pk=room.pk).update(host=host)
                return room, host
        except IntegrityError:
            continue  # the code was taken: draw another
    raise RuntimeError("could not find a free room code")


def player_join(*, room: Room, identity: PlayerIdentity, nickname: str) -> Player:
    """Return the player's seat in the room, creating it (with a free name) if new."""
    if room.closed_at is not None:
        raise JoinError("This room is closed.")
    existing = Player.objects.filter(room=room, identity=identity).first()
    if existing is not None:
        if existing.removed_at is not None:
            raise JoinError("The host removed you from this room.")
        return existing
    if room.is_solo:
        raise JoinError("This is a solo game against the computer.")
    name = nickname_clean(nickname)
    try:
        return seat_create(room=room, nickname=name, identity=identity)
    except IntegrityError:  # the same browser joined twice at once: the other request won
        return Player.objects.get(room=room, identity=identity)


def player_join_told(*, room: Room, identity: PlayerIdentity, nickname: str) -> tuple[Player, str]:
    """player_join, with what to tell the player: "" if they sit under the name they asked
    for (or had a seat already), else that it read like a name in the room (nickname_free,
    case and look-alike letters folded) and the name they got."""
    had_seat = Player.objects.filter(room=room, identity=identity).exists()
    seat = player_join(room=room, identity=identity, nickname=nickname)
    wanted = nickname_clean(nickname)
    if had_seat or seat.nickname == wanted:
        return seat, ""
    return seat, (
        f"“{wanted}” reads like a name already in this room (names that differ only in "
        f"capitals or in look-alike letters count as one), so you play as “{seat.nickname}”."
    )


def room_settings_update(*, room: Room, player: Player, settings: dict[str, Any]) -> RoomSettings:
    """Change the room's settings (host only, between rounds). A board the host gave that
    the new settings cannot play (another size, other dice) is dropped."""
    host_check(room=room, player=player)
    if rounds_running([room.id]).exists():
        raise ProtocolError(ROUND_RUNNING)
    checked = settings_check(settings_from(settings))
    with transaction.atomic():
        # Under the row lock, so a board another tab gives meanwhile is kept or refused,
        # never silently overwritten with what was read before it.
        given = (
            Room.objects.select_for_update().values_list("next_board", flat=True).get(pk=room.pk)
        )
        keep = bool(given) and board_given_still_fits(given, checked)
        Room.objects.filter(pk=room.pk).update(
            settings=checked.as_dict(), next_board=given if keep else ""
        )
        event_emit(
            room_id=room.id,
            kind=protocol.SETTINGS_CHANGED,
            data={"settings": checked.as_dict(), "board_given": keep},
        )
    return checked


def room_board_give(*, room: Room, player: Player, text: str) -> bool:
    """Keep a board for the room's next round, or forget the one kept when `text` is blank
    (host only, between rounds); return whether a board is now kept. BoardRefused says why
    a board cannot be played, and changes nothing."""
    host_check(room=room, player=player)
    if rounds_running([room.id]).exists():
        raise ProtocolError(ROUND_RUNNING)
    with transaction.atomic():
        # Checked against the settings as they are under the row lock, not as this room
        # object last saw them: a settings change in another tab must not slip between.
        stored = Room.objects.select_for_update().values_list("settings", flat=True).get(pk=room.pk)
        settings = stored_settings(stored)
        code = board_given_check(text=text, settings=settings).share_code() if text.strip() else ""
        Room.objects.filter(pk=room.pk).update(next_board=code)
        event_emit(
            room_id=room.id,
            kind=protocol.SETTINGS_CHANGED,
            data={"settings": settings.as_dict(), "board_given": bool(code)},
        )
    return bool(code)


def rooms_tidy(*, now: datetime) -> None:
    """Forget sockets of players not seen for a while (a worker died), pass the role of an
    absent host, and close rooms nobody has been in for a long time (the sweep calls this)."""
    presence_stale_forget(now=now)
    absent_hosts = Room.objects.filter(
        closed_at__isnull=True,
        host__connections=0,
        host__last_seen_at__lt=now - clock.HOST_AWAY,
        players__connections__gt=0,
        players__bot_level="",
    ).distinct()
    for room in absent_hosts:
        with transaction.atomic():
            host_pass(room=room, now=now, away=room.host_id or 0)
    people_here = Player.objects.filter(connections__gt=0, bot_level="").values("room_id")
    idle = Room.objects.filter(
        closed_at__isnull=True, is_arena=False, last_activity_at__lt=now - clock.IDLE_ROOM
    )  # an arena's room never closes: its schedule goes on with nobody in
    idle.exclude(pk__in=people_here).update(closed_at=now)
