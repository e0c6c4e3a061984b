"""The production layout, run for real: nginx in front of gunicorn (pages, JSON, static files)
and two daphne workers (`/ws/` only), on the test's PostgreSQL and a private Redis, with the
site configuration docs/operations.md shows (boggle_site.deploy.nginx). Two players play a
round through nginx alone, as browsers would, and a flood of handshakes meets nginx's limit."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.conf import settings as django_settings

from boggle_site.deploy.nginx import HEADER_TIMEOUT_S, SOCKETS_BURST
from boggle_site.ops.cluster import Cluster, cluster_start, nginx_path, redis_server_path
from games.models import Round
from solver.dictionaries import selectors as solver_selectors
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from tests.conftest import require_service
from tests.games.conftest import game_data  # noqa: F401 (a fixture)
from tests.resilience.client import WAIT_SLACK, Browser, frames_until
from tests.resilience.conftest import database_url, static_root  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.nginx,
    pytest.mark.django_db(transaction=True),
]

BOARD = "PERS/LATG/SINE/TERS"  # rollable by the new16 dice, rich in words


@pytest.fixture
def layout(
    tmp_path: Path,
    static_root: Path,  # noqa: F811 (the fixture imported above)
    game_data: Any,  # noqa: F811
) -> Iterator[Cluster]:
    """nginx, gunicorn, two daphne workers and their Redis, as in production."""
    require_service("nginx", lambda: None if nginx_path() else "nginx is not installed")
    require_service("redis-server", lambda: None if redis_server_path() else "no redis-server")
    cluster = cluster_start(
        2,
        log_dir=tmp_path / "logs",
        secret_key=django_settings.SECRET_KEY,
        env={"DATABASE_URL": database_url(), "LOG_LEVEL": "INFO"},
        proxy=static_root,
    )
    try:
        yield cluster
    finally:
        cluster.stop()


def test_two_players_play_a_round_through_nginx(layout: Cluster) -> None:
    assert layout.proxy is not None
    site = layout.proxy.url
    ann, bob = Browser(site), Browser(site)

    status, headers, body = ann.get("/")
    assert status == 200 and headers["Server"].startswith("nginx")
    packed = urllib.request.Request(site + "/", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(packed, timeout=10) as answer:  # noqa: S310 (our own site)
        assert answer.headers["Content-Encoding"] == "gzip"  # pages go out compressed
        assert gzip.decompress(answer.read()).startswith(b"<!doctype html>")
    static = re.search(rb'src="(/static/js/[\w.]+\.js)"', body)
    assert static is not None  # hashed names: collectstatic ran, DEBUG is off
    status, headers, module = ann.get(static[1].decode())
    assert status == 200 and "max-age" in headers["Cache-Control"]  # nginx's, from STATIC_ROOT
    assert b"import" in module or b"export" in module

    _, room_url = ann.post(
        "/", {"nickname": "Ann", "preset": "classic", "board": BOARD}, body.decode()
    )
    code = room_url.rstrip("/").rsplit("/", 1)[1]
    _, _, join_page = bob.get(f"/r/{code}/")
    bob.post(f"/r/{code}/join/", {"nickname": "Bob"}, join_page.decode())

    trie = solver_selectors.dictionary_trie(solver_selectors.dictionary_or_default())
    words = Solver(trie, Rules()).solve(Board.from_rows(BOARD)).words
    assert len(words) >= 2

    async def play() -> dict[str, Any]:
        sockets = []
        for browser in (ann, bob):
            sockets.append(
                await websockets.connect(
                    f"ws://127.0.0.1:{layout.proxy.port}/ws/rooms/{code}/",  # type: ignore[union-attr]
                    additional_headers={
                        "Cookie": f"player={browser.cookie('player')}",
                        "Origin": site,
                    },
                    open_timeout=10,
                    proxy=None,
                )
            )
        try:
            for ws in sockets:
                await frames_until(ws, "snapshot")
            await sockets[0].send(json.dumps({"type": "start_round"}))
            for ws in sockets:
                await frames_until(ws, "board")  # after the countdown
            for n, ws in enumerate(sockets):
                await ws.send(
                    json.dumps({"type": "submit", "client_id": f"w{n}", "word": words[n]})
                )
                answer = await frames_until(ws, "submit_result")
                assert answer["accepted"], answer
            await sockets[0].send(json.dumps({"type": "end_round"}))
            ended = [await frames_until(ws, "round_ended") for ws in sockets]
        finally:
            for ws in sockets:
                await ws.close()
        return ended[1]["data"]

    ended = asyncio.run(play())
    status, headers, results = bob.get(ended["results_url"])
    assert status == 200 and headers["Server"].startswith("nginx")
    scored = {row["nickname"]: row for row in json.loads(results)["players"]}
    assert [w["word"] for w in scored["Ann"]["words"]] == [words[0]]
    assert [w["word"] for w in scored["Bob"]["words"]] == [words[1]]
    assert Round.objects.get(room__code=code).status == Round.FINISHED

    # Both workers served the players' sockets: nginx spread them (its log names the upstream).
    log = (layout.proxy.prefix / "access.log").read_text()
    upstreams = set(re.findall(r'"GET /ws/rooms/\S+ HTTP/1.1" 101 \S+ (\S+)', log))
    assert upstreams == {f"127.0.0.1:{w.port}" for w in layout.workers}, log


def test_a_flood_of_handshakes_from_one_address_is_refused_by_nginx(layout: Cluster) -> None:
    assert layout.proxy is not None
    port = layout.proxy.port

    async def flood() -> list[int]:
        async def attempt() -> int:
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/rooms/NOROOM/", open_timeout=10, proxy=None
                )
            except websockets.InvalidStatus as refused:
                return refused.response.status_code
            await ws.close()
            return 101

        return await asyncio.gather(*(attempt() for _ in range(SOCKETS_BURST + 20)))

    statuses = asyncio.run(flood())
    # Past the burst nginx answers 429 itself; those within it reach a worker, which refuses
    # a socket for a room that does not exist (403 before the accept).
    assert statuses.count(429) >= 15, statuses
    assert set(statuses) <= {429, 403}, statuses
    log = (layout.proxy.prefix / "access.log").read_text()
    assert log.count('" 429 ') == statuses.count(429)


def test_connections_that_trickle_their_headers_are_closed_by_nginx(layout: Cluster) -> None:
    """Slowloris: 50 connections send a header line a second and never finish. nginx closes
    each once HEADER_TIMEOUT_S have passed, none reaches a worker, and pages still load."""
    assert layout.proxy is not None
    port = layout.proxy.port
    trickling = []
    for _ in range(50):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        conn.setblocking(False)
        trickling.append(conn)
    started = time.monotonic()
    open_ones, closed_after = set(trickling), []
    while open_ones and time.monotonic() - started < WAIT_SLACK * HEADER_TIMEOUT_S:
        time.sleep(1)
        for conn in list(open_ones):
            try:
                conn.sendall(b"X-Trickle: 1\r\n")
                answer = conn.recv(4096)
            except BlockingIOError:
                continue  # still open, nothing said
            except OSError:
                answer = b""  # reset: closed
            if answer == b"" or answer.startswith(b"HTTP/1.1 408"):
                closed_after.append(time.monotonic() - started)
                open_ones.discard(conn)
        if len(open_ones) == len(trickling):
            status, _, _ = Browser(layout.proxy.url).get("/")
            assert status == 200  # a page meanwhile: the trickling ones hold no worker
    for conn in trickling:
        conn.close()
    assert not open_ones, f"{len(open_ones)} still open"
    assert min(closed_after) >= HEADER_TIMEOUT_S - 1  # nginx's timeout, not an error
