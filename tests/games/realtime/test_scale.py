"""Several processes: the Redis channel layer, and two real daphne workers on Redis + PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.db import connection

from games.models import Round
from solver.models import Dictionary
from tests.conftest import redis_url
from tests.fixed_dice import FIXED_ROOM, words_needed
from tests.games.conftest import connect, make_room, receive_until, reschedule, seat

ROOT = Path(__file__).resolve().parents[3]
db = database_sync_to_async


@pytest.fixture
def redis_layer(settings: Any) -> Iterator[None]:
    """Route this test's channel layer through Redis instead of process memory."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url()], "prefix": f"test-{os.getpid()}"},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_two_consumers_share_room_events_through_redis(
    game_data: Dictionary, redis_layer: None
) -> None:
    room, host, host_key = await db(make_room)(FIXED_ROOM)  # a board with words
    _, bob_key = await db(seat)(room, "Bob")
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await receive_until(bob_socket, "snapshot")
    await host_socket.send_json_to({"type": "start_round"})
    started = await receive_until(bob_socket, "round_started")
    assert started["data"]["round"]["number"] == 1
    rnd = await db(Round.objects.get)(room=room)
    await db(reschedule)(rnd, starts_in=-1, ends_in=60)
    (word,) = words_needed(rnd.solution, 1, rnd.board)
    await host_socket.send_json_to({"type": "submit", "client_id": "a", "word": word})
    assert (await receive_until(host_socket, "submit_result"))["accepted"]
    counts = await receive_until(bob_socket, "word_counts")
    assert counts == {**counts, "round": 1, "counts": {str(host.id): 1}}
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url() -> str:
    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"


def _daphne(port: int, env: dict[str, str], log: IO[str]) -> subprocess.Popen[bytes]:
    """Start a daphne worker on `port`, its output going to `log`."""
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    return subprocess.Popen(
        [*command, "boggle_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


@pytest.fixture
def two_workers(game_data: Dictionary, tmp_path: Path) -> Iterator[list[int]]:
    """Start two daphne processes sharing this test's PostgreSQL database and Redis."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": redis_url(),
        "BOGGLE_SWEEP_INTERVAL": "1",
        "DEBUG": "true",
    }
    ports = [_free_port(), _free_port()]
    workers = []
    for port in ports:
        with (tmp_path / f"{port}.log").open("w") as log:  # the worker keeps its own copy
            workers.append(_daphne(port, env, log))
    try:
        for port in ports:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                raise AssertionError(
                    f"daphne on {port} did not start: {(tmp_path / f'{port}.log').read_text()}"
                )
        yield ports
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=3)
            except subprocess.TimeoutExpired:  # daphne waits for open sockets; no need here
                worker.kill()
                worker.wait(timeout=5)
        with connection.cursor() as cursor:  # let the test database be dropped at the end
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


async def _socket(port: int, code: str, key: str) -> Any:
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
        additional_headers={"Cookie": f"player={key}", "Origin": f"http://127.0.0.1:{port}"},
    )


async def _until(ws: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if message["type"] == kind or message.get("event") == kind:
            return message


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_two_daphne_workers_serve_one_room_and_score_it_once(two_workers: list[int]) -> None:
    room, host, host_key = make_room(FIXED_ROOM)  # a board with words, in any process
    bob, bob_key = seat(room, "Bob")

    async def play() -> dict[str, Any]:
        host_ws = await _socket(two_workers[0], room.code, host_key)
        bob_ws = await _socket(two_workers[1], room.code, bob_key)
        await _until(host_ws, "snapshot")
        await _until(bob_ws, "snapshot")
        await host_ws.send(json.dumps({"type": "start_round"}))
        await _until(bob_ws, "round_started")
        rnd = await db(Round.objects.get)(room=room)
        await db(reschedule)(rnd, starts_in=-1, ends_in=2)
        shared, own = words_needed(rnd.solution, 2, rnd.board)
        for ws in (host_ws, bob_ws):
            await ws.send(json.dumps({"type": "submit", "client_id": "c1", "word": shared}))
            assert (await _until(ws, "submit_result"))["accepted"]
        await bob_ws.send(json.dumps({"type": "submit", "client_id": "c2", "word": own}))
        assert (await _until(bob_ws, "submit_result"))["accepted"]
        ended = [await _until(ws, "round_ended") for ws in (host_ws, bob_ws)]
        assert ended[0]["seq"] == ended[1]["seq"]
        for ws in (host_ws, bob_ws):
            await ws.close()
        assert ended[0]["data"] == ended[1]["data"] and "results" not in ended[0]["data"]
        return str(ended[0]["data"]["results_url"])

    url = asyncio.run(play())
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        f"http://127.0.0.1:{two_workers[1]}{url}", headers={"Cookie": f"player={bob_key}"}
    )
    with opener.open(request, timeout=10) as response:  # the results come over HTTP
        results = json.loads(response.read())
    scores = {row["id"]: row["score"] for row in results["players"]}
    rnd = Round.objects.get(room=room)
    assert scores == {host.id: 0, bob.id: rnd.solution[1][2]}
    assert rnd.status == Round.FINISHED
    assert room.events.filter(type="round_ended").count() == 1
