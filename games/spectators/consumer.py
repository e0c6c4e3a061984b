"""The spectator's websocket (a room's watch link): the room as its players see it, minus
anyone's words before the results, and nothing it may change.

It is the room socket without a seat: the same snapshot (built for no player: counts and
scores, never words), the same numbered events and word counts, the same board reveal, but
every message that would act is answered SPECTATING and changes nothing. A spectator reads
the chat and does not write in it: a seat is what the host can mute or remove, so a voice
with no seat would be one nobody in the room could quiet.
"""

from __future__ import annotations

import time
from typing import Any

from games import protocol
from games.limits import sockets as socket_limits
from games.limits.buckets import TokenBucket, resume_bucket
from games.realtime.runner import service_run
from games.rooms import selectors as rooms_selectors
from games.rooms import timers as room_timers
from games.rooms.consumer import Events, RoomConsumer
from games.rooms.selectors import events_since, room_catch_up
from games.rounds.selectors import RoundTiming, results_url, round_running_timing
from games.rules import clock
from games.spectators import services as spectators


class SpectatorConsumer(RoomConsumer):
    """One socket watching one room, with no seat."""

    player_id = 0  # no seat: no event about a player is about this socket
    code: str

    async def connect(self) -> None:
        address = socket_limits.address_of(self.scope)
        if not socket_limits.opening_allowed(address, time.monotonic()):
            await self.close()  # before accepting: daphne refuses the handshake (403)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        room = await service_run(lambda: spectators.room_to_watch(code, address))
        if room is None:
            await self.close(code=protocol.CLOSE_NOT_IN_ROOM)
            return
        self.room_id, self.code = room.id, room.code
        self.bucket, self.resumes = TokenBucket(), resume_bucket()
        self.place = socket_limits.address_place(address, self.channel_name)
        await self.accept()
        refusal = await service_run(
            lambda: spectators.spectator_open(
                room_id=room.id, channel=self.channel_name, place=self.place, now=clock.now()
            )
        )
        self.counted = refusal is None
        await self.enter(refusal)

    async def _forget(self) -> None:
        """Stop following the room's timers and stop counting it (once)."""
        if hasattr(self, "room_id"):
            room_timers.leave(self, self.room_id)
        if self.counted:
            self.counted = False
            channel, place = self.channel_name, self.place
            await service_run(lambda: spectators.spectator_close(channel=channel, place=place))

    async def handle(self, message: protocol.Incoming) -> None:
        """Answer what a spectator may ask (catching up, the clock, pings); refuse the rest."""
        match message:
            case protocol.Resume(last_seq=last_seq):
                if not await self.refused_by(self.resumes):
                    await self.resume(last_seq)
            case protocol.ClockZero(round=number):
                await self.end_if_due(number)  # idempotent: ends only a round that is due
            case protocol.Ping():
                channel, now = self.channel_name, clock.now()
                await service_run(lambda: spectators.spectator_seen(channel=channel, now=now))
                await self.send_json(protocol.pong())
            case _:
                raise protocol.ProtocolError(protocol.SPECTATING)

    async def events_missed(self, last_seq: int) -> tuple[Events | None, RoundTiming | None]:
        def read() -> tuple[Events | None, RoundTiming | None]:
            room = rooms_selectors.room_watchable(self.code)
            if room is None:
                return None, None
            return events_since(room, last_seq), round_running_timing(room.id)

        missed, timing = await service_run(read)
        return None if missed is None else [self._watching(event) for event in missed], timing

    async def snapshot_frames(self) -> tuple[Events, RoundTiming | None]:
        def read() -> tuple[Events, RoundTiming | None] | None:
            room = rooms_selectors.room_watchable(self.code)
            if room is None:
                return None
            return room_catch_up(room, None, clock.now())

        found = await service_run(read)
        if found is None:  # closed meanwhile: nothing more to watch
            await self.close(code=protocol.CLOSE_NOT_IN_ROOM)
            return [], None
        return found

    async def room_event(self, event: dict[str, Any]) -> None:
        """Relay a numbered room event, with the results link a spectator may open."""
        watched = self._watching({**event, "type": protocol.EVENT})
        await super().room_event({**event, "data": watched["data"]})

    def _watching(self, event: dict[str, Any]) -> dict[str, Any]:
        """Return an event as a spectator gets it: a round's end points at its results under
        the watch link (the seated link answers 403 to a browser without a seat)."""
        if event.get("event") != protocol.ROUND_ENDED:
            return event
        number = event["data"]["round"]["number"]
        return {
            **event,
            "data": {**event["data"], "results_url": results_url(self.code, number, True)},
        }
