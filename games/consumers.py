"""The room websocket: a thin relay between one browser tab and the game services."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import clock, protocol
from games.models import Player, Room, Round
from games.ratelimit import TokenBucket
from games.selectors import board_data, events_since, room_snapshot, round_running
from games.services import rooms, rounds, submissions
from games.services.events import room_group

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_REFUSALS = 10  # messages refused in a row for flooding before the socket is closed
CLOSE_NOT_IN_ROOM = 4403
CLOSE_FLOOD = 4429
CLOSE_TOO_LARGE = 1009


@database_sync_to_async
def _seat(code: str, session_key: str | None) -> Player | None:
    if not session_key:
        return None
    return (
        Player.objects.select_related("room")
        .filter(room__code=code, session_key=session_key, removed_at__isnull=True)
        .first()
    )


@database_sync_to_async
def _as_player(player_id: int, action: Callable[[Player, Room], T]) -> T:
    """Run action with fresh copies of the player and their room (the host may have changed)."""
    player = Player.objects.select_related("room").get(pk=player_id)
    if player.removed_at is not None:
        raise protocol.ProtocolError(protocol.NOT_IN_ROOM)
    return action(player, player.room)


def _disconnect(player_id: int) -> None:
    player = Player.objects.filter(pk=player_id).first()
    if player is not None:
        rooms.player_disconnect(player=player, now=clock.now())


class RoomConsumer(AsyncWebsocketConsumer):
    """One socket of one player in one room."""

    player_id: int
    room_id: int
    timers: list[asyncio.Task[None]]

    # Socket handlers ------------------------------------------------------------------

    async def connect(self) -> None:
        session = self.scope.get("session")
        player = await _seat(
            self.scope["url_route"]["kwargs"]["code"], getattr(session, "session_key", None)
        )
        if player is None:
            await self.close(code=CLOSE_NOT_IN_ROOM)
            return
        self.player_id, self.room_id = player.id, player.room_id
        self.timers, self.bucket = [], TokenBucket()
        await self.accept()
        await self.channel_layer.group_add(room_group(player.room_id), self.channel_name)
        await _as_player(
            self.player_id, lambda p, r: rooms.player_connect(player=p, now=clock.now())
        )
        await self.resume(self._query_last_seq())

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "player_id"):
            return
        for timer in self.timers:
            timer.cancel()
        await self.channel_layer.group_discard(room_group(self.room_id), self.channel_name)
        await database_sync_to_async(_disconnect)(self.player_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.allow(time.monotonic()):
            await self.send_json(protocol.error(protocol.RATE_LIMITED))
            if self.bucket.refused >= MAX_REFUSALS:
                await self.close(code=CLOSE_FLOOD)
            return
        try:
            message = protocol.parse(text_data if text_data is not None else bytes_data)
            await self.handle(message)
        except protocol.ProtocolError as exc:
            await self.send_json(protocol.error(exc.code, exc.detail))
            if exc.code == protocol.TOO_LARGE:
                await self.close(code=CLOSE_TOO_LARGE)

    async def send_json(self, message: dict[str, Any]) -> None:
        """Send a message stamped with the server time, so clients can correct their clocks."""
        await self.send(
            text_data=protocol.dump({**message, "server_time": clock.millis(clock.now())})
        )

    # Commands -------------------------------------------------------------------------

    async def handle(self, message: protocol.Incoming) -> None:
        """Call the service a message asks for and answer its sender."""
        now = clock.now()
        match message:
            case protocol.Submit(client_id=client_id, word=word, path=path):
                answer = await _as_player(
                    self.player_id,
                    lambda p, r: submissions.submission_create(
                        player=p, client_id=client_id, word=word, path=path, now=now
                    ),
                )
                await self.send_json(answer)
            case protocol.Resume(last_seq=last_seq):
                await self.resume(last_seq)
            case protocol.StartRound():
                await _as_player(
                    self.player_id, lambda p, r: rounds.round_start(room=r, player=p, now=now)
                )
            case protocol.EndRound():
                await _as_player(
                    self.player_id, lambda p, r: rounds.round_end_by_host(room=r, player=p, now=now)
                )
            case protocol.ClockZero():
                await self.end_if_due()
            case protocol.UpdateSettings(settings=settings):
                try:
                    await _as_player(
                        self.player_id,
                        lambda p, r: rooms.room_settings_update(
                            room=r, player=p, settings=settings
                        ),
                    )
                except ValueError as exc:
                    raise protocol.ProtocolError(protocol.BAD_SETTINGS, str(exc)) from None
            case protocol.RemovePlayer(player_id=player_id):
                await _as_player(
                    self.player_id,
                    lambda p, r: rooms.player_remove(room=r, by=p, player_id=player_id, now=now),
                )
            case protocol.TransferHost(player_id=player_id):
                await _as_player(
                    self.player_id,
                    lambda p, r: rooms.host_transfer(room=r, by=p, player_id=player_id),
                )
            case protocol.Ping():
                await _as_player(self.player_id, lambda p, r: rooms.player_seen(player=p, now=now))
                await self.send_json({"type": "pong"})

    async def resume(self, last_seq: int | None) -> None:
        """Send the events after last_seq, or a full snapshot when they are not all kept."""
        missed = None
        if last_seq is not None:
            missed = await _as_player(self.player_id, lambda p, r: events_since(r, last_seq))
        if missed is None:
            snapshot = await _as_player(
                self.player_id, lambda p, r: room_snapshot(r, p, clock.now())
            )
            await self.send_json(snapshot)
        else:
            for event in missed:
                await self.send_json(event)
        await self.arm_timers()

    async def end_if_due(self) -> None:
        """End the running round if its time is up (idempotent; any socket may ask)."""
        running = await database_sync_to_async(round_running)(self.room_id)
        if running is not None and clock.round_is_due(running.ends_at, clock.now()):
            await database_sync_to_async(rounds.round_end)(round_id=running.id, now=clock.now())

    async def arm_timers(self) -> None:
        """Schedule this socket's board reveal and round-end check for the running round."""
        for timer in self.timers:
            timer.cancel()
        running: Round | None = await database_sync_to_async(round_running)(self.room_id)
        if running is None:
            self.timers = []
            return
        self.timers = [asyncio.create_task(self._reveal_board(running))]
        if running.ends_at is not None:
            self.timers.append(asyncio.create_task(self._end_on_time(running)))

    async def _reveal_board(self, rnd: Round) -> None:
        await asyncio.sleep(max(0.0, (rnd.starts_at - clock.now()).total_seconds()))
        await self.send_json({"type": "board", "round": rnd.number, "board": board_data(rnd.board)})

    async def _end_on_time(self, rnd: Round) -> None:
        assert rnd.ends_at is not None
        await asyncio.sleep(max(0.0, (rnd.ends_at + clock.GRACE - clock.now()).total_seconds()))
        try:
            await database_sync_to_async(rounds.round_end)(round_id=rnd.id, now=clock.now())
        except Exception:  # the sweep will end it; never let a timer kill the socket
            log.exception("ending round %s on time failed", rnd.id)

    # Group event handlers -------------------------------------------------------------

    async def room_event(self, event: dict[str, Any]) -> None:
        """Relay a numbered room event, and react to those that concern this socket."""
        await self.send_json(protocol.event(event["seq"], event["event"], event["data"]))
        kind, data = event["event"], event["data"]
        if kind == "round_started":
            await self.arm_timers()
        elif kind == "round_ended":
            for timer in self.timers:
                timer.cancel()
        elif kind == "player_removed" and data["player_id"] == self.player_id:
            await self.close(code=CLOSE_NOT_IN_ROOM)

    def _query_last_seq(self) -> int | None:
        query = dict(
            part.split("=", 1)
            for part in self.scope.get("query_string", b"").decode().split("&")
            if "=" in part
        )
        value = query.get("last_seq", "")
        return int(value) if value.isdigit() else None
