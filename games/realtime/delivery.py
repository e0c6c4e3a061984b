"""Delivering what committed services emitted: messages to the rooms' channel-layer groups,
changed counts to games.realtime.counts, which coalesces them; from the event loop, or from a
thread with none (the sweeper), handed to the worker's serving loop when one runs."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.realtime import counts

if TYPE_CHECKING:  # the outbox delivers through here when no runner collects it
    from games.realtime.outbox import Outbox

log = logging.getLogger(__name__)


def _unsent(group: str, message: dict[str, Any]) -> None:
    log.warning(
        "could not send %s to %s: the channel layer is unavailable",
        message.get("event", message["type"]),
        group,
    )


async def outbox_deliver(outbox: Outbox) -> None:
    """Send an outbox's messages and note its changed counts, from the event loop."""
    layer = get_channel_layer()
    for group, message in outbox.messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # stored already: clients catch up by sequence number
            _unsent(group, message)
    if outbox.counts_changed:
        counts.counts_changed(outbox.counts_changed)


# The event loop that serves this worker's sockets, once one has run a service. The sweep
# thread hands its outboxes to it: asgiref's async_to_sync would run each message in a new
# event loop on a new thread, with a Redis connection of its own, and closing that loop walks
# every task of the process (thousands of sockets' tasks) holding the GIL: 31 ms a message
# under `make bench-daily`, while the sockets' words waited.
_serving_loop: asyncio.AbstractEventLoop | None = None


HANDOFF_TIMEOUT_S = 10.0


def serving_loop_set(loop: asyncio.AbstractEventLoop) -> None:
    """Note the event loop that serves this worker's sockets (the runner does, as it runs a
    service for one)."""
    global _serving_loop
    _serving_loop = loop


def _serving_loop_elsewhere() -> asyncio.AbstractEventLoop | None:
    """Return the serving event loop if it is running and this thread is not its own."""
    loop = _serving_loop
    if loop is None or not loop.is_running() or loop.is_closed():
        return None
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    return None if here is loop else loop


def outbox_deliver_sync(outbox: Outbox) -> None:
    """Send an outbox's messages and the counts due, from a thread with no event loop: on
    the worker's serving loop when it runs, else here."""
    loop = _serving_loop_elsewhere()
    if loop is not None:
        if outbox:
            handed = asyncio.run_coroutine_threadsafe(outbox_deliver(outbox), loop)
            try:
                handed.result(timeout=HANDOFF_TIMEOUT_S)
            except Exception:  # the loop stopped or is stuck: stored, clients catch up
                handed.cancel()
                log.exception("handing an outbox to the serving loop failed")
        _send_sync([], {})  # the counts noted here before the loop served, if due
        return
    _send_sync(outbox.messages, outbox.counts_changed)


def _send_sync(messages: list[tuple[str, dict[str, Any]]], changed: dict[str, set[int]]) -> None:
    layer = get_channel_layer()
    for group, message in messages if layer is not None else ():
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # stored already: clients catch up by sequence number
            _unsent(group, message)
    counts.counts_send_due(changed)
