"""Hostile sockets against real workers: foreign origins, oversized frames and a flood each
harm only the socket that sent them."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from typing import Any

import pytest
import websockets

from games.models import Submission
from tests.resilience import figures
from tests.resilience.client import GameClient, until
from tests.resilience.conftest import Cluster, Table, run, table_make

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


async def _open(port: int, code: str, key: str, origin: str | None) -> Any:
    headers = {"Cookie": f"player={key}"}
    if origin is not None:
        headers["Origin"] = origin
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
        additional_headers=headers,
        open_timeout=5,
        proxy=None,
        max_size=None,
    )


async def _read_until_closed(ws: Any, timeout: float) -> list[dict[str, Any]]:
    """Return the frames a socket gets until the server closes it (fail after `timeout`)."""
    replies: list[dict[str, Any]] = []

    async def read() -> None:
        try:
            async for frame in ws:
                replies.append(json.loads(frame))
        except websockets.ConnectionClosed:
            pass

    try:
        await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise AssertionError(f"the server did not close the socket; it sent {replies}") from None
    return replies


def test_origins_other_than_the_allowed_hosts_are_refused(cluster: Cluster) -> None:
    table = table_make(1, ends_in=60)
    port, code, key = cluster.ports[0], table.room.code, table.keys[0]
    foreign = [
        "http://evil.example",
        f"http://127.0.0.1.evil.example:{port}",
        "http://localhost.evil.example",
        "null",
        None,  # no Origin header at all
    ]

    async def scenario() -> dict[str, Any]:
        refused: dict[str, int] = {}
        for origin in foreign:
            try:
                ws = await _open(port, code, key, origin)
            except websockets.InvalidStatus as exc:
                refused[str(origin)] = exc.response.status_code
            else:
                await ws.close()
        allowed = []
        for origin in (f"http://127.0.0.1:{port}", f"https://localhost:{port}"):
            ws = await _open(port, code, key, origin)
            allowed.append(json.loads(await ws.recv())["type"])
            await ws.close()
        return {"refused": refused, "allowed": allowed}

    outcome = run(scenario())
    assert outcome["refused"] == {str(origin): 403 for origin in foreign}
    assert outcome["allowed"] == ["snapshot", "snapshot"]


def test_an_oversized_frame_closes_that_socket_and_nothing_else(cluster: Cluster) -> None:
    table = table_make(3, ends_in=60)
    port = cluster.ports[0]
    # The same worker: the big frames must not disturb its other sockets, the sender's
    # other tab included.
    bystander = GameClient("bystander", table.room.code, table.keys[1], [port])
    other_tab = GameClient("other-tab", table.room.code, table.keys[2], [port])
    sizes = {"over the game's limit": 5_000, "over the server's limit": 200_000}

    async def scenario() -> dict[str, Any]:
        for client in (bystander, other_tab):
            client.start()
            await client.wait_online()
        closes = {}
        for name, size in sizes.items():
            ws = await _open(port, table.room.code, table.keys[2], f"http://127.0.0.1:{port}")
            await ws.recv()  # snapshot
            word = "A" * size
            await ws.send(json.dumps({"type": "submit", "client_id": "big", "word": word}))
            replies = await _read_until_closed(ws, 5)
            codes = [r.get("code") for r in replies if r["type"] == "error"]
            closes[name] = (ws.close_code, codes)
        before = len(bystander.answers)
        await bystander.submit(table.words[0])
        await other_tab.submit(table.words[1])
        await until(lambda: not bystander.pending and not other_tab.pending, 5)
        drops = bystander.closes + other_tab.closes
        for client in (bystander, other_tab):
            await client.stop()
        return {"closes": closes, "answered": len(bystander.answers) - before, "drops": drops}

    outcome = run(scenario())
    assert outcome["closes"]["over the game's limit"] == (4413, ["too_large"])
    # Over daphne's --websocket-max-message-size the connection is dropped unread (the client
    # sees 1009, or 1006 when the server drops the TCP connection before its close arrives).
    assert outcome["closes"]["over the server's limit"] in ((1009, []), (1006, []))
    assert outcome["answered"] == 1
    assert outcome["drops"] == []  # neither was ever dropped
    assert bystander.accepted_words() == {table.words[0]}
    assert other_tab.accepted_words() == {table.words[1]}
    assert not Submission.objects.filter(client_id="big").exists()


def _latencies(client: GameClient, since: float, until_: float) -> list[float]:
    return [
        a.latency_ms
        for a in client.answers.values()
        if since <= a.sent_at <= until_ and a.reason != "round_not_running"
    ]


# The flood's neighbours: enough of them, each sending often enough (under its own rate limit
# of 8 a second), that the half second the flood lasts holds some twenty answers. With three
# neighbours sending every 0.25 s it held eight, and one pause of the whole machine (a CI run
# saw one of 250 ms, the other test process busy on the same two cores) held up half of them.
CALM_PLAYERS = 6
CALM_SPACING = 0.15  # seconds between one neighbour's answer and its next word


def test_a_flood_is_cut_off_while_other_players_play_normally(cluster: Cluster) -> None:
    table: Table = table_make(1 + CALM_PLAYERS, ends_in=60)
    port = cluster.ports[0]
    players = [
        GameClient(f"calm{n}", table.room.code, key, [port]) for n, key in enumerate(table.keys[1:])
    ]
    words = table.words

    async def calm(client: GameClient, offset: int, stop: float) -> None:
        n = offset
        while time.monotonic() < stop:
            # The board's words, then again (each answered already_found): a refused word
            # costs more than either (its round read afresh, the refusal kept), and the
            # neighbours' answers would then measure that rather than the flood.
            await client.submit(words[n % len(words)])
            n += len(players)
            await asyncio.sleep(CALM_SPACING)

    async def scenario() -> dict[str, Any]:
        for client in players:
            client.start()
        await asyncio.gather(*(c.wait_online() for c in players))
        start = time.monotonic()
        playing = [asyncio.create_task(calm(c, n, start + 4)) for n, c in enumerate(players)]
        await asyncio.sleep(1.5)  # a baseline first
        flooder = await _open(port, table.room.code, table.keys[0], f"http://127.0.0.1:{port}")
        await flooder.recv()
        flood_start = time.monotonic()
        reading = asyncio.create_task(_read_until_closed(flooder, 5))
        sent = 0
        try:
            for n in range(50):  # fifty words in one second
                if reading.done():
                    break  # closed on us
                await flooder.send(
                    json.dumps({"type": "submit", "client_id": f"f{n}", "word": words[n % 7]})
                )
                sent += 1
                await asyncio.sleep(1 / 50)
        except websockets.ConnectionClosed:
            pass
        replies = await reading
        flood_end = time.monotonic()
        await asyncio.gather(*playing)
        await until(lambda: not any(c.pending for c in players), 5)
        drops = [code for c in players for code in c.closes]
        for client in players:
            await client.stop()
        return {
            "drops": drops,
            "close": flooder.close_code,
            "replies": replies,
            "sent": sent,
            "baseline": [x for c in players for x in _latencies(c, start, flood_start)],
            "during": [x for c in players for x in _latencies(c, flood_start, flood_end)],
        }

    outcome = run(scenario())
    # The server closes with 4429; a flooder still writing into the closed connection may get
    # a TCP reset before it reads the close frame, and then sees 1006.
    assert outcome["close"] in (4429, 1006)
    kinds = [r.get("code", r["type"]) for r in outcome["replies"]]
    assert kinds.count("rate_limited") == 10 and kinds[-1] == "rate_limited"  # then closed
    answered = [r for r in outcome["replies"] if r["type"] == "submit_result"]
    stored = Submission.objects.filter(player=table.players[0]).count()
    assert stored == sum(r["accepted"] for r in answered)  # refused frames stored nothing
    assert outcome["drops"] == []
    baseline, during = sorted(outcome["baseline"]), sorted(outcome["during"])
    assert during, "the other players played through the flood"
    # Normal: the typical answer no slower than five times the baseline's, or 250 ms,
    # whichever is larger, and none held up for a second; the flooder is cut off after about
    # 30 frames. A bound on being starved, not a speed figure (the figures below record the
    # latencies): the flood's 30 answered frames are real work, and a CI run on a slow host
    # (Python at half its usual speed) saw the neighbours' median go from 14 to 64 ms, under
    # the 50 ms floor this had. Not the slowest single answer against 100 ms either: one
    # pause of the machine holds up at most one answer of each neighbour, a minority of
    # those the flood's time holds (checked first).
    assert len(during) >= 2 * CALM_PLAYERS + 1, (baseline, during)
    assert statistics.median(during) <= max(250.0, 5 * statistics.median(baseline)), (
        baseline,
        during,
    )
    assert max(during) < 1000.0, (baseline, during)
    figures.record(
        "flood",
        flood_frames_sent=outcome["sent"],
        flood_frames_handled=len(answered),
        rate_limited_replies=kinds.count("rate_limited"),
        close_code=outcome["close"],
        others_latency_median_ms_before=statistics.median(baseline),
        others_latency_max_ms_before=max(baseline),
        others_latency_median_ms_during=statistics.median(during),
        others_latency_max_ms_during=max(during),
    )
