"""The arena's schedule and rules as values (no database access): which round is when, which
seed draws its board, and the settings its rounds play by (docs/arena.md).

Schedules are data, like the clock: round k (counted from the epoch) is played from
epoch + k × period for `play` seconds, its results are shown for `results` seconds, and round
k + 1 starts. Its number in the arena's room is base + k + 1, so numbers carry on when an
admin changes the timings (a new epoch and base, games.arena.schedule.ArenaSchedule.retimed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.rules.room_settings import RoomSettings
from games.rules.standings import secret_seed

# A visitor who would have less than this left of the round under way waits for the next one
# rather than starting a round nobody had needed yet.
MIN_LEFT = timedelta(seconds=20)

NO_SUCH_ARENA = "There is no arena by that name."


@dataclass(frozen=True)
class ArenaSchedule:
    """When each round of an arena is played."""

    epoch: datetime
    play: timedelta
    results: timedelta
    base: int = 0

    @property
    def period(self) -> timedelta:
        """Return the time from one round's start to the next's."""
        return self.play + self.results

    def slot(self, now: datetime) -> int:
        """Return k of the round whose period holds `now` (negative before the epoch)."""
        return math.floor((now - self.epoch) / self.period)

    def number(self, k: int) -> int:
        """Return the room's round number of round k."""
        return self.base + k + 1

    def k_of(self, number: int) -> int:
        """Return k of the room's round `number` (the inverse of number)."""
        return number - self.base - 1

    def starts_at(self, k: int) -> datetime:
        """Return when round k's board appears."""
        return self.epoch + k * self.period

    def ends_at(self, k: int) -> datetime:
        """Return when round k's play ends (its results then show until the next start)."""
        return self.starts_at(k) + self.play

    def next_to_play(self, now: datetime) -> int:
        """Return k of the round a visitor arriving at `now` should play: the one under way
        if it has at least MIN_LEFT to go, else the next."""
        k = max(self.slot(now), 0)
        return k if now <= self.ends_at(k) - MIN_LEFT else k + 1

    def retimed(self, *, now: datetime, play: timedelta, results: timedelta) -> ArenaSchedule:
        """Return the schedule with new timings from the next round on: the round under way
        keeps its times, and numbering carries on."""
        k = max(self.slot(now) + 1, 0)
        return ArenaSchedule(self.starts_at(k), play, results, self.number(k) - 1)


def arena_seed(arena_id: int, number: int, secret: str) -> int:
    """Return the seed of an arena round's board: a keyed hash of the arena and the round, so
    every worker draws the same board and nobody without the secret can work it out early."""
    return secret_seed(f"arena:{arena_id}:{number}", secret)


def arena_settings(
    *, dice: str, rows: int, cols: int, dictionary: str, min_length: int, scoring: str,
    adjacency: str, band: str, min_words: int, play_seconds: int,
) -> RoomSettings:  # fmt: skip
    """Return the settings an arena's rounds play by: its own board and timing, and the
    arena's rule that every valid word scores for whoever finds it (no striking)."""
    return RoomSettings(
        preset="custom", dictionary=dictionary, dice=dice, rows=rows, cols=cols,
        min_length=min_length, duration=play_seconds, scoring=scoring, adjacency=adjacency,
        duplicates="count", band=band, min_words=min_words, hints=False,
    )  # fmt: skip
