"""The arena websocket: a room socket (games.rooms.consumer.RoomConsumer) whose room is an arena's.

Words, chat, resuming, pings and the board's reveal are the room's own. What differs: the
seat is found by the arena's slug; its snapshot is the arena's (no list of players, never
anyone's words); nobody may start, end or change a round, or mute anyone; and the round's
end is not each socket's timer (thousands at once) but the sweep's arena tick, a client's
clock, or the next visitor.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games import protocol
from games.arena.delivery import finished_arena_round
from games.arena.selectors import arena_by_slug, arena_seat, arena_snapshot_frames
from games.arena.services import arena_round_ensure
from games.identity import scope_identity
from games.limits import sockets as socket_limits
from games.models import Player, Room, Round
from games.realtime.relay import relay_join, relay_leave
from games.realtime.runner import service_run
from games.rooms.consumer import Events, RoomConsumer
from games.rounds.selectors import RoundTiming, round_running_timing
from games.rules import clock

log = logging.getLogger(__name__)

# What an arena socket may ask; the host's commands (muting included) are refused with
# ARENA_RULES. Chat is the room's own: closed while a board is in play (games.chat.services).
ALLOWED = (protocol.Submit, protocol.Resume, protocol.ClockZero, protocol.Ping, protocol.Chat)


def _seat_and_round(slug: str, scope: dict[str, Any]) -> Player | None:
    """Return the seat of the socket's player in the arena, having made sure the arena's
    round is stored (a visitor after a quiet spell needs it drawn)."""
    arena = arena_by_slug(slug)
    if arena is None:
        return None
    identity = scope_identity(scope)
    seat = arena_seat(arena, identity)
    if seat is not None:
        arena_round_ensure(arena=arena, now=clock.now())
        seat.room, seat.identity = arena.room, identity
    return seat


def _arena_ensure(slug: str) -> Round | None:
    arena = arena_by_slug(slug)
    return None if arena is None else arena_round_ensure(arena=arena, now=clock.now())


class ArenaConsumer(RoomConsumer):
    """One socket of one player in one arena."""

    def seat_finder(self) -> Callable[[], Player | None]:
        slug, scope = self.scope["url_route"]["kwargs"]["slug"], self.scope
        return lambda: _seat_and_round(slug, scope)

    async def snapshot_frames(self) -> tuple[Events, RoundTiming | None]:
        slug = self.scope["url_route"]["kwargs"]["slug"]

        def frames(player: Player, room: Room) -> tuple[Events, RoundTiming | None]:
            arena = arena_by_slug(slug)
            assert arena is not None  # an arena is never deleted (its room is protected)
            snapshot = arena_snapshot_frames(arena, player, clock.now())
            return snapshot, round_running_timing(room.id)

        return await self.as_player(frames)

    async def enter(self, refusal: socket_limits.Refusal | None) -> None:
        """Join the room as any socket does; the live top comes through this worker's relay
        of the arena's notices (games.realtime.relay), not to each socket through the group.
        Joined first, as the group is: a top before the snapshot is one the page ignores."""
        if refusal is None:
            relay_join(self.room_id, self)
        await super().enter(refusal)

    async def _forget(self) -> None:
        if hasattr(self, "room_id"):
            relay_leave(self.room_id, self)
        await super()._forget()

    async def handle(self, message: protocol.Incoming) -> None:
        if not isinstance(message, ALLOWED):
            raise protocol.ProtocolError(protocol.ARENA_RULES)
        await super().handle(message)

    async def end_if_due(self, asked_about: int | None = None) -> None:
        """A client's clock reached zero: end the round if due and store the next one (the
        sweep's tick does the same within a second; whoever comes first, once)."""
        slug = self.scope["url_route"]["kwargs"]["slug"]
        await service_run(lambda: _arena_ensure(slug))

    ends_rounds = False  # the round's end is not each socket's to call: the sweep's

    async def room_event(self, event: dict[str, Any]) -> None:
        """Relay a room event; after a round's end, send this player's results with it."""
        await super().room_event(event)
        if event["event"] == protocol.ROUND_ENDED:
            await self.send_results(event["data"]["round"]["number"], event["data"]["results_url"])

    async def send_results(self, number: int, results_url: str) -> None:
        """Send this player's results of a finished round in frames (games.arena.delivery);
        when they cannot go that way (too large, or the round could not be read), a frame
        that sends the client to fetch them over HTTP."""
        frames: list[str] = []
        try:
            finished = await finished_arena_round(self.room_id, number)
            if finished is not None:
                frames = finished.frames(self.player_id, int(clock.now().timestamp() * 1000))
        except Exception:
            log.exception("arena results of round %s of room %s", number, self.room_id)
        if not frames or max(map(len, frames)) > settings.WEBSOCKET_MAX_FRAME_BYTES:
            await self.send_json(protocol.arena_results_elsewhere(number, results_url))
            return
        for frame in frames:
            await self.send(text_data=frame)
