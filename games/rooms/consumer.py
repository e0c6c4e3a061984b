"""The room websocket: parse a frame, call the service it asks for, send the answer.

Services run through games.realtime.runner, which also delivers what they emitted (room events, word
counts) to every socket in the room; the group-event handlers below relay those.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from channels.generic.websocket import AsyncWebsocketConsumer

from games import protocol
from games.bots import services as bots
from games.chat import services as chat
from games.identity import scope_identity
from games.limits import sockets as socket_limits
from games.limits.addresses import Place
from games.limits.buckets import TokenBucket, hint_bucket, resume_bucket
from games.limits.throttle import ROUNDS_STARTED, socket_allowance_use
from games.models import Player, Room
from games.realtime.frames import stamped_frame
from games.realtime.outbox import account_group, room_group
from games.realtime.runner import service_run
from games.rooms import services as rooms
from games.rooms import timers as room_timers
from games.rooms.selectors import events_since, room_catch_up
from games.rounds import hints, submissions
from games.rounds import services as rounds
from games.rounds.batches import word_submit
from games.rounds.given_boards import BoardRefused
from games.rounds.selectors import RoundTiming, round_running, round_running_timing
from games.rules import clock
from games.seats import presence
from games.seats import services as seats
from games.seats.selectors import player_seat, player_with_room

log = logging.getLogger(__name__)
T = TypeVar("T")
Events = list[dict[str, Any]]  # frames, each a message to send

MAX_REFUSALS = 10  # refusals without a two-second pause before a flooding socket is closed


def _as_player(player_id: int, action: Callable[[Player, Room], T]) -> T:
    """Call action with fresh copies of a seated player and their room."""
    player = player_with_room(player_id)
    if player is None or player.removed_at is not None:
        raise protocol.ProtocolError(protocol.NOT_IN_ROOM)
    return action(player, player.room)


def _room_seat(code: str, scope: dict[str, Any]) -> Player | None:
    """Return the seat a socket's cookies hold in the room with the code, with its room and
    identity."""
    identity = scope_identity(scope)
    player = player_seat(room_code=code, identity=identity)
    if player is None or player.room.is_arena:  # /ws/arena/ only
        return None
    player.identity = identity  # the one it was found by: no query to read it again
    return player


def _counted(
    player: Player | None, place: Place | None
) -> tuple[Player, socket_limits.Refusal | None, int | None] | None:
    """Count a new socket for the seat found (None: none), or say why it is refused; with
    the account the seat's identity belongs to (None: an anonymous one)."""
    if player is None:
        return None
    account = player.identity.user_id if player.identity is not None else None
    return player, presence.socket_open(player=player, place=place, now=clock.now()), account


def _chat_call(
    message: protocol.Chat | protocol.MutePlayer, player: Player, room: Room, now: datetime
) -> None:
    """Call the chat service a chat or mute message asks for."""
    if isinstance(message, protocol.Chat):
        chat.chat_post(room=room, player=player, text=message.text, now=now)
    else:
        chat.player_mute(room=room, by=player, player_id=message.player_id, muted=message.muted)


class RoomConsumer(AsyncWebsocketConsumer):
    """One socket of one player in one room."""

    player_id: int
    room_id: int
    counted = False  # this socket is in the player's connection count
    account_id: int | None = None  # the account whose seat this is (None: anonymous)
    place: Place | None = None  # the socket's place under its client address

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Serve the socket; if the channel layer fails under it (Redis gone), daphne closes
        it with 1011 without calling disconnect(): count it gone here, so the player's
        presence stays true, and let the client reconnect (to this or another worker)."""
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            await self._forget()
            raise

    async def _forget(self) -> None:
        """Stop following the room's timers and take it out of the player's count (once)."""
        if hasattr(self, "room_id"):
            room_timers.leave(self, self.room_id)
        if self.counted:
            self.counted = False
            player_id, place = self.player_id, self.place
            await service_run(
                lambda: presence.socket_close(player_id=player_id, place=place, now=clock.now())
            )

    # Socket handlers ------------------------------------------------------------------

    async def connect(self) -> None:
        address = socket_limits.address_of(self.scope)
        if not socket_limits.opening_allowed(address, time.monotonic()):
            await self.close()  # before accepting: daphne refuses the handshake (403)
            return
        self.place = socket_limits.address_place(address, self.channel_name)
        seated = await self.seat()
        if seated is None:
            await self.close(code=protocol.CLOSE_NOT_IN_ROOM)
            return
        player, refusal, self.account_id = seated
        self.player_id, self.room_id = player.id, player.room_id
        self.bucket, self.resumes = TokenBucket(), resume_bucket()
        self.hint_requests = hint_bucket()
        # Counted from here: a client gone before the accept still has disconnect() count
        # it out.
        self.counted = refusal is None
        await self.accept()
        await self.enter(refusal)

    async def enter(self, refusal: socket_limits.Refusal | None) -> None:
        """Join the room's group and catch up, or, refused (too many sockets), say why and
        close (a 403 could not)."""
        if refusal is not None:
            await self.send_json(protocol.error(refusal.code))
            await self.close(code=refusal.close_code)
            return
        await self.channel_layer.group_add(room_group(self.room_id), self.channel_name)
        if self.account_id is not None:  # told to close when the account's sessions end
            await self.channel_layer.group_add(account_group(self.account_id), self.channel_name)
        await self.resume(self._query_last_seq())

    def seat_finder(self) -> Callable[[], Player | None]:
        """Return what finds this socket's seat, with its room, in a database thread (None:
        not in the room)."""
        code, scope = self.scope["url_route"]["kwargs"]["code"], self.scope
        return lambda: _room_seat(code, scope)

    async def seat(self) -> tuple[Player, socket_limits.Refusal | None, int | None] | None:
        """Return the seat this socket plays as, with its room, and why the socket is refused
        (None: counted for the seat); None: not in the room. Found and counted in one trip to
        the database threads: when a thousand sockets arrive at once, each trip queues behind
        theirs."""
        find, place = self.seat_finder(), self.place
        return await service_run(lambda: _counted(find(), place))

    async def disconnect(self, code: int) -> None:
        if not self.counted:  # refused at connect: never in the group, nothing to count out
            return
        try:
            await self.channel_layer.group_discard(room_group(self.room_id), self.channel_name)
            if self.account_id is not None:
                group = account_group(self.account_id)
                await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:  # the channel layer is down; the group entry expires by itself
            log.warning("leaving the room's group failed; the channel layer is unavailable")
        await self._forget()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.counted:
            return  # refused at connect (too many sockets): it is closing
        if await self.refused_by(self.bucket):
            return
        socket_limits.socket_used(self.place)  # renewed in the background
        try:
            message = protocol.parse(text_data if text_data is not None else bytes_data)
            await self.handle(message)
        except protocol.ProtocolError as exc:
            await self.send_json(protocol.error(exc.code, exc.detail))
            if exc.code == protocol.TOO_LARGE:
                await self.close(code=protocol.CLOSE_TOO_LARGE)

    async def refused_by(self, bucket: TokenBucket) -> bool:
        """Return whether the bucket refuses a message now; answer a refused one, and close
        the socket once it has been refused MAX_REFUSALS times without a pause."""
        if bucket.allow(time.monotonic()):
            return False
        await self.send_json(protocol.error(protocol.RATE_LIMITED))
        if bucket.refused >= MAX_REFUSALS:
            await self.close(code=protocol.CLOSE_FLOOD)
        return True

    async def send_json(self, message: dict[str, Any]) -> bool:
        """Send a message stamped with the server time, so clients can correct their clocks;
        return whether it went. A frame over the limit daphne enforces both ways is not sent
        (daphne would close the socket with 1011): it is a bug, logged as one."""
        frame = stamped_frame(message)
        if frame is None:
            return False
        await self.send(text_data=frame)
        return True

    # Commands -------------------------------------------------------------------------

    async def as_player(self, action: Callable[[Player, Room], T]) -> T:
        """Run a service with fresh copies of this socket's player and room."""
        return await service_run(lambda: _as_player(self.player_id, action))

    async def handle(self, message: protocol.Incoming) -> None:
        """Call the service a message asks for and answer its sender."""
        now = clock.now()
        match message:
            case protocol.Submit(client_id=client_id, word=word, path=path):
                answer = await word_submit(
                    submissions.Sent(self.player_id, self.room_id, client_id, word, path, now)
                )
                await self.send_json(answer)
            case protocol.Resume(last_seq=last_seq):
                if not await self.refused_by(self.resumes):
                    await self.resume(last_seq)
            case protocol.StartRound():
                address = socket_limits.address_of(self.scope)
                await self.as_player(
                    lambda p, r: socket_allowance_use(
                        ROUNDS_STARTED,
                        address,
                        lambda: rounds.round_start(room=r, player=p, now=now),
                        protocol.ROUNDS_TOO_FAST,
                    )
                )
            case protocol.EndRound():
                await self.as_player(
                    lambda p, r: rounds.round_end_by_host(room=r, player=p, now=now)
                )
            case protocol.ClockZero(round=number):
                await self.end_if_due(number)
            case protocol.UpdateSettings(settings=settings):
                try:
                    await self.as_player(
                        lambda p, r: rooms.room_settings_update(
                            room=r, player=p, settings=settings
                        ),
                    )
                except ValueError as exc:
                    raise protocol.ProtocolError.because(protocol.BAD_SETTINGS, exc) from None
            case protocol.GiveBoard(board=board):
                try:
                    await self.as_player(
                        lambda p, r: rooms.room_board_give(room=r, player=p, text=board)
                    )
                except BoardRefused as exc:
                    raise protocol.ProtocolError.because(protocol.BAD_BOARD, exc) from None
            case protocol.RemovePlayer(player_id=player_id):
                await self.as_player(
                    lambda p, r: seats.player_remove(room=r, by=p, player_id=player_id, now=now),
                )
            case protocol.TransferHost(player_id=player_id):
                await self.as_player(
                    lambda p, r: seats.host_transfer(room=r, by=p, player_id=player_id),
                )
            case protocol.AddBot(level=level, dictionary=dictionary):
                try:
                    await self.as_player(
                        lambda p, r: bots.bot_add(room=r, by=p, level=level, dictionary=dictionary)
                    )
                except bots.BotError as exc:
                    raise protocol.ProtocolError(protocol.BAD_BOT, str(exc)) from None
            case protocol.Hint(kind=kind):
                if not await self.refused_by(self.hint_requests):
                    answer = await self.as_player(
                        lambda p, r: hints.hint_take(room=r, player=p, kind=kind, now=now)
                    )
                    await self.send_json(answer)
            case protocol.Ping():
                await self.as_player(lambda p, r: presence.player_seen(player=p, now=now))
                await self.send_json(protocol.pong())
            case protocol.Chat() | protocol.MutePlayer():
                await self.as_player(lambda p, r: _chat_call(message, p, r, now))

    # What a resume reads comes with the timing of the room's running round, read in the same
    # trip to the database threads: a socket's arrival was a trip longer, and when a thousand
    # sockets arrive at once each trip queues behind the others' (each player's first words
    # waited seconds behind their own socket's last read).

    async def events_missed(self, last_seq: int) -> tuple[Events | None, RoundTiming | None]:
        """Return the room events after last_seq (None if some are no longer kept), and the
        timing of the room's running round."""
        return await self.as_player(
            lambda p, r: (events_since(r, last_seq), round_running_timing(r.id))
        )

    async def snapshot_frames(self) -> tuple[Events, RoundTiming | None]:
        """Return the frames of a full snapshot of the room for this socket, and the timing
        of the room's running round."""
        return await self.as_player(lambda p, r: room_catch_up(r, p, clock.now()))

    async def resume(self, last_seq: int | None) -> None:
        """Send the events after last_seq, or a full snapshot when they are not all kept;
        then follow the room's running round."""
        missed = None
        if last_seq is not None:
            missed, timing = await self.events_missed(last_seq)
        for event in missed or []:
            if not await self.send_json(event):
                missed = None  # one too large to send: the snapshot covers it
                break
        if missed is None:
            frames, timing = await self.snapshot_frames()
            for frame in frames:
                await self.send_json(frame)
        await room_timers.watch(self, self.room_id, timing, ends=self.ends_rounds)

    async def end_if_due(self, asked_about: int | None = None) -> None:
        """End the running round if its time is up (idempotent; any socket may ask). If the
        round asked about is already over, this socket missed its end: send a snapshot."""
        running = await service_run(lambda: round_running(self.room_id))
        if running is not None and clock.RoundClock.of(running).is_due(clock.now()):
            await service_run(lambda: rounds.round_end(round_id=running.id, now=clock.now()))
        elif asked_about is not None and (running is None or running.number != asked_about):
            await self.resume(None)

    async def arm_timers(self, number: int) -> None:
        """Follow the room's round numbered `number`, just started: its board reveal and its
        end on time, shared by the room's sockets here (a resume follows the round whose
        timing it read with its snapshot)."""
        timing = await room_timers.timing_of(self.room_id, number)
        await room_timers.watch(self, self.room_id, timing, ends=self.ends_rounds)

    ends_rounds = True  # this socket's worker ends its room's rounds on time

    # Group event handlers -------------------------------------------------------------

    async def account_closed(self, message: dict[str, Any]) -> None:
        """The account's sessions ended (games.realtime.outbox.account_sockets_close): close;
        the page reconnects, and finds its seat only if its browser is still logged in."""
        await self.close(code=protocol.CLOSE_SIGNED_OUT)

    async def room_notice(self, notice: dict[str, Any]) -> None:
        """Relay an unnumbered notice (each carries its whole state, so none is resent)."""
        await self.send_json(notice["message"])

    async def room_event(self, event: dict[str, Any]) -> None:
        """Relay a numbered room event, and react to those that concern this socket."""
        if not await self.send_json(protocol.event(event["seq"], event["event"], event["data"])):
            await self.resume(None)  # a snapshot, in frames that fit, says what it would have
        kind, data = event["event"], event["data"]
        if kind == protocol.ROUND_STARTED:
            await self.arm_timers(data["round"]["number"])
        elif kind == protocol.ROUND_ENDED:
            room_timers.round_over(self.room_id, data["round"]["number"])
        elif kind == protocol.PLAYER_REMOVED and data["player_id"] == self.player_id:
            await self.close(code=protocol.CLOSE_NOT_IN_ROOM)

    def _query_last_seq(self) -> int | None:
        query = dict(
            part.split("=", 1)
            for part in self.scope.get("query_string", b"").decode().split("&")
            if "=" in part
        )
        value = query.get("last_seq", "")
        return int(value) if value.isdigit() else None
