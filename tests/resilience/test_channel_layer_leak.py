"""Sockets closing while their room's messages are in flight leave nothing behind in the
worker (games/realtime/layers.py; the soak found channels_redis keeping them for ever)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from channels_redis.core import RedisChannelLayer as PlainLayer

from boggle_site.ops.cluster import RedisServer, free_port
from games.realtime.layers import RedisChannelLayer
from tests.conftest import require_service
from tests.resilience.conftest import probe_redis_server

pytestmark = [pytest.mark.resilience, pytest.mark.redis]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    require_service("redis-server", probe_redis_server)
    server = RedisServer(port=free_port(), log_path=tmp_path / "redis.log")
    server.start()
    yield server.url
    server.stop()


async def _churn(layer: PlainLayer, sockets: int) -> tuple[int, int]:
    """A room with one socket that stays and `sockets` that come and go, each closing while
    a room message is in flight; return the buffers left for closed sockets and how many
    messages the staying socket got."""
    stays = await layer.new_channel()
    await layer.group_add("room", stays)
    got = 0

    async def read() -> None:
        nonlocal got
        while True:
            await layer.receive(stays)
            got += 1

    reading = asyncio.create_task(read())
    for n in range(sockets):
        channel = await layer.new_channel()
        await layer.group_add("room", channel)
        receiving = asyncio.create_task(layer.receive(channel))
        await asyncio.sleep(0.005)
        receiving.cancel()  # the socket closed: its consumer stops receiving
        await layer.group_send("room", {"type": "room.event", "n": n})  # already on its way
        await layer.group_discard("room", channel)
    await asyncio.sleep(0.5)
    reading.cancel()
    left = len([channel for channel in layer.receive_buffer if channel != stays])
    await layer.close_pools()
    return left, got


def test_closed_sockets_leave_no_buffers(redis_url: str) -> None:
    assert asyncio.run(_churn(PlainLayer(hosts=[redis_url]), 50))[0] == 50  # the leak
    left, got = asyncio.run(_churn(RedisChannelLayer(hosts=[redis_url]), 200))
    assert left == 0 and got == 200
