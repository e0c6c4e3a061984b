"""The room benchmark behind `manage.py bench_rooms`: real websocket clients, real figures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import websockets

from games.identity import COOKIE_NAME, cookie_value, identity_create
from games.models import Player, PlayerIdentity, Room, Round, Submission
from games.rooms import services as rooms
from games.rounds import services as rounds
from games.rules import clock


@dataclass
class LoadResult:
    """What the clients measured."""

    clients: int
    rooms: int
    seconds: float
    warmup: float = 0.0
    sent: int = 0
    acked: int = 0
    accepted: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    connect_failures: int = 0
    rate_limited: int = 0  # submissions refused for flooding (a client over ~8 a second)
    completed: int = 0  # answers that arrived while this phase ran, whenever sent

    @property
    def lost(self) -> int:
        """Return the submissions that never got an answer."""
        return self.sent - self.acked

    def percentile(self, p: float) -> float:
        """Return a latency percentile in milliseconds (0 if nothing was measured)."""
        if not self.latencies_ms:
            return 0.0
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _identity() -> PlayerIdentity:
    return identity_create()


def rooms_prepare(
    *, rooms_count: int, players_per_room: int, duration: float
) -> list[dict[str, Any]]:
    """Create rooms with seated players and a running round long enough for the load."""
    prepared = []
    for r in range(rooms_count):
        host_identity = _identity()
        room, host = rooms.room_create(identity=host_identity, nickname=f"host{r}", settings={})
        keys = [cookie_value(host_identity)]
        for p in range(players_per_room - 1):
            identity = _identity()
            rooms.player_join(room=room, identity=identity, nickname=f"p{r}-{p}")
            keys.append(cookie_value(identity))
        rnd = rounds.round_start(room=room, player=host, now=clock.now())
        now = clock.now()
        Round.objects.filter(pk=rnd.pk).update(
            starts_at=now, ends_at=now + timedelta(seconds=duration + 120)
        )
        words = [w for w, _, _ in rnd.solution] or ["NOWORDS"]  # a rare board holds none
        prepared.append({"code": room.code, "keys": keys, "words": words})
    return prepared


@dataclass
class Phase:
    """One stretch of a phased load: every client submits `rate` words a second for
    `seconds`; `index` is -1 for the unmeasured warm-up."""

    index: int
    rate: float
    seconds: float
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)


class _Load:
    """What every client of a phased load shares: the phases, the results, the answers
    still awaited, and which phase the clock is in (for answers counted as they arrive)."""

    def __init__(self, phases: list[Phase], clients: int, rooms: int) -> None:
        self.phases = phases
        self.results = [
            LoadResult(clients=clients, rooms=rooms, seconds=p.seconds) for p in phases[1:]
        ]
        self.pending = 0
        self.now_measuring = -1


async def _phased_client(
    url: str,
    seat: tuple[str, str, list[str]],
    load: _Load,
    connected: asyncio.Queue[bool],
    rng: random.Random,
) -> None:
    """Connect one seat, then submit words through every phase."""
    code, key, words = seat
    try:
        ws = await websockets.connect(
            f"{url}/ws/rooms/{code}/",
            additional_headers={"Cookie": f"{COOKIE_NAME}={key}", "Origin": "http" + url[2:]},
            open_timeout=60,
        )
        await ws.recv()  # the snapshot: the seat is live
    except (OSError, TimeoutError, websockets.WebSocketException):
        load.results[0].connect_failures += 1
        await connected.put(False)
        return
    await connected.put(True)
    pending: dict[str, tuple[int, float]] = {}
    current = [-1]

    async def reader() -> None:
        async for frame in ws:
            if '"submit_result"' not in frame:
                if '"rate_limited"' in frame and current[0] >= 0:
                    load.results[current[0]].rate_limited += 1
                continue  # the room's chatter: skip without parsing
            message = json.loads(frame)
            phase, sent_at = pending.pop(message["client_id"], (-1, 0.0))
            load.pending -= 1
            if load.now_measuring >= 0:
                load.results[load.now_measuring].completed += 1
            if phase >= 0:
                result = load.results[phase]
                result.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                result.acked += 1
                result.accepted += bool(message["accepted"])

    reading = asyncio.create_task(reader())
    n = 0
    for phase in load.phases:
        await phase.go.wait()
        current[0] = phase.index
        await asyncio.sleep(rng.random() / phase.rate)  # spread the clients out
        while not phase.stop.is_set():
            n += 1
            client_id = f"{phase.index}-{key[:8]}-{n}"
            pending[client_id] = (phase.index, time.perf_counter())
            load.pending += 1
            await ws.send(
                json.dumps({"type": "submit", "client_id": client_id, "word": rng.choice(words)})
            )
            if phase.index >= 0:
                load.results[phase.index].sent += 1
            await asyncio.sleep(rng.expovariate(phase.rate))
    await load.phases[-1].stop.wait()
    deadline = time.perf_counter() + 120
    while pending and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    reading.cancel()
    await ws.close()


async def load_phases(
    *,
    urls: list[str],
    prepared: list[dict[str, Any]],
    rates: list[float],
    seconds: float,
    seed: int,
    warmup: float = 5.0,
    gap: float = 2.0,
    drain: float = 120.0,
    first: int = 0,
    on_first: Callable[[], None] = lambda: None,
    on_connected: Callable[[], None] = lambda: None,
    on_phase: Callable[[int, str], None] = lambda index, edge: None,
) -> list[LoadResult]:
    """Connect every seat (seat n to urls[n % len(urls)], as a proxy spreads them): the
    `first` seats, then on_first(), then the others, then on_connected(). Then a warm-up at
    the first rate, and each rate for `seconds`; after each, wait until every answer is in
    (at most `drain` seconds) and `gap` more, so no phase measures another's backlog.
    on_phase(index, "start" | "end") is called at the edges of each measured phase. Return
    one result per rate. (Memory measured at on_first and on_connected gives the cost of one
    more connection, without what the first connections load once.)"""
    seats = [(room["code"], key, room["words"]) for room in prepared for key in room["keys"]]
    phases = [Phase(-1, rates[0], warmup)] + [
        Phase(n, rate, seconds) for n, rate in enumerate(rates)
    ]
    load = _Load(phases, len(seats), len(prepared))
    rng = random.Random(seed)
    connected = asyncio.Queue[bool]()
    clients: list[asyncio.Task[None]] = []
    for batch, hook in ((seats[:first], on_first), (seats[first:], on_connected)):
        for seat in batch:
            url = urls[len(clients) % len(urls)]
            client = _phased_client(url, seat, load, connected, random.Random(rng.random()))
            clients.append(asyncio.create_task(client))
        for _ in batch:
            await connected.get()
        await asyncio.sleep(0.5)  # let the last connections' work finish before measuring
        hook()
    for phase in phases:
        if phase.index >= 0:
            on_phase(phase.index, "start")
            load.now_measuring = phase.index
        phase.go.set()
        await asyncio.sleep(phase.seconds)
        phase.stop.set()
        load.now_measuring = -1
        if phase.index >= 0:
            on_phase(phase.index, "end")
        deadline = time.perf_counter() + drain
        while load.pending > 0 and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(gap)
    await asyncio.gather(*clients)
    return load.results


def scoring_time(*, players: int, words_each: int, repeats: int = 3) -> float:
    """Return the median time in ms to end and score a round of many players and words."""
    times = []
    for _ in range(repeats):
        room, host = rooms.room_create(
            identity=_identity(),
            nickname="host",
            settings={
                "preset": "custom",
                "dice": "english-letters",
                "rows": 10,
                "cols": 10,
                "duration": 600,
            },
        )
        seats = [host] + [
            rooms.player_join(room=room, identity=_identity(), nickname=f"p{n}")
            for n in range(players - 1)
        ]
        rnd = rounds.round_start(room=room, player=host, now=clock.now())
        rng = random.Random(1)
        Submission.objects.bulk_create(
            Submission(round=rnd, player=p, word=w, path=path, points=pts, client_id=w)
            for p in seats
            for w, path, pts in rng.sample(rnd.solution, min(words_each, len(rnd.solution)))
        )
        started = time.perf_counter()
        rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def bench_cleanup(codes: list[str]) -> None:
    """Delete the rooms a benchmark made."""
    Player.objects.filter(room__code__in=codes).delete()
    Room.objects.filter(code__in=codes).delete()


# The soak: rooms that come and go for a long time -------------------------------------


@dataclass
class SoakStats:
    """What the soak's clients did so far."""

    rounds: int = 0
    joins: int = 0
    sent: int = 0
    acked: int = 0
    lost: int = 0  # submissions never answered (counted when the room is left)
    errors: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    open_sockets: int = 0


def soak_room(players: int, duration: int) -> tuple[str, list[str]]:
    """Create a room with `players` seats and `duration`-second rounds; return its code and
    the seats' identity cookies, the host's first."""
    host_identity = _identity()
    room, _ = rooms.room_create(
        identity=host_identity, nickname="host", settings={"duration": duration}
    )
    keys = [cookie_value(host_identity)]
    for p in range(players - 1):
        identity = _identity()
        rooms.player_join(room=room, identity=identity, nickname=f"p{p}")
        keys.append(cookie_value(identity))
    return room.code, keys


def _solution(code: str, number: int) -> list[str]:
    rnd = Round.objects.get(room__code=code, number=number)
    return [word for word, _, _ in rnd.solution] or ["NOWORDS"]


class _SoakSeat:
    """One player's socket in a soak room: counts answers, notices the round's events."""

    def __init__(self, ws: Any, stats: SoakStats) -> None:
        self.ws, self.stats = ws, stats
        self.started: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.ended = asyncio.Event()
        self.pending: set[str] = set()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                if '"submit_result"' in frame:
                    self.pending.discard(json.loads(frame)["client_id"])
                    self.stats.acked += 1
                elif '"round_started"' in frame and not self.started.done():
                    self.started.set_result(json.loads(frame)["data"]["round"])
                elif '"round_ended"' in frame:
                    self.ended.set()
        except websockets.ConnectionClosed:
            pass

    async def submit(self, client_id: str, word: str) -> None:
        self.pending.add(client_id)
        self.stats.sent += 1
        await self.ws.send(json.dumps({"type": "submit", "client_id": client_id, "word": word}))

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()


async def soak_lane(
    *,
    lane: int,
    urls: list[str],
    players: int,
    duration: int,
    rate: float,
    stop_at: float,
    stats: SoakStats,
    rng: random.Random,
) -> None:
    """Until `stop_at` (time.monotonic()): seat players in a new room, play one round,
    leave; again and again."""
    from channels.db import database_sync_to_async

    while time.monotonic() < stop_at:
        seats: list[_SoakSeat] = []
        try:
            code, keys = await database_sync_to_async(soak_room)(players, duration)
            stats.rooms.append(code)
            for n, key in enumerate(keys):
                url = urls[(lane + n) % len(urls)]
                ws = await websockets.connect(
                    f"{url}/ws/rooms/{code}/",
                    additional_headers={
                        "Cookie": f"{COOKIE_NAME}={key}",
                        "Origin": "http" + url[2:],
                    },
                    open_timeout=30,
                )
                seats.append(_SoakSeat(ws, stats))
                stats.open_sockets += 1
            stats.joins += len(keys)
            await seats[0].ws.send(json.dumps({"type": "start_round"}))
            started = await asyncio.wait_for(seats[-1].started, 30)
            words = await database_sync_to_async(_solution)(code, started["number"])
            ends_at = started["ends_at"] / 1000
            n = 0
            while time.time() < ends_at - 0.5:
                n += 1
                seat = rng.choice(seats)
                await seat.submit(f"s{n}", rng.choice(words))
                await asyncio.sleep(rng.expovariate(rate * len(seats)))
            await asyncio.wait_for(
                asyncio.gather(*(seat.ended.wait() for seat in seats)), ends_at - time.time() + 15
            )
            stats.rounds += 1
        except Exception as exc:  # a lane keeps going; the report counts what went wrong
            stats.errors.append(f"{type(exc).__name__}: {exc}"[:200])
        finally:
            for _ in range(40):  # answers still on their way
                if not any(seat.pending for seat in seats):
                    break
                await asyncio.sleep(0.05)
            for seat in seats:
                stats.lost += len(seat.pending)
                stats.open_sockets -= 1
                with contextlib.suppress(Exception):  # already closed
                    await seat.close()
        await asyncio.sleep(rng.uniform(0.5, 3))
