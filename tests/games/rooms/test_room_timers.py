"""A room's timers in one worker (games.rooms.timers): one reveal and one end per round
however many of the room's sockets are here, one database read when a round starts, and
nothing left running once the sockets leave or the round ends.

The timers measure their waits by the server clock (games.rules.clock.now), which these tests
hold still and move on by hand: a round's end comes when the test says so, however slow the
machine, and nobody waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from games import protocol
from games.rooms import timers as room_timers
from games.rounds.selectors import RoundTiming
from games.rules import clock

BOARD = "4x4-ATEEAPYOTINUEDSE"


class Socket:
    """A socket that keeps what it was sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_json(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True

    def boards(self) -> list[int]:
        return [m["round"] for m in self.sent if m["type"] == protocol.BOARD]


def timing(round_id: int, *, starts_in: float, ends_in: float | None) -> RoundTiming:
    now = clock.now()
    return RoundTiming(
        id=round_id,
        number=round_id,
        board=BOARD,
        starts_at=now + timedelta(seconds=starts_in),
        ends_at=None if ends_in is None else now + timedelta(seconds=ends_in),
    )


class Database:
    """What the timers ask of the database: reads of the running round's timing (answered
    with `answer`) and round ends (by round id), each taking a little time as real ones do."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.answer: RoundTiming | None = None

    async def service_run(self, action: Callable[[], Any]) -> Any:
        await asyncio.sleep(0.01)
        return action()

    def read(self, room_id: int) -> RoundTiming | None:
        self.calls.append("read")
        return self.answer

    def end(self, *, round_id: int, now: Any) -> None:
        self.calls.append(f"end {round_id}")


@pytest.fixture(autouse=True)
def now(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The server clock, standing still until a test moves it (now[0] = a later moment)."""
    moment = [clock.now()]
    monkeypatch.setattr("games.rules.clock.now", lambda: moment[0])
    return moment


async def _timers_run(room_id: int) -> None:
    """Let the room's timers run out (each waits as long as the clock says it must)."""
    await asyncio.wait_for(asyncio.gather(*room_timers._rooms[room_id].tasks), 10)


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> Database:
    fake = Database()
    monkeypatch.setattr(room_timers, "service_run", fake.service_run)
    monkeypatch.setattr(room_timers, "round_running_timing", fake.read)
    monkeypatch.setattr(room_timers.rounds, "round_end", fake.end)
    return fake


async def _past_due(now: list[datetime], running: RoundTiming, room_id: int = 1) -> None:
    """Move the clock to a little after the round is due to end (its grace included), before
    the room's timers first look at it, and let them run."""
    until_due = clock.RoundClock.of(running).until_due(clock.now())
    assert until_due is not None
    now[0] += until_due + timedelta(seconds=0.2)
    await _timers_run(room_id)


async def test_one_reveal_and_one_end_for_all_the_rooms_sockets(
    database: Database, now: list[datetime]
) -> None:
    sockets = [Socket() for _ in range(3)]
    now_running = timing(7, starts_in=0.05, ends_in=0.1)
    for socket in sockets:
        await room_timers.watch(socket, 1, now_running, ends=True)
    assert len(room_timers._rooms[1].tasks) == 2  # not two per socket
    await _past_due(now, now_running)
    assert [s.boards() for s in sockets] == [[7], [7], [7]]
    assert database.calls == ["end 7"]
    late = Socket()  # joins after the reveal: the board at once
    await room_timers.watch(late, 1, now_running, ends=True)
    assert late.boards() == [7]
    for socket in [*sockets, late]:
        room_timers.leave(socket, 1)
    assert room_timers._rooms == {}


async def test_the_sockets_that_hear_of_a_round_at_once_share_one_read(
    database: Database,
) -> None:
    started = timing(3, starts_in=5, ends_in=10)
    database.answer = started
    read = await asyncio.gather(*(room_timers.timing_of(1, 3) for _ in range(8)))
    assert read == [started] * 8 and database.calls == ["read"]
    socket = Socket()
    await room_timers.watch(socket, 1, started, ends=True)
    assert await room_timers.timing_of(1, 3) == started  # the timers' own: no read
    assert database.calls == ["read"]
    await room_timers.timing_of(1)  # a resume reads afresh
    assert database.calls == ["read", "read"]
    room_timers.leave(socket, 1)


async def test_a_newer_round_takes_the_rooms_sockets_and_an_older_one_changes_nothing(
    database: Database, now: list[datetime]
) -> None:
    first, second = Socket(), Socket()
    await room_timers.watch(first, 1, timing(1, starts_in=5, ends_in=10), ends=True)
    newer = timing(2, starts_in=0.02, ends_in=None)
    await room_timers.watch(second, 1, newer, ends=True)
    assert room_timers._rooms[1].timing == newer and room_timers._rooms[1].sockets == {
        first,
        second,
    }
    assert len(room_timers._rooms[1].tasks) == 1  # a round with no end: only the reveal
    await room_timers.watch(first, 1, timing(1, starts_in=5, ends_in=10), ends=True)  # stale
    assert room_timers._rooms[1].timing == newer
    now[0] += timedelta(seconds=0.1)  # past the newer round's start, far from the older's
    await _timers_run(1)
    assert first.boards() == [2] and second.boards() == [2]
    room_timers.round_over(1, 1)  # an older round's end: not these timers'
    assert 1 in room_timers._rooms
    room_timers.round_over(1, 2)
    assert room_timers._rooms == {}


async def test_a_moved_clock_moves_the_timers_and_the_last_to_leave_stops_them(
    database: Database, now: list[datetime]
) -> None:
    socket = Socket()
    await room_timers.watch(socket, 1, timing(4, starts_in=5, ends_in=10), ends=True)
    old_tasks = list(room_timers._rooms[1].tasks)
    moved = timing(4, starts_in=0.01, ends_in=0.05)
    await room_timers.watch(socket, 1, moved, ends=True)
    await _past_due(now, moved)
    assert all(task.cancelled() for task in old_tasks)
    assert socket.boards() == [4] and database.calls == ["end 4"]
    arena = Socket()
    await room_timers.watch(arena, 2, timing(5, starts_in=5, ends_in=0.01), ends=False)
    tasks = list(room_timers._rooms[2].tasks)
    assert len(tasks) == 1  # an arena's worker does not end its rounds on time
    room_timers.leave(arena, 2)
    await asyncio.sleep(0)
    assert all(task.cancelled() for task in tasks) and 2 not in room_timers._rooms
    room_timers.leave(socket, 1)


async def test_a_read_of_a_moved_clock_that_finishes_last_but_was_read_first_changes_nothing(
    database: Database, now: list[datetime]
) -> None:
    """Two sockets read one round's timing around its clock being moved; the earlier read's
    answer may arrive last, and must not put back the old clock."""
    from dataclasses import replace

    host, guest = Socket(), Socket()
    old = replace(timing(6, starts_in=-1, ends_in=180), read_at=1.0)
    moved = replace(timing(6, starts_in=-1, ends_in=0.05), read_at=2.0)
    await room_timers.watch(guest, 1, moved, ends=True)  # the later read, arriving first
    await room_timers.watch(host, 1, old, ends=True)  # the earlier read, arriving last
    assert room_timers._rooms[1].timing.ends_at == moved.ends_at
    assert room_timers._rooms[1].sockets == {host, guest}
    await _past_due(now, moved)
    assert database.calls == ["end 6"]  # ended on the moved clock
    room_timers.leave(host, 1)
    room_timers.leave(guest, 1)
