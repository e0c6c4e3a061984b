"""Time as data: the server clock, and the instants that decide a round's life."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

COUNTDOWN = timedelta(seconds=3)  # between the start announcement and the board appearing
GRACE = timedelta(milliseconds=400)  # absorbs network lag: words sent before zero still count
PRESENCE_TIMEOUT = timedelta(seconds=60)  # no ping for this long means the player is gone
HOST_AWAY = timedelta(seconds=10)  # a disconnected host keeps the role this long (refreshes)
IDLE_ROOM = timedelta(hours=6)  # a room with nobody connected for this long is closed


def now() -> datetime:
    """Return the server's current time (aware, UTC)."""
    return timezone.now()


def millis(moment: datetime | None) -> int | None:
    """Return an instant as milliseconds since the epoch, as clients receive it."""
    return None if moment is None else int(moment.timestamp() * 1000)


def round_is_due(ends_at: datetime | None, at: datetime) -> bool:
    """Return whether a round ending at ends_at should be ended at `at` (grace included)."""
    return ends_at is not None and at >= ends_at + GRACE


def accepts_words(starts_at: datetime, ends_at: datetime | None, at: datetime) -> bool:
    """Return whether a submission received at `at` is inside the round's window."""
    return at >= starts_at and (ends_at is None or at < ends_at + GRACE)
