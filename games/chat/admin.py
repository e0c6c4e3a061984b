"""The admin of room chats: read any room's lines, delete those that should not be there.

Deleting goes through games.chat.services.chat_delete, so the room's clients take the lines
off their screens and no snapshot or catch-up sends them again.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.chat import services as chat
from games.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Chat lines, newest first, searchable by room code, name and text; read and delete only."""

    list_display = ("created_at", "room", "nickname", "text")
    list_select_related = ("room",)
    search_fields = ("room__code", "nickname", "text")
    date_hierarchy = "created_at"
    ordering = ("-id",)
    readonly_fields = ("room", "player", "nickname", "text", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Lines come from players only."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """A line is kept as written or deleted, never edited."""
        return False

    def delete_model(self, request: HttpRequest, obj: ChatMessage) -> None:
        """Delete one line and take it off the room's screens."""
        chat.chat_delete(message_ids=[obj.pk])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        """Delete the chosen lines and take them off their rooms' screens."""
        chat.chat_delete(message_ids=list(queryset.values_list("pk", flat=True)))
