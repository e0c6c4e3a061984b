"""A seat's presence: its open sockets, counted in the database for every worker (at most
so many a seat, and a place under its client address), whether the room is told the player
came or went, and forgetting the sockets of a worker that died."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction

from games import protocol
from games.limits.addresses import Place, place_claim, place_release
from games.limits.sockets import Refusal
from games.models import Player, Room, sql
from games.realtime.outbox import event_emit
from games.rules import clock
from games.seats.selectors import player_data

# How stale a room's last activity may be: a room closes after hours idle, so a socket that
# comes or goes within this of the last one need not write the room's row again (8 players
# connecting together each waited for the others' writes of it: 67 ms a write, measured).
ACTIVITY_PRECISION = timedelta(seconds=30)


def _room_active(*, room_id: int, now: datetime) -> None:
    """Note activity, which keeps a room from closing as idle (rooms_tidy). An arena's room
    never closes, so its one row, which every arena socket shares, is not written at all."""
    Room.objects.filter(
        pk=room_id, is_arena=False, last_activity_at__lt=now - ACTIVITY_PRECISION
    ).update(last_activity_at=now)


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
def _connections_sql() -> str:
    """Return the one statement that changes a seat's count of open sockets (under limits)."""
    count, seen, since = (
        sql.column(Player, f) for f in ("connections", "last_seen_at", "connected_since")
    )
    pid, room = sql.column(Player, "id"), sql.column(Player, "room")
    players, rooms = sql.table(Player), sql.table(Room)
    quiet = f"{sql.column(Room, 'is_arena')} OR {sql.column(Room, 'is_daily')}"
    return (
        f"UPDATE {players} SET {count} = {count} + %s, {seen} = %s, "
        f"{since} = CASE WHEN {count} = 0 THEN %s ELSE {since} END "
        f"WHERE {pid} = %s AND {count} + %s >= 0 AND {count} + %s <= %s "
        f"RETURNING {count}, {room}, "
        f"(SELECT {quiet} FROM {rooms} WHERE {rooms}.{sql.column(Room, 'id')} = {players}.{room})"
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
    at = Player._meta.get_field("last_seen_at").get_db_prep_value(now, connection)
    found = sql.rows(_connections_sql(), [change, at, at, player_id, change, change, most])
    return None if not found else (int(found[0][0]), int(found[0][1]), bool(found[0][2]))


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


def presence_stale_forget(*, now: datetime) -> None:
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


def seat_full(player: Player) -> Refusal | None:
    """Return the refusal for a new socket if the seat, as just read, already has its limit
    (no query: a flood of sockets on a full seat costs no lock)."""
    if player.connections >= settings.BOGGLE_SOCKETS_PER_SEAT:
        return Refusal(protocol.TOO_MANY_TABS)
    return None


def socket_open(*, player: Player, place: Place | None, now: datetime) -> Refusal | None:
    """Count a new socket for the player's seat and its address (the seat's arrival tells
    the room, as player_connect does); return why it is refused instead, counting
    nothing, when either already has its limit (the seat's checked under its row lock)."""
    full = seat_full(player)
    if full is not None:
        return full
    return placed_and_counted(
        place=place,
        now=now,
        count=lambda: (
            None
            if player_connect(player=player, now=now, limit=settings.BOGGLE_SOCKETS_PER_SEAT)
            else Refusal(protocol.TOO_MANY_TABS)
        ),
    )


def placed_and_counted(
    *, place: Place | None, now: datetime, count: Callable[[], Refusal | None]
) -> Refusal | None:
    """Take a new socket's place under its address, then count it where it goes (`count`
    returns why it cannot); return the refusal, if any, with the place given back."""
    limit = settings.BOGGLE_SOCKETS_PER_ADDRESS
    if place is not None and not place_claim(place, limit=limit, now=now):
        return Refusal(protocol.TOO_MANY_SOCKETS)
    refusal: Refusal | None = Refusal(protocol.TOO_MANY_SOCKETS)  # if count() raises
    try:
        refusal = count()
    finally:
        if place is not None and refusal is not None:
            place_release(place)  # refused, or failed: the place is not used
    return refusal


def socket_close(*, player_id: int, place: Place | None, now: datetime) -> None:
    """Count a socket that socket_open counted as closed (the last one marks the player away)."""
    if place is not None:
        place_release(place)
    player_disconnect(player_id=player_id, now=now)
