"""Rooms and players: creating, joining, settings, presence and the host role."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction

from games import protocol
from games.models import Player, PlayerIdentity, Room
from games.protocol import NO_SUCH_PLAYER, NOT_HOST, ROUND_RUNNING, ProtocolError
from games.realtime import sql_rows
from games.realtime.outbox import event_emit
from games.rooms.given_boards import BoardRefused, board_given_check, board_given_still_fits
from games.rooms.seats import NICKNAME_MAX as NICKNAME_MAX  # still read from here
from games.rooms.seats import JoinError, nickname_clean, seat_create
from games.rooms.selectors import player_data, rounds_running
from games.rules import clock
from games.rules.room_settings import RoomSettings, SettingsError, settings_from, stored_settings
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
                # Inserted by hand (games/realtime/sql_rows.py): every daily start makes a room.
                room = sql_rows.insert(
                    Room(
                        code=code,
                        settings=checked.as_dict(),
                        is_solo=solo,
                        is_daily=daily,
                        next_board=given,
                    )
                )
                host = Player.objects.create(room=room, identity=identity, nickname=name)
                room.host = host
                sql_rows.execute(
                    f"UPDATE {sql_rows.table(Room)} SET host_id = %s WHERE id = %s",
                    [host.pk, room.pk],
                )
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


def host_check(*, room: Room, player: Player) -> None:
    """Raise ProtocolError(NOT_HOST) unless the player holds the room's host role."""
    if room.host_id != player.id:
        raise ProtocolError(NOT_HOST)


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
            _host_pass(room=room, now=now, away=player.id)


def host_transfer(*, room: Room, by: Player, player_id: int) -> None:
    """Pass the host role to another player in the room."""
    host_check(room=room, player=by)
    if not Player.objects.filter(room=room, pk=player_id, removed_at__isnull=True).exists():
        raise ProtocolError(NO_SUCH_PLAYER)
    with transaction.atomic():
        Room.objects.filter(pk=room.pk).update(host_id=player_id)
        event_emit(room_id=room.id, kind=protocol.HOST_CHANGED, data={"host_id": player_id})


def _host_pass(*, room: Room, now: datetime, away: int) -> int | None:
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


# How stale a room's last activity may be: a room closes after hours idle, so a socket that
# comes or goes within this of the last one need not write the room's row again (8 players
# connecting together each waited for the others' writes of it: 67 ms a write, measured).
ACTIVITY_PRECISION = timedelta(seconds=30)


def _room_active(*, room_id: int, now: datetime) -> None:
    """Note activity, which keeps a room from closing as idle (rooms_tidy). An arena's room
    never closes, so its one row, which every arena socket shares, is not written at all."""
    # Written as SQL: each socket's arrival and leaving makes it (games/realtime/sql_rows.py).
    sql_rows.execute(
        f"UPDATE {sql_rows.table(Room)} SET last_activity_at = %s "
        "WHERE id = %s AND NOT is_arena AND last_activity_at < %s",
        [now, room_id, now - ACTIVITY_PRECISION],
    )


def player_connect(*, player: Player, now: datetime, limit: int | None = None) -> bool:
    """Count one more open socket for the player unless they have `limit` open already (None:
    no limit), and tell the room if they just arrived; return whether it was counted (the
    player's count and times are then brought up to date)."""
    with transaction.atomic():
        counted = _connections_add(player.pk, 1, now, most=limit)
        if counted is None:  # at the limit (or gone)
            return False
        connections, _, quiet = counted
        _room_active(room_id=player.room_id, now=now)
        player.connections, player.last_seen_at = connections, now
        if connections == 1:
            player.connected_since = now
            if not quiet:
                _presence_changed(player)
    return True


def player_disconnect(*, player_id: int, now: datetime) -> None:
    """Count one socket fewer; the last one closing tells the room the player is away."""
    with transaction.atomic():
        counted = _connections_add(player_id, -1, now)
        if counted is not None:
            connections, room_id, quiet = counted
        else:  # none were counted (the sweep forgot them): the room is told all the same
            found = Player.objects.filter(pk=player_id).values_list("room_id", flat=True).first()
            if found is None:  # the player's room was deleted meanwhile
                return
            connections, room_id, quiet = 0, found, False
        _room_active(room_id=room_id, now=now)
        if connections == 0 and not quiet:
            _presence_changed(Player(pk=player_id, room_id=room_id), away_only=True)


# connected_since is when the first of the sockets now open opened: set as the count leaves 0.
# "Quiet": a room where nobody is told of a player's comings and goings (below).
_CONNECTIONS_SQL = (
    "UPDATE {table} SET connections = connections + %s, last_seen_at = %s, "
    "connected_since = CASE WHEN connections = 0 THEN %s ELSE connected_since END "
    "WHERE id = %s AND connections + %s >= 0 AND connections + %s <= %s "
    "RETURNING connections, room_id, "
    "(SELECT is_arena OR is_daily FROM {rooms} WHERE {rooms}.id = {table}.room_id)"
)


def _connections_add(
    player_id: int, change: int, now: datetime, *, most: int | None = None
) -> tuple[int, int, bool] | None:
    """Change a player's count of open sockets by `change` in one statement (which locks the
    row, as the count is checked and changed), never below 0 nor above `most`; return
    the new count, the player's room and whether the room is quiet, or None when the count
    would have gone out of bounds (nothing written).

    Quiet rooms are the arena's (thousands come and go, and its page lists no players) and
    daily attempts' (one player, whose own page is the only one open on the room): telling
    them of a player's arrival or departure was a read, an event stored and a message through
    Redis for every socket opened and closed, for nobody to read."""
    most = most if most is not None else 2**31 - 1
    sql = _CONNECTIONS_SQL.format(
        table=connection.ops.quote_name(Player._meta.db_table),
        rooms=connection.ops.quote_name(Room._meta.db_table),
    )
    at = Player._meta.get_field("last_seen_at").get_db_prep_value(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [change, at, at, player_id, change, change, most])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]), bool(row[2]))


def player_seen(*, player: Player, now: datetime) -> None:
    """Record that a player's socket is alive (every ping)."""
    Player.objects.filter(pk=player.pk).update(last_seen_at=now)


def _presence_changed(player: Player, *, away_only: bool = False) -> None:
    """Tell the player's room how they are now, read afresh with the room in one query (a
    player removed meanwhile is not told of: their removal was); `away_only`: only if they
    are away (a socket opened meanwhile has told the room they are here)."""
    # Only what the check and player_data read: not the settings' JSON (every socket's close
    # comes here; under `make bench-daily` this read was an eighth of a close's CPU).
    fresh = (
        Player.objects.select_related("room")
        .only(*PRESENCE_FIELDS, "room__id", "room__is_arena", "room__is_daily", "room__host_id")
        .filter(pk=player.pk, removed_at__isnull=True)
        .first()
    )
    if fresh is not None and (not away_only or fresh.connections == 0):
        _presence_tell(fresh, fresh.room)


# What player_data says of a player, and what it takes to find their room.
PRESENCE_FIELDS = (
    "id", "room_id", "nickname", "connections", "total_score", "bot_level", "joined_at",
    "chat_muted", "removed_at",
)  # fmt: skip


def _presence_tell(player: Player, room: Room) -> None:
    if room.is_arena or room.is_daily:  # quiet rooms: see _connections_add
        return
    event_emit(
        room_id=room.id, kind=protocol.PLAYER_UPDATED, data={"player": player_data(player, room)}
    )


def _stale_forget(*, now: datetime) -> None:
    """Count the sockets of players not seen for PRESENCE_TIMEOUT as gone, all at once: when a
    worker dies with thousands of sockets (an arena's), its players go stale together, and
    one at a time (four queries each) the sweep would spend many seconds on them while the
    rounds it also ends waited. A player seen again since the list was read is left alone."""
    cutoff = now - clock.PRESENCE_TIMEOUT
    stale = Player.objects.filter(connections__gt=0, bot_level="", last_seen_at__lt=cutoff)
    ids = list(stale.values_list("pk", flat=True))
    if not ids:
        return
    with transaction.atomic():
        Player.objects.filter(pk__in=ids, last_seen_at__lt=cutoff).update(connections=0)
        gone = (
            Player.objects.filter(
                pk__in=ids,
                connections=0,
                removed_at__isnull=True,
                room__is_arena=False,
                room__is_daily=False,
            )
            .select_related("room")
            .defer("room__settings")
            .order_by("pk")
        )
        for player in gone:
            _presence_tell(player, player.room)


def rooms_tidy(*, now: datetime) -> None:
    """Forget sockets of players not seen for a while (a worker died), pass the role of an
    absent host, and close rooms nobody has been in for a long time (the sweep calls this)."""
    _stale_forget(now=now)
    absent_hosts = Room.objects.filter(
        closed_at__isnull=True,
        host__connections=0,
        host__last_seen_at__lt=now - clock.HOST_AWAY,
        players__connections__gt=0,
        players__bot_level="",
    ).distinct()
    for room in absent_hosts:
        with transaction.atomic():
            _host_pass(room=room, now=now, away=room.host_id or 0)
    people_here = Player.objects.filter(connections__gt=0, bot_level="").values("room_id")
    idle = Room.objects.filter(
        closed_at__isnull=True, is_arena=False, last_activity_at__lt=now - clock.IDLE_ROOM
    )  # an arena's room never closes: its schedule goes on with nobody in
    idle.exclude(pk__in=people_here).update(closed_at=now)
