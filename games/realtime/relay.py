"""A room's unnumbered notices, one channel-layer message per worker (docs/arena.md).

Through a Channels group every notice is one message per socket: an arena's live top, once a
second to 2,000 sockets, was 2,000 messages a second, each popped from Redis by its worker
in several round trips one after the other, and the workers fell seconds behind (the top's
age when replaced reached 8 s at the 99th percentile under `make bench-arena`). Here each
worker with sockets in such a room joins the room's relay group once, with a channel of its
own, and writes each notice it receives to its sockets of that room, encoded once and spread
over a fraction of a second.

Only notices go this way: each carries its whole state, so one lost (Redis restarting) is
made good by the next, and an older one arriving after a newer is dropped (by its `at`).
Numbered events keep each socket's own channel, which keeps their order and closes the socket
when the channel layer fails under it.

Call everything from the worker's event loop (one loop per process: no locks needed).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import get_channel_layer

from games.realtime.frames import stamped_frame
from games.realtime.outbox import relay_group

log = logging.getLogger(__name__)

REJOIN_S = 3600.0  # a group's membership expires in the channel layer (a day): renew it
RETRY_S = 1.0  # after the channel layer failed, try again this much later
# A notice reaches a worker's sockets CHUNK at a time, the chunks spread evenly over SPREAD_S
# (a few sockets: at once). Written all at once, an arena's top (once a second to a thousand
# sockets a worker) held the worker's loop, and the client's, for some 70 ms every second, and
# the words answered meanwhile waited: `make bench-arena`'s acknowledgement p99 was 144-153 ms
# with it and 50 ms with no top at all (docs/history.md). Spread, each
# socket's top comes up to SPREAD_S later, by the same amount each second (the sockets keep
# their order), so it is at most about 1.5 s old when the next replaces it.
SPREAD_S = 0.4
CHUNK = 20


class Socket(Protocol):
    """A socket that is written notices as they are."""

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...


@dataclass(eq=False)
class _Relay:
    sockets: set[Socket] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    last_at: int = 0  # the `at` of the newest notice written (server ms)
    joined: asyncio.Event = field(default_factory=asyncio.Event)  # in its group


_relays: dict[int, _Relay] = {}


def relay_join(room_id: int, socket: Socket) -> None:
    """Write the room's relayed notices to this socket from now on; the room's first socket
    here joins the worker to the room's relay group."""
    relay = _relays.get(room_id)
    if relay is None:
        relay = _relays[room_id] = _Relay()
        relay.task = asyncio.create_task(_relay_run(room_id, relay))
    relay.sockets.add(socket)


def relay_leave(room_id: int, socket: Socket) -> None:
    """Stop writing the room's notices to this socket; the room's last socket here takes the
    worker out of the room's relay group."""
    relay = _relays.get(room_id)
    if relay is None or socket not in relay.sockets:
        return
    relay.sockets.discard(socket)
    if not relay.sockets:
        del _relays[room_id]
        if relay.task is not None:
            relay.task.cancel()


def relay_sockets(room_id: int) -> int:
    """Return how many of the room's sockets this worker relays to."""
    relay = _relays.get(room_id)
    return len(relay.sockets) if relay is not None else 0


async def relay_joined(room_id: int) -> None:
    """Return once this worker's relay of the room is in its group (tests: a notice sent
    before would not reach it)."""
    relay = _relays.get(room_id)
    if relay is not None:
        await relay.joined.wait()


async def _relay_run(room_id: int, relay: _Relay) -> None:
    """Receive the room's relayed notices for this worker until cancelled."""
    layer = get_channel_layer()
    if layer is None:
        return
    group, channel = relay_group(room_id), None
    renewing: asyncio.Task[None] | None = None
    try:
        while True:
            try:
                if channel is None:
                    # The sockets' own prefix: on Redis a worker pops one list per prefix,
                    # and only for the prefix of whoever waits first.
                    channel = await layer.new_channel()
                    await layer.group_add(group, channel)
                    if renewing is not None:
                        renewing.cancel()
                    renewing = asyncio.create_task(_renew(layer, group, channel))
                    relay.joined.set()
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis gone: the sockets' own channels close them meanwhile
                log.warning("relaying room %s's notices failed; trying again", room_id)
                channel = None
                await asyncio.sleep(RETRY_S)
                continue
            await _write(relay, message.get("message", {}))
    finally:
        if renewing is not None:
            renewing.cancel()
        if channel is not None:
            left = asyncio.ensure_future(layer.group_discard(group, channel))
            left.add_done_callback(lambda done: done.cancelled() or done.exception())


async def _renew(layer: Any, group: str, channel: str) -> None:
    """Renew the relay channel's membership of its group before the layer expires it (a
    cancelled receive would make the layer drop the channel's messages: not a timeout)."""
    while True:
        await asyncio.sleep(REJOIN_S)
        try:
            await layer.group_add(group, channel)
        except Exception:  # the receive fails too, and joins afresh
            log.warning("renewing a relay group failed")


async def _write(relay: _Relay, message: dict[str, Any]) -> None:
    """Write one notice to every socket of the relay, encoded once, a chunk at a time over
    SPREAD_S; drop it if a newer one was written already."""
    at = int(message.get("at", 0))
    if at and at < relay.last_at:
        return
    relay.last_at = max(relay.last_at, at)
    frame = stamped_frame(message)
    if frame is None:
        return
    sockets = list(relay.sockets)  # the same order each time while the sockets stay
    chunks = [sockets[n : n + CHUNK] for n in range(0, len(sockets), CHUNK)]
    loop = asyncio.get_running_loop()
    began = loop.time()
    for k, chunk in enumerate(chunks):
        if k:  # chunk k goes at k/len of the spread (at once if the loop is behind)
            await asyncio.sleep(max(0.0, began + SPREAD_S * k / len(chunks) - loop.time()))
        for socket in chunk:
            if socket not in relay.sockets:
                continue  # left while the notice was being spread
            try:
                await socket.send(text_data=frame)
            except Exception:  # closing: its disconnect takes it out of the relay
                log.debug("a relayed notice found its socket closed", exc_info=True)
