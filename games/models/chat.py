"""A room's chat lines."""

from __future__ import annotations

from django.db import models

from games.models.rooms import Player, Room
from games.protocol import CHAT_MAX_CHARS


class ChatMessage(models.Model):
    """A line a player wrote in a room's chat: plain text, kept while the room lasts (the
    latest CHAT_SHOWN come with every snapshot; an admin may delete any)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_messages")
    player = models.ForeignKey(
        Player, null=True, on_delete=models.SET_NULL, related_name="chat_messages"
    )
    nickname = models.CharField(max_length=24, help_text="the author's name when they wrote")
    text = models.CharField(max_length=CHAT_MAX_CHARS)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["room", "-id"], name="chat_of_room"),
            models.Index(fields=["player", "created_at"], name="chat_of_player"),  # the limit
        ]

    def __str__(self) -> str:
        return f"{self.nickname}: {self.text[:40]}"
