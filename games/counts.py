"""Live word counts: coalesced per room and sent at most every COUNTS_EVERY_S, off the word path.

Accepting a word records in the outbox that its room's counts changed; the runner that
delivers the outbox hands those rooms here. Each worker then sends a room its current counts
(one query for all the rooms due) at most once every COUNTS_EVERY_S, so a burst of words
costs one message. Counts are whole, so a lost or duplicated message does no harm, and
snapshots carry them too.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterable
from time import monotonic
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import protocol
from games.selectors import rounds_running, word_counts
from games.services.events import room_group

log = logging.getLogger(__name__)
COUNTS_EVERY_S = 0.5  # the shortest time between two sends of one room's counts, per worker

_lock = threading.Lock()
_sent_at: dict[int, float] = {}  # room -> when this worker last sent its counts (monotonic)
_waiting: set[int] = set()  # rooms noted in the event loop, sent by its task
_waiting_sync: set[int] = set()  # rooms noted in threads without a loop (the sweeper)
_task: asyncio.Task[None] | None = None


def counts_notices(room_ids: Iterable[int]) -> list[tuple[str, dict[str, Any]]]:
    """Return (group, notice) with the current counts of each of these rooms' running round."""
    # Not an arena's: it sends a live top instead (games.services.arena.arena_top_send).
    running = list(
        rounds_running(room_ids).filter(room__is_arena=False).values_list("id", "room_id", "number")
    )
    counts = word_counts(round_id for round_id, _, _ in running)
    return [
        (
            room_group(room_id),
            {"type": "room.notice", "message": protocol.word_counts(number, counts[round_id])},
        )
        for round_id, room_id, number in running
    ]


def _take_due(waiting: set[int], now: float) -> list[int]:
    """Take from `waiting` the rooms whose counts may be sent at `now`, marking them sent."""
    with _lock:
        for room_id, at in list(_sent_at.items()):
            if now - at >= COUNTS_EVERY_S:
                del _sent_at[room_id]
        due = [room_id for room_id in waiting if room_id not in _sent_at]
        waiting.difference_update(due)
        _sent_at.update(dict.fromkeys(due, now))
    return due


def _next_wait(waiting: set[int], now: float) -> float | None:
    """Return how long until a room in `waiting` may be sent, or None if none waits."""
    with _lock:
        if not waiting:
            return None
        return max(0.0, min(_sent_at.get(r, now) + COUNTS_EVERY_S - now for r in waiting))


def counts_changed(room_ids: Iterable[int]) -> None:
    """Note, in the event loop, that these rooms' counts changed: they go out with its next
    send, COUNTS_EVERY_S from the first change (not sooner than that after the last send)."""
    global _task
    with _lock:
        _waiting.update(room_ids)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_send_soon())


async def _send_soon() -> None:
    wait = COUNTS_EVERY_S
    while True:
        await asyncio.sleep(wait)
        due = _take_due(_waiting, monotonic())
        if due:
            try:
                notices = await database_sync_to_async(counts_notices)(due)
                layer = get_channel_layer()
                for group, notice in notices:
                    await layer.group_send(group, notice)
            except Exception:  # counts are a courtesy; the next change or a snapshot resends
                log.exception("sending word counts failed")
        # No await between this look and returning: a change noted meanwhile sees the task
        # still running and is sent by it, or sees it done and starts another.
        next_wait = _next_wait(_waiting, monotonic())
        if next_wait is None:
            return
        wait = next_wait


def counts_send_due(room_ids: Iterable[int] = ()) -> None:
    """Note, from a thread without an event loop (the sweeper), that these rooms' counts
    changed, and send now those of every room so noted that may be sent; the rest wait for
    the next call (the sweeper calls every second)."""
    with _lock:
        _waiting_sync.update(room_ids)
    due = _take_due(_waiting_sync, monotonic())
    if not due:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    for group, notice in counts_notices(due):
        async_to_sync(layer.group_send)(group, notice)
