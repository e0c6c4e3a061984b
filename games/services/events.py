"""Room events: numbered, stored, and broadcast only once the transaction commits."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction

from games.models import Room, RoomEvent

KEEP_EVENTS = 500  # per room; a client further behind than this gets a snapshot


def room_group(room_id: int) -> str:
    """Return the channel-layer group of a room's sockets."""
    return f"room-{room_id}"


def event_emit(*, room_id: int, kind: str, data: dict[str, Any]) -> RoomEvent:
    """Store the room's next numbered event and send it to the room after commit."""
    with transaction.atomic():
        with connection.cursor() as cursor:  # one statement: bump and read (locks the row)
            cursor.execute(
                f"UPDATE {Room._meta.db_table} SET seq = seq + 1 WHERE id = %s RETURNING seq",
                [room_id],
            )
            (seq,) = cursor.fetchone()
        event = RoomEvent.objects.create(room_id=room_id, seq=seq, type=kind, payload=data)
        if seq % 100 == 0:
            RoomEvent.objects.filter(room_id=room_id, seq__lte=seq - KEEP_EVENTS).delete()
        message = {"type": "room.event", "seq": seq, "event": kind, "data": data}
        # robust: a channel layer that is down must not fail the caller (a sweep ending
        # several rounds) after the commit; the event is stored and clients catch up.
        transaction.on_commit(lambda: _broadcast(room_id, message), robust=True)
    return event


Outgoing = list[tuple[str, dict[str, Any]]]
_outbox = threading.local()


@contextmanager
def outbox_collect() -> Iterator[Outgoing]:
    """Collect the messages committed in this block instead of sending them from this
    thread, so an async caller can send them itself without a round trip to its loop."""
    collected: Outgoing = []
    _outbox.messages = collected
    try:
        yield collected
    finally:
        del _outbox.messages


def _broadcast(room_id: int, message: dict[str, Any]) -> None:
    """Send to the room's group; at-most-once, clients recover gaps by sequence number."""
    collected = getattr(_outbox, "messages", None)
    if collected is not None:
        collected.append((room_group(room_id), message))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(room_group(room_id), message)
