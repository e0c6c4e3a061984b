"""Live word counts: gathered per room and sent at most twice a second, off the word path.

Accepting a word only marks its room; a task in each worker process then sends each marked
room its current counts (one query per room), so a burst of words costs one message. Counts
are whole, so a lost or duplicated message does no harm, and snapshots carry them too.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import Count

from games.models import Round, Submission
from games.services.events import room_group

log = logging.getLogger(__name__)
EVERY = 0.5  # seconds

_dirty: set[int] = set()
_task: asyncio.Task[None] | None = None


def counts_changed(room_id: int) -> None:
    """Note that a room's counts changed; they go out with the next send (call in the loop)."""
    global _task
    _dirty.add(room_id)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_send_soon())


def _current(room_ids: list[int]) -> list[tuple[int, int, dict[str, int]]]:
    """Return (room, round number, counts by player) for the running rounds of these rooms."""
    running = dict(
        Round.objects.filter(room_id__in=room_ids, status=Round.RUNNING).values_list(
            "id", "room_id"
        )
    )
    numbers = dict(Round.objects.filter(id__in=running).values_list("id", "number"))
    counts: dict[int, dict[str, int]] = {rid: {} for rid in running}
    rows = (
        Submission.objects.filter(round_id__in=running)
        .values("round_id", "player_id")
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts[row["round_id"]][str(row["player_id"])] = row["n"]
    return [(running[rid], numbers[rid], by_player) for rid, by_player in counts.items()]


def counts_send(room_ids: list[int]) -> None:
    """Send these rooms their counts now, from a thread with no event loop (the sweeper)."""
    layer = get_channel_layer()
    for room_id, number, counts in _current(room_ids):
        data = {"round": number, "counts": counts}
        message = {"type": "room.notice", "kind": "word_counts", "data": data}
        async_to_sync(layer.group_send)(room_group(room_id), message)


async def _send_soon() -> None:
    await asyncio.sleep(EVERY)
    rooms = list(_dirty)
    _dirty.clear()
    try:
        current = await database_sync_to_async(_current)(rooms)
        layer = get_channel_layer()
        for room_id, number, counts in current:
            notice = {"round": number, "counts": counts}
            await layer.group_send(
                room_group(room_id), {"type": "room.notice", "kind": "word_counts", "data": notice}
            )
    except Exception:  # counts are a courtesy; the next change or a snapshot sends them again
        log.exception("sending word counts failed")
