"""The Redis channel layer, without one leak.

channels_redis delivers every message for a worker's sockets through one shared Redis list
and sorts them into a buffer per socket channel. A message that arrives for a socket that has
just closed (its room's event or word counts were in flight) gets a buffer that nobody will
ever read, and keeps it for the life of the process: the 30-minute soak showed worker memory
creeping up by a quarter of a MiB a minute as players came and went. A channel's consumer
ends by cancelling its receive(); this layer remembers such channels for a while and drops
what arrives for them.

The leak is channels_redis's, reported upstream (https://github.com/django/channels_redis/
issues/384, open; also django/channels#1361). This is the project's one workaround of a
library's bug: it subclasses the layer and replaces its receive buffer, so `channels-redis` is
pinned in pyproject.toml to the series it was verified against (4.3), and
tests/resilience/test_channel_layer_leak.py shows the leak without it and none with it. On a
release that fixes the leak, delete this module and name channels_redis's layer in settings.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import time
from collections.abc import Callable
from typing import Any

from channels_redis.core import BoundedQueue
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer

REMEMBER = 300.0  # seconds; longer than any message waits in Redis (the layer's expiry, 60 s)


class _Buffers(collections.defaultdict[str, Any]):
    """Per-channel buffers that hand a closed channel a queue nobody keeps."""

    def __init__(self, factory: Callable[[], Any], closed: dict[str, float]) -> None:
        super().__init__(factory)
        self.closed = closed

    def __missing__(self, channel: str) -> Any:
        if channel in self.closed:
            assert self.default_factory is not None
            return self.default_factory()  # filled, then dropped with its message
        return super().__missing__(channel)


class RedisChannelLayer(_RedisChannelLayer):
    """channels_redis's layer, forgetting the buffers of channels whose consumer has gone."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.closed: dict[str, float] = {}  # channel -> when its consumer went, oldest first
        self.receive_buffer = _Buffers(functools.partial(BoundedQueue, self.capacity), self.closed)

    async def receive(self, channel: str) -> Any:
        try:
            return await super().receive(channel)
        except asyncio.CancelledError:  # the consumer is leaving: nothing will read it again
            self._closed(channel)
            raise

    def _closed(self, channel: str) -> None:
        if "!" not in channel:
            return  # a named channel (workers, tests) may be read again later
        now = time.monotonic()
        self.receive_buffer.pop(channel, None)
        self.closed.pop(channel, None)
        self.closed[channel] = now
        while self.closed:
            oldest, at = next(iter(self.closed.items()))
            if now - at < REMEMBER:
                break
            del self.closed[oldest]
