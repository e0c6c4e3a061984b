"""Room events: numbered, stored, and broadcast only once the transaction commits."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F

from games.models import Room, RoomEvent

KEEP_EVENTS = 500  # per room; a client further behind than this gets a snapshot


def room_group(room_id: int) -> str:
    """Return the channel-layer group of a room's sockets."""
    return f"room-{room_id}"


def event_emit(*, room_id: int, kind: str, data: dict[str, Any]) -> RoomEvent:
    """Store the room's next numbered event and send it to the room after commit."""
    with transaction.atomic():
        Room.objects.filter(pk=room_id).update(seq=F("seq") + 1)  # locks the room row
        seq = Room.objects.values_list("seq", flat=True).get(pk=room_id)
        event = RoomEvent.objects.create(room_id=room_id, seq=seq, type=kind, payload=data)
        if seq % 100 == 0:
            RoomEvent.objects.filter(room_id=room_id, seq__lte=seq - KEEP_EVENTS).delete()
        message = {"type": "room.event", "seq": seq, "event": kind, "data": data}
        transaction.on_commit(lambda: _broadcast(room_id, message))
    return event


def _broadcast(room_id: int, message: dict[str, Any]) -> None:
    """Send to the room's group; at-most-once, clients recover gaps by sequence number."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(room_group(room_id), message)
