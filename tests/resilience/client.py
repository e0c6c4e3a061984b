"""A websocket client that plays like the browser (static/js/socket.js, submissions.js): it
reconnects with the same backoff (to another worker when its own has gone), resuming from the
last event seen, asks for missed events on a gap, and sends again, spaced out, every word it
has not had an answer for, with the same client id."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import http.cookiejar
import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

MAX_DELAY = 15.0  # seconds: the browser's longest wait between two connection attempts
RESEND_SPACING = 0.15  # seconds between words sent again (keeps under the rate limit)
RESUME_WAIT = 3.0  # seconds: the page asks for missed events at most this often (socket.js)


def backoff(attempt: int, rng: random.Random, max_delay: float = MAX_DELAY) -> float:
    """Return the wait before connection attempt `attempt` (1, 2, …), as the browser does:
    exponential with jitter, at most `max_delay`."""
    ceiling = min(max_delay, 0.5 * 2 ** min(attempt - 1, 5))
    return ceiling / 2 + rng.random() * ceiling / 2


@dataclass
class Answer:
    """The server's answer to one submission."""

    word: str
    accepted: bool
    reason: str | None
    sent_at: float  # time.monotonic() of the first send
    answered_at: float

    @property
    def latency_ms(self) -> float:
        return (self.answered_at - self.sent_at) * 1000


@dataclass
class GameClient:
    """One browser tab: a seat (identity cookie) in a room, served by any of `ports`."""

    name: str
    code: str
    cookie: str  # the seat's identity cookie
    ports: list[int]
    origin_host: str = "127.0.0.1"
    clock_skew: float = 0.0  # seconds this client's own clock is off from the server's

    last_seq: int | None = None
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    results: dict[int, dict[str, Any]] = field(default_factory=dict)  # round number -> results
    results_encodings: list[str] = field(default_factory=list)  # Content-Encoding of each fetch
    results_wire_bytes: list[int] = field(default_factory=list)  # body bytes of each fetch
    largest_frame: int = 0  # bytes of the largest frame the server sent
    rounds_started: set[int] = field(default_factory=set)
    round_ended_seqs: set[int] = field(default_factory=set)
    round_ended_at: dict[int, float] = field(default_factory=dict)  # round -> time.time()
    answers: dict[str, Answer] = field(default_factory=dict)  # client id -> answer
    pending: dict[str, tuple[str, float]] = field(default_factory=dict)  # id -> (word, sent)
    errors: list[dict[str, Any]] = field(default_factory=list)
    frames: int = 0
    frames_without_server_time: int = 0
    offset_samples: list[float] = field(default_factory=list)  # server_time - own clock, s
    connections: list[tuple[int, float]] = field(default_factory=list)  # (port, time.time())
    closes: list[int | None] = field(default_factory=list)  # close codes received
    refused: int = 0  # connection attempts that failed
    rejoined: list[float] = field(default_factory=list)  # time.time() of each first answer
    round_ended_frames: int = 0
    port_index: int = 0

    def __post_init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.online = asyncio.Event()
        self.stopping = False
        self._task: asyncio.Task[None] | None = None
        self._counter = 0
        self._attempt = 0  # failed attempts since the server last said anything
        self._rng = random.Random(self.name)
        self._fetches: dict[int, asyncio.Task[None]] = {}  # round number -> results fetch
        self._resumed_at = 0.0  # time.monotonic() of the last resume not yet answered
        self._ahead = 0  # the highest event number seen but not yet taken in

    # Running ---------------------------------------------------------------------------

    @property
    def port(self) -> int:
        return self.ports[self.port_index % len(self.ports)]

    def own_clock(self) -> float:
        """Return this client's idea of the time now (seconds since the epoch)."""
        return time.time() + self.clock_skew

    def start(self) -> None:
        """Start playing (again, after stop(): a laptop opened, the tab resumes)."""
        self.stopping = False
        self._attempt = 0
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        self.stopping = True
        for fetch in self._fetches.values():
            fetch.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _connect_any(self) -> ClientConnection | None:
        """Open a socket to this client's worker, else to the next one that answers, as a
        proxy does with an upstream that refuses connections; None if every one refuses."""
        for _ in self.ports:
            try:
                return await self._open(self.port)
            except (OSError, TimeoutError, websockets.WebSocketException):
                self.refused += 1
                self.port_index += 1
        return None

    async def _run(self) -> None:
        while not self.stopping:
            ws = await self._connect_any()
            if ws is None:
                self._attempt += 1
                await asyncio.sleep(backoff(self._attempt, self._rng))
                continue
            self.ws = ws
            self.connections.append((self.port, time.time()))
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps({"type": "ping"}))  # an answer proves we are back
            resending = asyncio.create_task(self._resend(ws))
            try:
                async for frame in ws:
                    self.largest_frame = max(self.largest_frame, len(frame))
                    self._attempt = 0  # the server answers: the next drop starts afresh
                    self._receive(json.loads(frame))
            except websockets.ConnectionClosed:
                pass
            finally:
                resending.cancel()
                self.online.clear()
                self.ws = None
                self.closes.append(ws.close_code)
            if ws.close_code == 4403:
                return
            self._attempt += 1
            await asyncio.sleep(backoff(self._attempt, self._rng))

    async def _resend(self, ws: ClientConnection) -> None:
        """Send again every unanswered word, with its first client id (counted once)."""
        for client_id, (word, _) in list(self.pending.items()):
            if client_id in self.pending:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(self._submit_frame(client_id, word))
            await asyncio.sleep(RESEND_SPACING)

    async def _open(self, port: int) -> ClientConnection:
        query = "" if self.last_seq is None else f"?last_seq={self.last_seq}"
        return await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{self.code}/{query}",
            additional_headers={
                "Cookie": f"player={self.cookie}",
                "Origin": f"http://{self.origin_host}:{port}",
            },
            open_timeout=5,
            close_timeout=1,
            proxy=None,
        )

    async def wait_online(self, timeout: float = 15) -> None:
        await asyncio.wait_for(self.online.wait(), timeout)

    # Sending ---------------------------------------------------------------------------

    async def send(self, message: dict[str, Any]) -> bool:
        """Send a message if connected; return whether it went out."""
        if self.ws is None:
            return False
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            return False
        return True

    def _submit_frame(self, client_id: str, word: str) -> str:
        return json.dumps({"type": "submit", "client_id": client_id, "word": word})

    async def submit(self, word: str) -> str:
        """Submit a word (now, or after the next reconnect); return its client id."""
        self._counter += 1
        client_id = f"{self.name}-{self._counter}"
        self.pending[client_id] = (word, time.monotonic())
        if self.ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(self._submit_frame(client_id, word))
        return client_id

    # Receiving -------------------------------------------------------------------------

    def _receive(self, message: dict[str, Any]) -> None:
        self.frames += 1
        if "server_time" not in message:
            self.frames_without_server_time += 1
        else:
            self.offset_samples.append(message["server_time"] / 1000 - self.own_clock())
        kind = message["type"]
        if not self.online.is_set():
            self.online.set()  # the server has answered the (re)connection: back in the room
            self.rejoined.append(time.time())
        if kind == "event" and message["event"] == "round_ended":
            self.round_ended_frames += 1  # every copy, before duplicates are dropped
        if kind == "snapshot":
            self.snapshots.append(message)
            self.last_seq = message["seq"]
            self._resumed_at = 0.0
            if message.get("results_url"):
                self._ended(message["round"]["number"], message["results_url"], None)
        elif kind == "event":
            if self.last_seq is not None and message["seq"] <= self.last_seq:
                return  # seen already
            if self.last_seq is not None and message["seq"] > self.last_seq + 1:
                self._ahead = max(self._ahead, message["seq"])
                self._resume()
                asyncio.get_running_loop().call_later(RESUME_WAIT + 0.1, self._recheck)
                return
            self.last_seq = message["seq"]
            self._resumed_at = 0.0
            if message["event"] == "round_ended":
                data = message["data"]
                self._ended(data["round"]["number"], data["results_url"], message["seq"])
            elif message["event"] == "round_started":
                self.rounds_started.add(message["data"]["round"]["number"])
        elif kind == "submit_result":
            sent = self.pending.pop(message["client_id"], None)
            if sent is not None:
                self.answers[message["client_id"]] = Answer(
                    word=sent[0],
                    accepted=message["accepted"],
                    reason=message.get("reason"),
                    sent_at=sent[1],
                    answered_at=time.monotonic(),
                )
        elif kind == "error":
            self.errors.append(message)

    def _resume(self) -> None:
        """Ask for the events after the last one seen, unless asked already (as the page does:
        the server limits resumes, each of which may cost it a snapshot)."""
        if time.monotonic() - self._resumed_at < RESUME_WAIT:
            return
        self._resumed_at = time.monotonic()
        asyncio.ensure_future(self.send({"type": "resume", "last_seq": self.last_seq}))

    def _recheck(self) -> None:
        """Ask again if the answer to a resume has not closed the gap."""
        if self.last_seq is not None and self.last_seq < self._ahead:
            self._resume()

    def _ended(self, number: int, url: str, seq: int | None) -> None:
        """A round is over: fetch its results over HTTP, as the browser does (once)."""
        if seq is not None:
            self.round_ended_seqs.add(seq)
        if number not in self.results and number not in self._fetches:
            self._fetches[number] = asyncio.ensure_future(self._fetch_results(number, url))

    async def _fetch_results(self, number: int, url: str) -> None:
        """Fetch results like static/js/results.js: a few tries with growing waits on a
        network failure or a server error (from the worker this client uses now)."""
        for attempt in range(1, 7):
            try:
                body, encoding, wire = await asyncio.to_thread(self._get, url)
            except urllib.error.HTTPError as exc:
                if exc.code < 500:
                    self.errors.append({"type": "http", "status": exc.code, "url": url})
                    break
            except OSError:
                self.port_index += 1  # as a proxy would, try another worker
            else:
                self.results_encodings.append(encoding)
                self.results_wire_bytes.append(wire)
                self.results.setdefault(number, json.loads(body))
                self.round_ended_at.setdefault(number, time.time())
                break
            await asyncio.sleep(backoff(attempt, self._rng, max_delay=8))
        self._fetches.pop(number, None)

    def _get(self, url: str) -> tuple[bytes, str, int]:
        """Return the body of a GET as this browser (cookie, gzip), its encoding and the
        bytes it took on the wire."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{url}",
            headers={
                "Cookie": f"player={self.cookie}",
                "Accept": "application/json",
                "Accept-Encoding": "gzip",
            },
        )
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=10) as response:
            body, encoding = response.read(), response.headers.get("Content-Encoding", "")
        plain = gzip.decompress(body) if encoding == "gzip" else body
        return plain, encoding, len(body)

    # What the client knows -------------------------------------------------------------

    def accepted_words(self) -> set[str]:
        """Return the words the server acknowledged as accepted."""
        return {a.word for a in self.answers.values() if a.accepted}

    def server_offset(self) -> float:
        """Return server time minus own time, as the browser estimates it (largest sample:
        a frame arrives late by its travel time, never early)."""
        return max(self.offset_samples)

    def remaining(self, ends_at_ms: int) -> float:
        """Return the seconds left in a round as this client computes them."""
        return ends_at_ms / 1000 - (self.own_clock() + self.server_offset())


# How much longer than a test's stated wait `until` waits before it fails. A test's wait is
# a bound on "it happens", not a claim about speed (the benchmarks measure speed): a CI host
# running Python at half its usual speed, with another test's workers on the same two cores,
# took more than 5 s to catch up after a Redis restart that a quick host does in one.
WAIT_SLACK = 4


async def until(condition: Any, timeout: float, step: float = 0.02) -> float:
    """Wait until condition() is true; return the seconds it took (raise once it has not
    been true for WAIT_SLACK times `timeout`)."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > WAIT_SLACK * timeout:
            raise TimeoutError(f"condition not met within {WAIT_SLACK} × {timeout} s")
        await asyncio.sleep(step)
    return time.monotonic() - started


class Browser:
    """A browser's cookies and its requests to one site."""

    def __init__(self, site: str) -> None:
        self.site = site
        self.last_page = b""
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        try:
            with self.opener.open(self.site + path, timeout=10) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post(self, path: str, form: dict[str, str], page: str) -> tuple[int, str]:
        """Post a form of `page` (its CSRF token with it); return the status and the URL
        the answer ended on (its page in `last_page`)."""
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.encode())
        assert token is not None, page[:500]
        data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token[1].decode()})
        request = urllib.request.Request(self.site + path, data=data.encode(), method="POST")
        with self.opener.open(request, timeout=10) as answer:
            self.last_page = answer.read()
            return answer.status, answer.url

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name and c.value is not None)


async def frames_until(ws: Any, wanted: str, timeout: float = 15) -> dict[str, Any]:
    """Read a raw socket's frames until one of type `wanted` (or an event of that kind)."""
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == wanted or frame.get("event") == wanted:
                return frame
