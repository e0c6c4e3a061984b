"""Reading seats: a socket's seat with its room, what every client may know of a player, a
room's seats, and how many watch it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Count

from games.models import Player, PlayerIdentity, Room, Spectator
from games.rules import clock


def player_seat(*, room_code: str, identity: PlayerIdentity | None) -> Player | None:
    """Return the seat a player identity holds in a room (with its room), if it has one."""
    if identity is None:
        return None
    return (
        Player.objects.select_related("room")
        .filter(room__code=room_code, identity_id=identity.pk, removed_at__isnull=True)
        .order_by("id")
        .first()
    )


def player_with_room(player_id: int) -> Player | None:
    """Return a seat by its id, with its room, as they are now (removed or not)."""
    return Player.objects.select_related("room").filter(pk=player_id).first()


def player_data(player: Player, room: Room) -> dict[str, Any]:
    """Return what every client may know about a player."""
    return {
        "id": player.id,
        "nickname": player.nickname,
        "connected": player.connections > 0,
        "is_host": room.host_id == player.id,
        "total": player.total_score,
        "bot": player.bot_level or None,
        "joined_at": clock.millis(player.joined_at),
        "muted": player.chat_muted,
    }


def room_players(room_id: int) -> list[Player]:
    """Return a room's seats, in the order they joined."""
    return list(
        Player.objects.filter(room_id=room_id, removed_at__isnull=True).order_by("joined_at", "id")
    )


def spectators_watching(room_ids: Iterable[int], now: datetime | None = None) -> dict[int, int]:
    """Return how many spectator sockets watch each of these rooms (0 for none): those seen
    within clock.PRESENCE_TIMEOUT of `now` (a dead worker's rows stop counting)."""
    ids = list(room_ids)
    seen_since = (now or clock.now()) - clock.PRESENCE_TIMEOUT
    watching = dict(
        Spectator.objects.filter(room_id__in=ids, seen_at__gte=seen_since)
        .values("room_id")
        .annotate(n=Count("id"))
        .values_list("room_id", "n")
    )
    return {room_id: watching.get(room_id, 0) for room_id in ids}
