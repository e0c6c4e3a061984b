"""channels_redis delivers through the Redis server at REDIS_URL."""

import asyncio
import json
import uuid
from collections.abc import AsyncIterator

import pytest
from channels_redis.core import RedisChannelLayer

from games.realtime import relay as local_relay
from games.realtime.layers import RedisChannelLayer as GamesRedisChannelLayer
from games.realtime.outbox import relay_group
from tests.conftest import redis_url

pytestmark = pytest.mark.redis

# A lost message must fail the test, not hang the suite.
RECEIVE_TIMEOUT = 5.0


@pytest.fixture
async def layer() -> AsyncIterator[RedisChannelLayer]:
    """A channel layer under a key prefix of its own, so runs never see each other's keys."""
    channel_layer = RedisChannelLayer(hosts=[redis_url()], prefix=f"test-{uuid.uuid4().hex}")
    yield channel_layer
    await channel_layer.flush()
    await channel_layer.close_pools()


async def receive(layer: RedisChannelLayer, channel: str) -> dict[str, object]:
    """Return the next message on `channel`, or fail after RECEIVE_TIMEOUT seconds."""
    return await asyncio.wait_for(layer.receive(channel), RECEIVE_TIMEOUT)


async def test_message_sent_to_a_channel_is_received(layer: RedisChannelLayer) -> None:
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "word.found", "word": "QUEUE"})
    assert await receive(layer, channel) == {"type": "word.found", "word": "QUEUE"}


async def test_message_sent_to_a_group_reaches_its_members(layer: RedisChannelLayer) -> None:
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("room", first)
    await layer.group_add("room", second)
    await layer.group_send("room", {"type": "round.ended"})
    assert await receive(layer, first) == {"type": "round.ended"}
    assert await receive(layer, second) == {"type": "round.ended"}


async def test_a_workers_relay_gets_notices_while_its_sockets_wait_on_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A relay channel shares the worker's one Redis list with its sockets' channels: a
    channel of another prefix was never popped while a socket waited first."""
    layer = GamesRedisChannelLayer(hosts=[redis_url()], prefix=f"test-{uuid.uuid4().hex}")
    monkeypatch.setattr(local_relay, "get_channel_layer", lambda: layer)
    socket_channel = await layer.new_channel()
    waiting = asyncio.create_task(layer.receive(socket_channel))  # a socket, waiting first
    await asyncio.sleep(0.1)
    written: list[str] = []

    class Socket:
        async def send(self, text_data: str | None = None, **_: object) -> None:
            written.append(text_data or "")

    socket = Socket()
    local_relay.relay_join(7, socket)
    try:
        await asyncio.wait_for(local_relay.relay_joined(7), RECEIVE_TIMEOUT)
        notice = {"type": "relay.notice", "message": {"type": "arena_top", "at": 1}}
        await layer.group_send(relay_group(7), notice)
        for _ in range(int(RECEIVE_TIMEOUT / 0.05)):
            if written:
                break
            await asyncio.sleep(0.05)
        assert [json.loads(frame)["at"] for frame in written] == [1]
        await layer.send(socket_channel, {"type": "word.found"})
        assert await asyncio.wait_for(waiting, RECEIVE_TIMEOUT) == {"type": "word.found"}
    finally:
        local_relay.relay_leave(7, socket)
        waiting.cancel()
        await layer.flush()
        await layer.close_pools()
