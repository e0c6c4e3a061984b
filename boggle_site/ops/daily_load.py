"""The daily board benchmark behind `manage.py bench_daily`: a leaderboard of many attempts
read through the selectors, and many players starting the day's board on a real worker."""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import websockets
from django.db import connection, transaction
from django.db.models.signals import post_delete
from django.test.utils import CaptureQueriesContext

from boggle_site.ops.http import http_request
from games.daily import scores as daily_scores
from games.daily.rules import DailyGame
from games.daily.selectors import attempt_row, leaderboard_page, score_standing
from games.identity import COOKIE_NAME, cookie_value, identity_create
from games.models import (
    DailyAttempt,
    DailyBoard,
    DailyScore,
    PlayerIdentity,
    Room,
    Submission,
)
from games.rules import clock
from solver.dictionaries import selectors as solver_selectors
from solver.engine.board import Board

BENCH_GAME = "bench"  # the leaderboard part's board: a game no page names
BENCH_DAY = date(2000, 1, 1)


def percentile(values: list[float], p: float) -> float:
    """Return a percentile of measured times (0 if none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# The leaderboard ---------------------------------------------------------------------------


def leaderboard_fill(attempts: int, seed: int) -> DailyBoard:
    """Store a board with `attempts` finished ranked attempts (scores roughly normal, as a
    day's players score), and let PostgreSQL's planner know the table's new size."""
    leaderboard_clear()
    rng = random.Random(seed)
    now = clock.now()
    board = DailyBoard.objects.create(
        game=BENCH_GAME, day=BENCH_DAY, board="4x4-BENCHBOARDABCDE", seed=seed,
        dictionary_hash="bench", words=500, max_score=900,
    )  # fmt: skip
    batch = 10_000
    histogram: Counter[int] = Counter()
    for start in range(0, attempts, batch):
        size = min(batch, attempts - start)
        with transaction.atomic():
            rooms = Room.objects.bulk_create(
                Room(code=f"BD{start + n:08d}", is_solo=True, is_daily=True) for n in range(size)
            )
            made = DailyAttempt.objects.bulk_create(
                DailyAttempt(
                    board=board,
                    player_key=f"b{start + n}",
                    room=room,
                    nickname=f"P{start + n}",
                    ranked=True,
                    started_at=now,
                    ends_at=now,
                    finished_at=now,
                    score=max(0, int(rng.gauss(45, 18))),
                    words=rng.randint(0, 60),
                )  # fmt: skip
                for n, room in enumerate(rooms)
            )
            histogram.update(attempt.score for attempt in made)
    DailyScore.objects.bulk_create(
        DailyScore(board=board, score=score, players=n) for score, n in histogram.items()
    )
    with connection.cursor() as cursor:
        for model in (DailyAttempt, DailyScore):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
    return board


def leaderboard_clear() -> None:
    """Delete the leaderboard part's board, attempts and rooms, the histogram with them (not
    one count at a time, as deleting a player's attempts does)."""
    post_delete.disconnect(daily_scores.attempt_deleted, sender=DailyAttempt)
    try:
        Room.objects.filter(daily_attempt__board__game=BENCH_GAME).delete()
        DailyBoard.objects.filter(game=BENCH_GAME).delete()
    finally:
        post_delete.connect(daily_scores.attempt_deleted, sender=DailyAttempt)


@dataclass
class LeaderboardFigures:
    """Times (ms) of the leaderboard's reads, and the query plans behind them."""

    page_ms: list[float] = field(default_factory=list)
    standing_ms: list[float] = field(default_factory=list)
    plans: dict[str, str] = field(default_factory=dict)


def leaderboard_measure(board: DailyBoard, repeats: int, seed: int) -> LeaderboardFigures:
    """Time a leaderboard page (first, middle and last pages) and a player's rank and
    percentile (their row and standing) for random players; EXPLAIN every query once."""
    rng = random.Random(seed)
    figures = LeaderboardFigures()
    players = list(DailyAttempt.objects.filter(board=board).values_list("id", flat=True))
    pages = leaderboard_page(board.pk).pages
    for n in range(repeats):
        page = (1, pages // 2, pages)[n % 3]
        started = time.perf_counter()
        leaderboard_page(board.pk, page)
        figures.page_ms.append((time.perf_counter() - started) * 1000)
        attempt = DailyAttempt.objects.get(pk=rng.choice(players))
        started = time.perf_counter()
        attempt_row(attempt)
        standing = score_standing(board.pk, attempt.score)
        _ = standing.percentile
        figures.standing_ms.append((time.perf_counter() - started) * 1000)
    for name, call in (
        ("leaderboard page 1", lambda: leaderboard_page(board.pk, 1)),
        (f"leaderboard page {pages}", lambda: leaderboard_page(board.pk, pages)),
        ("rank and percentile", lambda: score_standing(board.pk, 45)),
    ):
        figures.plans.update(_plans(name, call))
    return figures


def scanned_tables(plans: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Return the tables the plans read by a sequential scan, with their rows and pages as
    PostgreSQL last counted them."""
    names = sorted({m.group(1) for plan in plans for m in re.finditer(r"Seq Scan on (\w+)", plan)})
    sizes: dict[str, tuple[int, int]] = {}
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute("SELECT reltuples, relpages FROM pg_class WHERE relname = %s", [name])
            found = cursor.fetchone()
            rows, pages = found if found is not None else (-1, -1)
            sizes[name] = (max(int(rows), 0), int(pages))
    return sizes


def _plans(name: str, call: Callable[[], object]) -> dict[str, str]:
    """Return EXPLAIN ANALYZE of every query a call makes, by name."""
    with CaptureQueriesContext(connection) as captured:
        call()
    plans = {}
    with connection.cursor() as cursor:
        for n, query in enumerate(captured.captured_queries):
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + query["sql"])
            plan = "\n".join(row[0] for row in cursor.fetchall())
            plans[f"{name}, query {n + 1}: {query['sql']}"] = plan
    return plans


# Many players starting the day's board ----------------------------------------------------


@dataclass
class StartFigures:
    """What the start clients measured."""

    players: int
    start_ms: list[float] = field(default_factory=list)
    start_failures: list[str] = field(default_factory=list)
    connect_failures: int = 0
    sent: int = 0
    acked: int = 0
    accepted: int = 0
    ack_ms: list[float] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        """Return the words sent and never answered."""
        return self.sent - self.acked


def players_prepare(players: int) -> list[PlayerIdentity]:
    """Return new anonymous identities, one per benchmark player."""
    return [identity_create() for _ in range(players)]


def board_words(board: DailyBoard, game: DailyGame) -> list[str]:
    """Return the words of a day's board (what the benchmark's players find)."""
    solver = solver_selectors.dictionary_solver(
        solver_selectors.dictionary_or_default(pk=board.dictionary_id), game.settings.rules
    )
    return [word for word, _ in solver.solve(Board.from_share_code(board.board)).scored_words()]


async def _start(http_url: str, path: str, cookie: str) -> tuple[int, str]:
    """POST a start as a browser would (identity and CSRF cookies); return status, Location."""
    token = secrets.token_hex(16)  # 32 characters: a CSRF secret the header repeats
    status, headers, _ = await http_request(
        http_url, "POST", path,
        {
            "Cookie": f"{COOKIE_NAME}={cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "Content-Type": "application/x-www-form-urlencoded",
        },
        b"nickname=Bench",
    )  # fmt: skip
    return status, headers.get("location", "")


async def _player(
    url: str, http_url: str, path: str, cookie: str, words: list[str], delay: float,
    play_s: float, rate: float, figures: StartFigures, rng: random.Random,
) -> None:  # fmt: skip
    """Start at `delay` seconds, open the attempt's room, find words for `play_s` seconds."""
    await asyncio.sleep(delay)
    started = time.perf_counter()
    status, location = await _start(http_url, path, cookie)
    figures.start_ms.append((time.perf_counter() - started) * 1000)
    if status != 302 or "/r/" not in location:
        figures.start_failures.append(f"{status} {location}")
        return
    code = location.rstrip("/").rsplit("/", 1)[1]
    figures.codes.append(code)
    try:
        ws = await websockets.connect(
            f"{url}/ws/rooms/{code}/",
            additional_headers={"Cookie": f"{COOKIE_NAME}={cookie}", "Origin": http_url},
            open_timeout=60,
        )
    except (OSError, TimeoutError, websockets.WebSocketException):
        figures.connect_failures += 1
        return
    pending: dict[str, float] = {}

    async def reader() -> None:
        async for frame in ws:
            if '"submit_result"' in frame:
                message = json.loads(frame)
                sent_at = pending.pop(message["client_id"], None)
                if sent_at is not None:
                    figures.ack_ms.append((time.perf_counter() - sent_at) * 1000)
                    figures.acked += 1
                    figures.accepted += bool(message["accepted"])

    reading = asyncio.create_task(reader())
    await asyncio.sleep(clock.countdown().total_seconds())  # the board shows after it
    until = time.perf_counter() + play_s
    n = 0
    while time.perf_counter() < until:
        await asyncio.sleep(rng.expovariate(rate))
        n += 1
        client_id = f"{cookie[:6]}-{n}"
        pending[client_id] = time.perf_counter()
        figures.sent += 1
        await ws.send(
            json.dumps({"type": "submit", "client_id": client_id, "word": rng.choice(words)})
        )
    deadline = time.perf_counter() + 60
    while pending and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    reading.cancel()
    await ws.close()


async def starts_run(
    *, url: str, http_url: str, path: str, cookies: list[str], words: list[str], over_s: float,
    play_s: float, rate: float, seed: int,
) -> StartFigures:  # fmt: skip
    """Start every player at an even pace over `over_s` seconds, each then playing."""
    figures = StartFigures(players=len(cookies))
    rng = random.Random(seed)
    await asyncio.gather(
        *(
            _player(
                url,
                http_url,
                path,
                cookie,
                words,
                n * over_s / len(cookies),
                play_s,
                rate,
                figures,
                random.Random(rng.random()),
            )  # fmt: skip
            for n, cookie in enumerate(cookies)
        )
    )
    return figures


# One player at a time ----------------------------------------------------------------------
#
# The rush's figures follow the worker's CPU a player, and on a slow or busy host a rush
# queues, which changes what the worker does (rounds end within the run, batches fill up).
# This part measures the cost itself: each step of a daily player, one player at a time on an
# otherwise idle worker, in the worker's CPU (its event loop and the rest: database threads,
# the sweep), less what the idle worker spends meanwhile.

STEPS = ("start", "arrival", "word", "leaving")
STEP_NAMES = {
    "start": "the start (POST, attempt stored, redirect)",
    "arrival": "the arrival (socket, seat counted, snapshot)",
    "word": "a word (submit, judged, stored, answered)",
    "leaving": "the leaving (socket closed, seat counted out)",
}

CpuReader = Callable[[], tuple[float, float]]  # the worker's (loop, rest) CPU seconds so far


@dataclass
class StepCosts:
    """What each step cost the worker, summed over the steps taken."""

    idle_per_s: tuple[float, float]  # the idle worker's (loop, rest) CPU seconds a second
    taken: Counter[str] = field(default_factory=Counter)
    loop_s: dict[str, float] = field(default_factory=dict)
    rest_s: dict[str, float] = field(default_factory=dict)

    def add(self, step: str, steps: int, cpu: tuple[float, float], wall_s: float) -> None:
        """Count `steps` of a step that cost `cpu` (loop, rest) seconds over `wall_s`."""
        self.taken[step] += steps
        loop, rest = (
            max(0.0, used - idle * wall_s) for used, idle in zip(cpu, self.idle_per_s, strict=True)
        )
        self.loop_s[step] = self.loop_s.get(step, 0.0) + loop
        self.rest_s[step] = self.rest_s.get(step, 0.0) + rest

    def per_step_ms(self, step: str) -> tuple[float, float]:
        """Return a step's mean (loop, rest) CPU in ms."""
        n = max(1, self.taken[step])
        return self.loop_s.get(step, 0.0) * 1000 / n, self.rest_s.get(step, 0.0) * 1000 / n

    def player_ms(self, words: int) -> float:
        """Return a player's CPU in ms: a start, an arrival, `words` words and a leaving."""
        total = 0.0
        for step in STEPS:
            loop, rest = self.per_step_ms(step)
            total += (loop + rest) * (words if step == "word" else 1)
        return total


async def _timed(costs: StepCosts, step: str, steps: int, cpu: CpuReader, run: Any) -> Any:
    """Await `run` and count its CPU as `steps` steps of `step`."""
    before, started = cpu(), time.perf_counter()
    result = await run
    after = cpu()
    costs.add(
        step, steps, (after[0] - before[0], after[1] - before[1]), time.perf_counter() - started
    )
    return result


async def steps_run(
    *, url: str, http_url: str, path: str, cookies: list[str], words: list[str], per_player: int,
    cpu: CpuReader, idle_s: float = 3.0,
) -> StepCosts:  # fmt: skip
    """Take each player through the steps, one step of one player at a time: every start,
    every arrival, `per_player` words of each (each answered before the next), every
    leaving. Each step's CPU is summed over all players, less the idle worker's."""
    before = cpu()
    await asyncio.sleep(idle_s)
    after = cpu()
    costs = StepCosts(idle_per_s=((after[0] - before[0]) / idle_s, (after[1] - before[1]) / idle_s))
    codes = []
    for cookie in cookies:
        status, location = await _timed(costs, "start", 1, cpu, _start(http_url, path, cookie))
        if status != 302 or "/r/" not in location:
            raise RuntimeError(f"a start was answered {status} {location}")
        codes.append(location.rstrip("/").rsplit("/", 1)[1])
    sockets = []
    for cookie, code in zip(cookies, codes, strict=True):
        sockets.append(await _timed(costs, "arrival", 1, cpu, _arrive(url, http_url, code, cookie)))
    await asyncio.sleep(clock.countdown().total_seconds() + 0.5)  # the board shows after it
    for n in range(per_player):
        for k, ws in enumerate(sockets):
            word = words[(k + n) % len(words)]
            await _timed(costs, "word", 1, cpu, _answered(ws, f"s{k}-{n}", word))
    await _timed(costs, "leaving", len(sockets), cpu, _leave(sockets))
    return costs


async def _arrive(url: str, http_url: str, code: str, cookie: str) -> Any:
    """Open an attempt's socket and wait for its snapshot (and what follows at once)."""
    ws = await websockets.connect(
        f"{url}/ws/rooms/{code}/",
        additional_headers={"Cookie": f"{COOKIE_NAME}={cookie}", "Origin": http_url},
    )
    while json.loads(await ws.recv()).get("type") != "snapshot":
        pass
    await asyncio.sleep(0.02)  # the timers it arms, the frames after the snapshot
    return ws


async def _answered(ws: Any, client_id: str, word: str) -> None:
    """Send a word and wait for its answer."""
    await ws.send(json.dumps({"type": "submit", "client_id": client_id, "word": word}))
    while True:
        frame = json.loads(await ws.recv())
        if frame.get("type") == "submit_result" and frame.get("client_id") == client_id:
            return


async def _leave(sockets: list[Any]) -> None:
    """Close the sockets one after another, and let the worker count them out."""
    for ws in sockets:
        await ws.close()
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)


def starts_stored(identities: list[PlayerIdentity], board: DailyBoard) -> dict[str, int]:
    """Return what the database holds of the players' attempts and words."""
    attempts = DailyAttempt.objects.filter(board=board, identity__in=identities)
    return {
        "attempts": attempts.count(),
        "ranked": attempts.filter(ranked=True).count(),
        "rooms": Room.objects.filter(daily_attempt__in=attempts).count(),
        "words": Submission.objects.filter(round__room__daily_attempt__in=attempts).count(),
    }


def starts_clear(identities: list[PlayerIdentity]) -> None:
    """Delete the players' rooms, attempts and identities."""
    ids = [identity.pk for identity in identities]
    Room.objects.filter(daily_attempt__identity_id__in=ids).delete()
    PlayerIdentity.objects.filter(pk__in=ids).delete()


def cookies_of(identities: list[PlayerIdentity]) -> list[str]:
    """Return each identity's cookie value."""
    return [cookie_value(identity) for identity in identities]


def summary(values: list[float]) -> dict[str, Any]:
    """Return median, p99 and max of measured times (ms)."""
    return {
        "median": round(statistics.median(values), 2) if values else 0.0,
        "p99": round(percentile(values, 99), 2),
        "max": round(max(values, default=0.0), 2),
    }
