"""channels_redis delivers through the Redis server at REDIS_URL."""

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from channels_redis.core import RedisChannelLayer

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
