"""Reading a room's chat: one message as every client sees it, and the latest few."""

from __future__ import annotations

from typing import Any

from games.models import ChatMessage, Room
from games.rules import clock

CHAT_SHOWN = 50  # the latest messages a snapshot carries (a reconnect, a new tab, a spectator)


def chat_data(message: ChatMessage) -> dict[str, Any]:
    """Return a chat message as clients get it (its text is shown as text, never as HTML)."""
    return {
        "id": message.id,
        "player_id": message.player_id,
        "nickname": message.nickname,
        "text": message.text,
        "at": clock.millis(message.created_at),
    }


def chat_recent(room: Room, limit: int = CHAT_SHOWN) -> list[dict[str, Any]]:
    """Return the room's latest `limit` chat messages, oldest first."""
    latest = ChatMessage.objects.filter(room=room).order_by("-id")[:limit]
    return [chat_data(message) for message in reversed(latest)]
