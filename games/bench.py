"""The room benchmark behind `manage.py bench_rooms`: real websocket clients, real figures."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import websockets
from django.contrib.sessions.backends.db import SessionStore

from games import clock
from games.models import Player, Room, Round, Submission
from games.services import rooms, rounds


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


def _session() -> str:
    session = SessionStore()
    session.create()
    return str(session.session_key)


def rooms_prepare(
    *, rooms_count: int, players_per_room: int, duration: float
) -> list[dict[str, Any]]:
    """Create rooms with seated players and a running round long enough for the load."""
    prepared = []
    for r in range(rooms_count):
        host_key = _session()
        room, host = rooms.room_create(session_key=host_key, nickname=f"host{r}", settings={})
        keys = [host_key]
        for p in range(players_per_room - 1):
            key = _session()
            rooms.player_join(room=room, session_key=key, nickname=f"p{r}-{p}")
            keys.append(key)
        rnd = rounds.round_start(room=room, player=host, now=clock.now())
        now = clock.now()
        Round.objects.filter(pk=rnd.pk).update(
            starts_at=now, ends_at=now + timedelta(seconds=duration + 120)
        )
        words = [w for w, _, _ in rnd.solution] or ["NOWORDS"]  # a rare board holds none
        prepared.append({"code": room.code, "keys": keys, "words": words})
    return prepared


async def _client(
    url: str,
    seat: tuple[str, str, list[str]],
    rate: float,
    start: asyncio.Event,
    connected: asyncio.Queue[bool],
    result: LoadResult,
    rng: random.Random,
) -> None:
    """Connect one seat, wait for the start, submit words at `rate` until the time is up."""
    code, key, words = seat
    origin = url.replace("ws://", "http://")
    try:
        ws = await websockets.connect(
            f"{url}/ws/rooms/{code}/",
            additional_headers={"Cookie": f"sessionid={key}", "Origin": origin},
            open_timeout=60,
        )
        await ws.recv()  # the snapshot: the seat is live
    except (OSError, TimeoutError, websockets.WebSocketException):
        result.connect_failures += 1
        await connected.put(False)
        return
    await connected.put(True)
    pending: dict[str, float] = {}

    async def reader() -> None:
        async for frame in ws:
            if '"submit_result"' not in frame:  # the room's chatter: skip without parsing
                continue
            message = json.loads(frame)
            sent_at = pending.pop(message["client_id"], None)
            if sent_at is not None and message["client_id"].startswith("w-"):
                continue  # a warm-up word: not measured
            if sent_at is not None:
                result.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                result.acked += 1
                result.accepted += bool(message["accepted"])

    reading = asyncio.create_task(reader())
    await start.wait()
    warm_until = time.perf_counter() + result.warmup
    until = warm_until + result.seconds
    await asyncio.sleep(rng.random() / rate)  # spread the clients out
    n = 0
    while time.perf_counter() < until:
        n += 1
        warming = time.perf_counter() < warm_until
        client_id = f"{'w' if warming else 'm'}-{key[:8]}-{n}"
        pending[client_id] = time.perf_counter()
        word = rng.choice(words)
        await ws.send(json.dumps({"type": "submit", "client_id": client_id, "word": word}))
        result.sent += not warming
        await asyncio.sleep(rng.expovariate(rate))
    deadline = time.perf_counter() + 10
    while pending and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    reading.cancel()
    await ws.close()


async def load_run(
    *,
    url: str,
    prepared: list[dict[str, Any]],
    rate: float,
    seconds: float,
    seed: int,
    warmup: float = 5.0,
) -> LoadResult:
    """Connect every seat, then have each submit words at `rate` a second: `warmup` seconds
    unmeasured (connections and caches fill), then `seconds` measured."""
    seats = [(room["code"], key, room["words"]) for room in prepared for key in room["keys"]]
    result = LoadResult(clients=len(seats), rooms=len(prepared), seconds=seconds, warmup=warmup)
    rng = random.Random(seed)
    start, connected = asyncio.Event(), asyncio.Queue[bool]()
    clients = [
        asyncio.create_task(
            _client(url, seat, rate, start, connected, result, random.Random(rng.random()))
        )
        for seat in seats
    ]
    for _ in seats:  # measure the steady state, not the crowd arriving
        await connected.get()
    start.set()
    await asyncio.gather(*clients)
    return result


def scoring_time(*, players: int, words_each: int, repeats: int = 3) -> float:
    """Return the median time in ms to end and score a round of many players and words."""
    times = []
    for _ in range(repeats):
        room, host = rooms.room_create(
            session_key=_session(),
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
            rooms.player_join(room=room, session_key=_session(), nickname=f"p{n}")
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
