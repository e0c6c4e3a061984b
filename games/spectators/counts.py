"""How many spectators watch a room, sent coalesced (games.realtime.counts) as watch sockets
open and close."""

from __future__ import annotations

from collections.abc import Iterable

from games import protocol
from games.realtime.counts import Notices, count_kind
from games.realtime.outbox import count_changed, room_group
from games.seats.selectors import spectators_watching

SPECTATORS_EVERY_S = 1.0  # between two sends of a room's count (people come and go less often)


def spectators_notices(room_ids: Iterable[int]) -> Notices:
    """Return (group, notice) with how many spectators watch each of these rooms now."""
    watching = spectators_watching(room_ids)
    return [
        (room_group(room_id), {"type": "room.notice", "message": protocol.spectators(count)})
        for room_id, count in watching.items()
    ]


SPECTATORS = count_kind("spectator counts", SPECTATORS_EVERY_S, spectators_notices)


def spectators_changed(*, room_id: int) -> None:
    """Record that the room's spectator count changed (sent, coalesced, once this commits)."""
    count_changed(kind=SPECTATORS.what, room_id=room_id)
