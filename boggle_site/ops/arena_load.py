"""The arena benchmark behind `manage.py bench_arena`: thousands of real websocket players in
one arena round on several daphne workers, then their personal results on the socket.

What it measures (docs/arena.md, "Scale"): the acknowledgement latency of words and whether
any acknowledged word is missing from the stored round; how stale the live top 10 is at the
players (the age of the top a player holds, from the server time it was counted at to the
moment the next one replaces it); how long after time-up each player has their own results;
and the workers' memory per connected player at two sizes.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

from boggle_site.ops.http import http_request
from games.arena.schedule import MIN_LEFT
from games.arena.services import arena_create, arena_join, arena_round_ensure
from games.identity import COOKIE_NAME, cookie_value, identity_create
from games.models import Arena, Player, Room, Round, Submission
from games.rules import clock


def percentile(values: list[float], p: float) -> float:
    """Return the p-th percentile of values (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


WINDOW_S = 10  # the acknowledgements' percentiles are also printed per this much of play


@dataclass
class ArenaSetup:
    """An arena made for the benchmark, its round under way, and its seats."""

    slug: str
    code: str
    round_id: int
    ends_at_ms: int
    words: list[str]
    keys: list[str]  # identity cookies, one per seat
    player_ids: list[int]


def arena_prepare(*, players: int, play_seconds: int, dice: str) -> ArenaSetup:
    """Create an arena whose first round starts now and runs `play_seconds`, seat `players`
    players in it (as its join page does) and store the round."""
    slug = f"bench-{secrets.token_hex(3)}"
    now = clock.now()
    arena = arena_create(
        slug=slug, name="Benchmark arena", now=now, dice=dice, band="",
        play_seconds=play_seconds, results_seconds=30, order=99,
    )  # fmt: skip
    keys, ids = [], []
    for n in range(players):
        identity = identity_create()
        ids.append(arena_join(arena=arena, identity=identity, nickname=f"bench{n}").pk)
        keys.append(cookie_value(identity))
    rnd = arena_round_ensure(arena=arena, now=clock.now())
    if rnd is None or rnd.ends_at is None:
        raise RuntimeError("the benchmark arena drew no round")
    if rnd.starts_at > clock.now():  # the first round had too little left: it is the next one
        raise RuntimeError(f"play at least {MIN_LEFT.seconds + 5} seconds: the round is not on")
    words = [word for word, _, _ in rnd.solution] or ["NOWORDS"]
    ends_at_ms = int(rnd.ends_at.timestamp() * 1000)
    return ArenaSetup(slug, arena.room.code, rnd.pk, ends_at_ms, words, keys, ids)


def arena_words_stored(setup: ArenaSetup) -> dict[int, set[str]]:
    """Return each seat's words as the round stored them."""
    stored: dict[int, set[str]] = {}
    for player_id, word in Submission.objects.filter(round_id=setup.round_id).values_list(
        "player_id", "word"
    ):
        stored.setdefault(player_id, set()).add(word)
    return stored


def arena_cleanup(setup: ArenaSetup) -> None:
    """Delete the benchmark's arena, its room, rounds and seats."""
    Round.objects.filter(room__code=setup.code).delete()
    Player.objects.filter(room__code=setup.code).delete()
    Arena.objects.filter(slug=setup.slug).delete()
    Room.objects.filter(code=setup.code).delete()


@dataclass
class ArenaResult:
    """What the players measured."""

    players: int
    connected: int = 0
    connect_failures: int = 0
    connect_failure_reasons: dict[str, int] = field(default_factory=dict)
    connect_seconds: list[float] = field(default_factory=list)  # asked -> snapshot received
    sent: int = 0
    acked: int = 0
    accepted: dict[int, set[str]] = field(default_factory=dict)  # seat index -> words
    ack_ms: list[float] = field(default_factory=list)
    ack_windows: dict[int, list[float]] = field(default_factory=dict)  # 10 s of play -> ms
    # Each acknowledgement in two (one clock: the workers run on this machine): from the word
    # sent to the server's stamp on its answer (`server_time`, taken as the answer is
    # encoded), and from that stamp to the answer read here (the worker's write, the
    # client's own loop).
    ack_to_stamp_ms: list[float] = field(default_factory=list)
    ack_from_stamp_ms: list[float] = field(default_factory=list)
    top_frames: int = 0
    top_age_ms: list[float] = field(default_factory=list)  # a held top's age when replaced
    top_age_play_ms: list[float] = field(default_factory=list)  # the same, once all play
    top_delivery_ms: list[float] = field(default_factory=list)  # counted -> received
    ended_ms: list[float] = field(default_factory=list)  # time-up -> round_ended received
    results_ms: list[float] = field(default_factory=list)  # time-up -> own results in hand
    results_failed: list[str] = field(default_factory=list)
    results_bytes: list[int] = field(default_factory=list)
    results_over_http: int = 0  # players whose socket sent them to fetch their results
    ended_seen: int = 0

    @property
    def lost(self) -> int:
        return self.sent - self.acked


ANSWER_DRAIN_S = 10.0  # how long a player waits, results in hand, for its last answers


async def _snapshot_received(ws: Any) -> None:
    """Read a new socket's frames up to its arena snapshot."""
    while '"arena_snapshot"' not in await ws.recv():
        pass


_PARTS = re.compile(r'"parts":(\d+)')  # in an arena_results frame's lead


class _Player:
    """One player's socket: submits a word every `period` seconds until time-up, then
    reads their own results, which follow the round's end on the socket (arena_results
    frames; over HTTP when the socket says so, as static/js/arena.js does)."""

    def __init__(self, index: int, key: str, ws_url: str, http_url: str, load: _Load) -> None:
        self.index, self.key, self.ws_url, self.http_url, self.load = (
            index, key, ws_url, http_url, load,
        )  # fmt: skip
        # client id -> when sent: perf_counter (the acknowledgement's time), and time.time()
        # in ms (against the answer's server stamp)
        self.pending: dict[str, tuple[float, float]] = {}
        self.words: dict[str, str] = {}
        self.top_at: float | None = None  # server ms the top this player holds was counted
        self.done = asyncio.Event()
        self.fetching: asyncio.Task[None] | None = None
        self.parts: list[str] = []  # the arena_results frames, read after the round
        self.parts_at: float | None = None  # time.time() in ms when the last one came

    async def run(self, connected: asyncio.Queue[bool]) -> None:
        setup, result = self.load.setup, self.load.result
        asked = time.perf_counter()
        try:
            ws = await websockets.connect(
                f"{self.ws_url}/ws/arena/{setup.slug}/",
                additional_headers={
                    "Cookie": f"{COOKIE_NAME}={self.key}",
                    "Origin": "http" + self.ws_url[2:],
                },
                open_timeout=120,
                max_size=2**20,
            )
            # The snapshot: the seat is live and the page can draw the board. Not the first
            # frame, which may be a live top (the worker relays those to a socket before its
            # snapshot is read): counted from that one, players began while their sockets
            # were still arriving, and their first words waited for their own snapshots.
            await asyncio.wait_for(_snapshot_received(ws), timeout=120)
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            reason = f"{type(exc).__name__}: {exc}"[:80]
            result.connect_failure_reasons[reason] = (
                result.connect_failure_reasons.get(reason, 0) + 1
            )
            result.connect_failures += 1
            await connected.put(False)
            return
        result.connected += 1
        result.connect_seconds.append(time.perf_counter() - asked)
        await connected.put(True)
        reading = asyncio.create_task(self.read(ws))
        await self.load.go.wait()
        rng = random.Random(self.index)
        await asyncio.sleep(rng.random() * self.load.period)  # spread the players out
        n = 0
        while time.time() * 1000 < setup.ends_at_ms - 1000 * self.load.period:
            n += 1
            client_id = f"b{self.index}-{n}"
            word = rng.choice(setup.words)
            self.pending[client_id] = (time.perf_counter(), time.time() * 1000)
            self.words[client_id] = word
            result.sent += 1
            await ws.send(json.dumps({"type": "submit", "client_id": client_id, "word": word}))
            await asyncio.sleep(self.load.period)
        try:
            await asyncio.wait_for(self.done.wait(), timeout=self.load.wait_results)
        except TimeoutError:
            result.results_failed.append("no round_ended or no results in time")
        # A word sent just before time-up may be answered after the results (on a slow host
        # a CI run saw 2 of 161 so): it is lost only if no answer comes at all.
        drain_until = time.monotonic() + ANSWER_DRAIN_S
        while self.pending and time.monotonic() < drain_until:
            await asyncio.sleep(0.05)
        reading.cancel()
        await ws.close()

    async def read(self, ws: Any) -> None:
        result = self.load.result
        try:
            async for frame in ws:
                if '"submit_result"' in frame:
                    message = json.loads(frame)
                    sent = self.pending.pop(message["client_id"], None)
                    if sent is None:
                        continue
                    sent_at, sent_wall = sent
                    result.acked += 1
                    ms = (time.perf_counter() - sent_at) * 1000
                    result.ack_ms.append(ms)
                    stamp = message.get("server_time")
                    if stamp is not None:
                        result.ack_to_stamp_ms.append(stamp - sent_wall)
                        result.ack_from_stamp_ms.append(time.time() * 1000 - stamp)
                    window = int((sent_at - self.load.go_at) // WINDOW_S)
                    result.ack_windows.setdefault(window, []).append(ms)
                    if message["accepted"]:
                        word = self.words[message["client_id"]]
                        result.accepted.setdefault(self.index, set()).add(word)
                elif '"arena_top"' in frame:
                    message = json.loads(frame)
                    received = time.time() * 1000
                    result.top_frames += 1
                    result.top_delivery_ms.append(received - message["at"])
                    if self.top_at is not None:
                        result.top_age_ms.append(received - self.top_at)
                        if self.load.go.is_set():
                            result.top_age_play_ms.append(received - self.top_at)
                    self.top_at = message["at"]
                elif '"round_ended"' in frame:
                    result.ended_seen += 1
                    result.ended_ms.append(time.time() * 1000 - self.load.setup.ends_at_ms)
                elif '"arena_results"' in frame:
                    self.results_part(frame)
        except websockets.ConnectionClosed:
            pass

    def results_part(self, frame: str) -> None:
        """Take one arena_results frame; with the last part, the results are in hand. Only
        the frame's lead is read now (how many parts, which protocol.arena_results_frames
        writes first); results_check reads the frames after the round. This one process
        plays every player: decoding each player's results as they came delayed the later
        players' stamps, and the delay was charged to the server."""
        lead = _PARTS.search(frame, 0, 200)
        parts = int(lead[1]) if lead is not None else json.loads(frame)["parts"]
        if parts == 0:
            self.load.result.results_over_http += 1
            url = json.loads(frame)["results_url"]
            self.fetching = asyncio.create_task(self.results(url))
            return
        self.parts.append(frame)
        if len(self.parts) >= parts:
            self.parts_at = time.time() * 1000
            self.done.set()

    def results_check(self) -> None:
        """Read the arena_results frames that came (results_part) and count the results in
        hand when they are whole: every part in order, the first with the player's own."""
        if not self.parts:
            return
        result = self.load.result
        parts = [json.loads(frame) for frame in self.parts]
        if [part["part"] for part in parts] != list(range(parts[0]["parts"])):
            result.results_failed.append("arena_results parts out of order")
        elif "arena" not in parts[0]["mine"]:
            result.results_failed.append("arena_results without the player's own part")
        elif self.parts_at is not None:
            result.results_ms.append(self.parts_at - self.load.setup.ends_at_ms)
            result.results_bytes.append(sum(map(len, self.parts)))

    async def results(self, path: str) -> None:
        result = self.load.result
        try:
            status, _, body = await http_request(
                self.http_url,
                "GET",
                path,
                {"Cookie": f"{COOKIE_NAME}={self.key}", "Accept": "application/json"},
            )
            if status != 200:
                result.results_failed.append(f"HTTP {status}")
                return
            json.loads(body)
            result.results_ms.append(time.time() * 1000 - self.load.setup.ends_at_ms)
            result.results_bytes.append(len(body))
        except (OSError, ValueError) as exc:
            result.results_failed.append(f"{type(exc).__name__}: {exc}"[:120])
        finally:
            self.done.set()


class _Load:
    def __init__(self, setup: ArenaSetup, period: float, wait_results: float) -> None:
        self.setup, self.period, self.wait_results = setup, period, wait_results
        self.result = ArenaResult(players=len(setup.keys))
        self.go = asyncio.Event()
        self.go_at = 0.0  # perf_counter when play began


async def arena_load(
    *,
    setup: ArenaSetup,
    ws_urls: list[str],
    http_urls: list[str],
    period: float,
    at_sizes: list[int],
    on_size: Callable[[int], None],
    wait_results: float = 60.0,
) -> ArenaResult:
    """Connect every seat (seat n to worker n % workers, as a proxy spreads them), calling
    on_size(k) once k are connected for each k in at_sizes; then let every player submit a
    word every `period` seconds until time-up and fetch their results when it is announced."""
    load = _Load(setup, period, wait_results)
    connected: asyncio.Queue[bool] = asyncio.Queue()
    players = [
        _Player(n, key, ws_urls[n % len(ws_urls)], http_urls[n % len(http_urls)], load)
        for n, key in enumerate(setup.keys)
    ]
    tasks: list[asyncio.Task[None]] = []
    sizes = sorted(k for k in at_sizes if 0 < k <= len(players))
    start = 0
    for size in sorted({*sizes, len(players)}):
        for player in players[start:size]:
            tasks.append(asyncio.create_task(player.run(connected)))
        for _ in players[start:size]:
            await connected.get()
        start = size
        await asyncio.sleep(1.0)  # the last connections' work done before measuring
        if size in sizes:
            on_size(size)
    if time.time() * 1000 > setup.ends_at_ms - 10_000:
        load.go.set()
        await asyncio.gather(*tasks)
        raise RuntimeError("connecting took most of the round: give a longer --play")
    load.go_at = time.perf_counter()
    load.go.set()
    await asyncio.gather(*tasks)
    for player in players:
        player.results_check()
    return load.result
