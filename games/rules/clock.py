"""Time as data: the server clock, and a round's clock as a value computed from an injected now.

A round stores when it starts and ends; everything else (is it counting down, how long is
left, does it still take words, is it due to be ended) follows from those two instants and
the moment asked about. Nothing counts down.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.utils import timezone

COUNTDOWN = timedelta(seconds=3)  # between the start announcement and the board appearing
GRACE = timedelta(milliseconds=400)  # absorbs network lag: words sent before zero still count
PRESENCE_TIMEOUT = timedelta(seconds=60)  # no ping for this long means the player is gone
HOST_AWAY = timedelta(seconds=10)  # a disconnected host keeps the role this long (refreshes)
IDLE_ROOM = timedelta(hours=6)  # a room with nobody connected for this long is closed


def now() -> datetime:
    """Return the server's current time (aware, UTC)."""
    return timezone.now()


def countdown() -> timedelta:
    """Return the countdown this server gives a round: BOGGLE_COUNTDOWN_SECONDS when it is set
    (the browser suite's server shortens it), else COUNTDOWN."""
    seconds = getattr(settings, "BOGGLE_COUNTDOWN_SECONDS", None)
    return COUNTDOWN if seconds is None else timedelta(seconds=seconds)


def millis(moment: datetime | None) -> int | None:
    """Return an instant as milliseconds since the epoch, as clients receive it."""
    return None if moment is None else int(moment.timestamp() * 1000)


def due_if_ended_by(at: datetime) -> datetime:
    """Return the latest end a round may have and be due at `at` (the database's form of
    RoundClock.is_due: `ends_at <= due_if_ended_by(now)`)."""
    return at - GRACE


class _Timed(Protocol):
    @property
    def starts_at(self) -> datetime: ...
    @property
    def ends_at(self) -> datetime | None: ...


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: when it starts, when it ends (None: untimed, the host ends it), and
    the grace after the end during which late words still count."""

    starts_at: datetime
    ends_at: datetime | None
    grace: timedelta = GRACE

    @classmethod
    def of(cls, rnd: _Timed) -> RoundClock:
        """Return the clock of a stored round."""
        return cls(rnd.starts_at, rnd.ends_at)

    @classmethod
    def starting(
        cls, *, now: datetime, duration: timedelta | None, countdown: timedelta = COUNTDOWN
    ) -> RoundClock:
        """Return the clock of a round announced at `now`: the board shows after the
        countdown and the round lasts `duration` (None: untimed)."""
        starts_at = now + countdown
        return cls(starts_at, None if duration is None else starts_at + duration)

    def until_start(self, now: datetime) -> timedelta:
        """Return how long until the board shows (zero once it has)."""
        return max(timedelta(0), self.starts_at - now)

    def remaining(self, now: datetime) -> timedelta | None:
        """Return the playing time left (zero once over), or None for an untimed round."""
        if self.ends_at is None:
            return None
        return max(timedelta(0), self.ends_at - max(now, self.starts_at))

    def until_due(self, now: datetime) -> timedelta | None:
        """Return how long until the round is due to be ended, or None if untimed."""
        if self.ends_at is None:
            return None
        return max(timedelta(0), self.ends_at + self.grace - now)

    def is_due(self, now: datetime) -> bool:
        """Return whether the round should be ended at `now` (its grace included)."""
        return self.ends_at is not None and now >= self.ends_at + self.grace

    def accepts_words(self, now: datetime) -> bool:
        """Return whether a word received at `now` is inside the round's window."""
        return now >= self.starts_at and not self.is_due(now)
