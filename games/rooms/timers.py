"""A room's timers in one worker: one board reveal and one round-end check per running round,
shared by the room's sockets in this process.

Each socket used to keep its own two asyncio tasks (about 1.5 KiB a socket, measured by
`make bench-rooms`) and to read the round's timing from the database when a round started:
a room of eight asked eight times for the same row, and called the idempotent round end
eight times at time-up. Now the first socket of a room to hear of a round reads its timing
(those hearing of it meanwhile wait for that one read), the room's timers fire once, and
the reveal sends the board to every socket of the room here. A room's timers stop when its
last socket here leaves or its round ends.

Call everything from the worker's event loop (one loop per process: no locks needed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from games import protocol
from games.realtime.runner import service_run
from games.rounds import services as rounds
from games.rounds.selectors import RoundTiming, board_data, round_running_timing
from games.rules import clock
from solver.caches import cache_register

log = logging.getLogger(__name__)


class Watcher(Protocol):
    """A socket that is sent the board when its round starts."""

    async def send_json(self, message: dict[str, Any]) -> bool: ...


@dataclass(eq=False)
class _Timers:
    timing: RoundTiming
    sockets: set[Watcher] = field(default_factory=set)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    revealed: bool = False

    def cancel(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []


_rooms: dict[int, _Timers] = {}
_reading: dict[tuple[int, int], asyncio.Future[RoundTiming | None]] = {}


async def timing_of(room_id: int, number: int | None = None) -> RoundTiming | None:
    """Return the timing of the room's running round. Given the number of a round that just
    started (its round_started event), answer from the room's timers when they are that
    round's, and let the sockets that ask at once share one database read (each asked after
    the event, which is sent after the round was stored, so the read sees it)."""
    if number is None:
        return await service_run(lambda: round_running_timing(room_id))
    kept = _rooms.get(room_id)
    if kept is not None and kept.timing.number == number:
        return kept.timing
    key = (room_id, number)
    if key in _reading:
        return await asyncio.shield(_reading[key])
    reading = asyncio.get_running_loop().create_future()
    _reading[key] = reading
    try:
        timing = await service_run(lambda: round_running_timing(room_id))
        reading.set_result(timing)
    except BaseException as exc:
        reading.set_exception(exc)
        reading.exception()  # retrieved: the sockets waiting on it raise it themselves
        raise
    finally:
        del _reading[key]
    return timing


async def watch(socket: Watcher, room_id: int, timing: RoundTiming | None, *, ends: bool) -> None:
    """Have the socket follow the room's running round `timing` (None: no round runs, so the
    socket follows nothing); `ends`: this worker ends the round on time (an arena's rounds
    are the sweep's to end). A socket that arrives after the board's reveal is sent the board
    at once, as every socket was when it joined a round in play."""
    leave(socket, room_id)
    if timing is None:
        return
    kept = _rooms.get(room_id)
    if kept is None or _newer(timing, kept.timing):
        # A round this worker's timers do not follow yet (or one whose clock was moved): the
        # room's sockets here follow it from now on, whichever round they followed.
        sockets = set() if kept is None else kept.sockets
        if kept is not None:
            kept.cancel()
        kept = _rooms[room_id] = _Timers(timing, sockets)
        kept.tasks.append(asyncio.create_task(_reveal(room_id, kept)))
        if ends and timing.ends_at is not None:
            kept.tasks.append(asyncio.create_task(_end_on_time(timing)))
    # else the timers follow this round, or a newer one that started meanwhile: follow them
    kept.sockets.add(socket)
    if kept.revealed:
        await socket.send_json(_board(kept.timing))


def _newer(timing: RoundTiming, kept: RoundTiming) -> bool:
    """Return whether a timing read supersedes the one the room's timers follow: a later
    round, or the same round's clock moved and read after the kept one was (two sockets'
    reads can finish in either order)."""
    if timing.id != kept.id:
        return timing.id > kept.id
    return timing != kept and timing.read_at >= kept.read_at


def leave(socket: Watcher, room_id: int) -> None:
    """Stop the socket following the room's round; the last one to leave stops the timers."""
    kept = _rooms.get(room_id)
    if kept is None:
        return
    kept.sockets.discard(socket)
    if not kept.sockets:
        kept.cancel()
        del _rooms[room_id]


def round_over(room_id: int, number: int) -> None:
    """Stop the room's timers for a round that ended (its round_ended event)."""
    kept = _rooms.get(room_id)
    if kept is not None and kept.timing.number == number:
        kept.cancel()
        del _rooms[room_id]


def _forget_all() -> None:
    """Forget every room's timers, stopping those whose event loop still runs (tests start
    each from nothing, on an event loop of their own)."""
    for kept in _rooms.values():
        for task in kept.tasks:
            if not task.get_loop().is_closed():
                task.cancel()
    _rooms.clear()
    _reading.clear()


cache_register("room timers", _forget_all)


def _board(timing: RoundTiming) -> dict[str, Any]:
    return protocol.board(timing.number, board_data(timing.board))


async def _reveal(room_id: int, kept: _Timers) -> None:
    await asyncio.sleep(clock.RoundClock.of(kept.timing).until_start(clock.now()).total_seconds())
    kept.revealed = True
    frame = _board(kept.timing)
    for socket in list(kept.sockets):
        await _quietly(partial(socket.send_json, frame), room_id)


async def _end_on_time(timing: RoundTiming) -> None:
    until_due = clock.RoundClock.of(timing).until_due(clock.now())
    assert until_due is not None
    await asyncio.sleep(until_due.total_seconds())
    await _quietly(
        lambda: service_run(lambda: rounds.round_end(round_id=timing.id, now=clock.now())),
        timing.id,
    )


async def _quietly(action: Callable[[], Awaitable[Any]], about: int) -> None:
    """Run a timer's action; a failure is logged, never raised: the sweep ends a round whose
    timer failed, and one socket's closed connection must not keep the board from others."""
    try:
        await action()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("a room timer's action failed (room or round %s)", about)
