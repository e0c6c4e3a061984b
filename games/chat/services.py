"""A room's chat: writing a line, the host muting a player, an admin deleting lines.

Keyed by the room alone (a private room or the arena alike). Every line is a numbered room
event as well as a ChatMessage row: a socket that reconnects gets the lines it missed in
order with everything else (docs/protocol.md says why), and a snapshot carries the latest.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction

from games import protocol
from games.chat.selectors import chat_data
from games.models import ChatMessage, Player, Room, RoomEvent
from games.protocol import ProtocolError
from games.realtime.outbox import event_emit
from games.rounds.selectors import rounds_running
from games.rules.room_settings import stored_settings
from games.seats.selectors import player_data
from games.seats.services import host_check

# Per player, however many tabs or sockets they write from: a burst of CHAT_BURST lines,
# then no more until the oldest of them is CHAT_WINDOW old. A conversation never meets it.
CHAT_BURST = 5
CHAT_WINDOW = timedelta(seconds=10)
SOLO_NO_CHAT = "A solo game has no chat: nobody else is here to read it."


def chat_closed(room: Room, now: datetime) -> bool:
    """Return whether the room's chat is closed at `now`: a round is running and the host has
    not opened the chat during rounds (closed by default, so no one passes words). A solo
    room (a daily attempt too) has no chat: nobody else is there to read it.

    The arena has no host to open it: its chat is closed while a board is in play, and open
    through the results until the next board appears (that round is stored, running, during
    the results: it closes the chat only from its start)."""
    if room.is_solo:
        return True
    running = rounds_running([room.id])
    if room.is_arena:
        return running.filter(starts_at__lte=now).exists()
    if stored_settings(room.settings).chat_in_rounds:
        return False
    return running.exists()


def chat_post(*, room: Room, player: Player, text: str, now: datetime) -> ChatMessage:
    """Store a player's line (text already checked by games.protocol) and tell the room;
    raise ProtocolError when the player is muted, the chat closed or the player too fast."""
    if player.removed_at is not None or player.is_bot:
        raise ProtocolError(protocol.NOT_IN_ROOM)
    if player.chat_muted:
        raise ProtocolError(protocol.CHAT_MUTED)
    if room.is_solo:  # not "closed during rounds": there is no chat to open
        raise ProtocolError(protocol.CHAT_CLOSED, SOLO_NO_CHAT)
    if chat_closed(room, now):
        raise ProtocolError(protocol.CHAT_CLOSED)
    with transaction.atomic():
        # The player's row lock makes the count and the new line one step: two tabs (or two
        # workers) writing at once cannot both take the last line of a burst.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        recent = ChatMessage.objects.filter(player=player, created_at__gt=now - CHAT_WINDOW)
        if recent.count() >= CHAT_BURST:
            raise ProtocolError(protocol.CHAT_TOO_FAST)
        message = ChatMessage.objects.create(
            room=room, player=player, nickname=player.nickname, text=text, created_at=now
        )
        event_emit(
            room_id=room.id, kind=protocol.CHAT_MESSAGE, data={"message": chat_data(message)}
        )
    return message


def player_mute(*, room: Room, by: Player, player_id: int, muted: bool) -> None:
    """Mute or unmute another player in the room's chat (host only); the room sees it on the
    player's entry."""
    host_check(room=room, player=by)
    with transaction.atomic():
        changed = (
            Player.objects.filter(room=room, pk=player_id, removed_at__isnull=True)
            .exclude(pk=by.pk)
            .update(chat_muted=muted)
        )
        if not changed:
            raise ProtocolError(protocol.NO_SUCH_PLAYER)
        player = Player.objects.get(pk=player_id)
        event_emit(
            room_id=room.id,
            kind=protocol.PLAYER_UPDATED,
            data={"player": player_data(player, room)},
        )


def chat_delete(*, message_ids: Iterable[int]) -> int:
    """Delete chat messages (an admin's decision) and tell their rooms, whose clients take
    them off the screen; return how many were deleted. The stored events that carried them
    become deletions too, so a client catching up never receives their text."""
    by_room: dict[int, list[int]] = defaultdict(list)
    for message_id, room_id in ChatMessage.objects.filter(pk__in=list(message_ids)).values_list(
        "id", "room_id"
    ):
        by_room[room_id].append(message_id)
    with transaction.atomic():
        for room_id, ids in by_room.items():
            for message_id in ids:
                RoomEvent.objects.filter(
                    room_id=room_id, type=protocol.CHAT_MESSAGE, payload__message__id=message_id
                ).update(type=protocol.CHAT_DELETED, payload={"ids": [message_id]})
            ChatMessage.objects.filter(pk__in=ids).delete()
            event_emit(room_id=room_id, kind=protocol.CHAT_DELETED, data={"ids": sorted(ids)})
    return sum(len(ids) for ids in by_room.values())
