"""Rooms, their seats (players) and the numbered room events a socket catches up from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models

from games.models.identities import PlayerIdentity
from games.rules.nicknames import nickname_key


class Room(models.Model):
    """A place where friends play rounds together on one board at a time."""

    code = models.CharField(max_length=12, unique=True)
    settings = models.JSONField(default=dict)
    host = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveBigIntegerField(default=0, help_text="last event sequence number")
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True, db_index=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    is_solo = models.BooleanField(
        default=False, help_text="one player against the computer, who takes the rest after"
    )
    is_daily = models.BooleanField(
        default=False, help_text="holds one attempt at a daily board: one round, then no more"
    )
    is_arena = models.BooleanField(
        default=False, help_text="the room of an arena (games.models.Arena): no host, no seat cap"
    )
    next_board = models.CharField(
        max_length=600,
        blank=True,
        help_text="share code of a board the host gave for the next round (used once); "
        "never sent to players before that round starts",
    )

    def __str__(self) -> str:
        return self.code


class PlayerQuerySet(models.QuerySet["Player"]):
    """Seats; creating many at once keys their nicknames as Player.save does one."""

    def bulk_create(self, objs: Iterable[Player], *args: Any, **kwargs: Any) -> list[Player]:
        """Create the seats, with each nickname's look-alike key if none was given."""
        seats = list(objs)
        for seat in seats:
            seat.nickname_key = seat.nickname_key or nickname_key(seat.nickname)
        return super().bulk_create(seats, *args, **kwargs)


class Player(models.Model):
    """A seat in a room, held by one player identity (or a computer player; a seat whose
    player deleted their account keeps no identity and an anonymous name)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="players")
    identity = models.ForeignKey(
        PlayerIdentity, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    nickname = models.CharField(max_length=24)
    nickname_key = models.CharField(
        max_length=255, help_text="what the nickname reads as: names that look alike share one key"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    connections = models.PositiveIntegerField(default=0)
    connected_since = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    total_score = models.IntegerField(default=0)
    bot_level = models.CharField(max_length=12, blank=True, help_text="empty for a person")
    bot_dictionary = models.ForeignKey(
        "solver.Dictionary",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the words this computer player knows, if not the room's",
    )
    chat_muted = models.BooleanField(default=False, help_text="the host muted them in the chat")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "identity"], name="one_seat_per_identity"),
            models.UniqueConstraint(fields=["room", "nickname"], name="unique_nickname_in_room"),
            # No two seats in a room whose names read alike ("Host" and "Ηost"), even when
            # two joins race past the check in seat_create.
            models.UniqueConstraint(
                fields=["room", "nickname_key"], name="no_lookalike_nicknames_in_room"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nickname} in {self.room_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save the seat, with its nickname's look-alike key if none was given."""
        if not self.nickname_key:
            self.nickname_key = nickname_key(self.nickname)
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        """Return whether this seat is a computer player."""
        return bool(self.bot_level)

    @property
    def is_connected(self) -> bool:
        """Return whether at least one socket of this player is open."""
        return self.connections > 0


class RoomEvent(models.Model):
    """One numbered event of a room, kept so a reconnecting client can catch up."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.seq} {self.type}"
