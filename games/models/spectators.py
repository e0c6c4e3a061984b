"""A spectator's socket watching a room (counted against the room's cap)."""

from __future__ import annotations

from django.db import models

from games.models.rooms import Room


class Spectator(models.Model):
    """One open spectator socket of a room, counted against BOGGLE_ROOM_SPECTATORS_MAX by
    every worker; one not seen for clock.PRESENCE_TIMEOUT (its worker died) no longer counts."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="spectators")
    channel = models.CharField(max_length=200, unique=True, help_text="the socket's channel")
    opened_at = models.DateTimeField()
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["room", "seen_at"], name="spectators_of_room")]

    def __str__(self) -> str:
        return f"spectator of {self.room_id}"
