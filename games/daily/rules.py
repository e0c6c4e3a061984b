"""The daily games: what they play, which board a day gets, and the arithmetic of a day's
results (rank, percentile, streaks, the share text). No database access: the services and
selectors in games.daily.services and games.daily.selectors store and read the rows.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from games.rules.room_settings import PRESETS, RoomSettings
from games.rules.standings import percentile_of, secret_seed

# Day 1 of every daily game: a game's number is the days since this date, plus one.
DAILY_EPOCH = date(2026, 11, 23)
LEADERBOARD_PAGE = 100  # rows on one page of a day's leaderboard
DRAW_BUDGET_S = 20.0  # a day's board is drawn once: it may roll for longer than a round start
SHARE_LENGTHS_CAP = 8  # the share grid's last row counts words of this many letters and more
SHARE_SQUARES_MAX = 10  # and a row shows at most this many squares


@dataclass(frozen=True)
class DailyGame:
    """One daily game: the board and rules everyone plays that day, and how the day's board
    is chosen (a band of the board lab's standings, and a minimum number of words)."""

    slug: str
    name: str
    settings: RoomSettings
    band: str
    min_words: int

    def number(self, day: date) -> int:
        """Return the game's number for a day (#1 on DAILY_EPOCH)."""
        return (day - DAILY_EPOCH).days + 1


def _daily(base: str, duration: int) -> RoomSettings:
    # Everyone plays alone: no word is struck, each unique valid word scores.
    return RoomSettings(
        **{**PRESETS[base].as_dict(), "dictionary": "yawl", "duration": duration,
           "duplicates": "count"}
    )  # fmt: skip


DAILY_GAMES: dict[str, DailyGame] = {
    game.slug: game
    for game in (
        DailyGame("4x4", "Daily 4×4", _daily("classic", 180), band="standard", min_words=40),
        DailyGame("5x5", "Daily 5×5", _daily("big", 240), band="standard", min_words=60),
    )
}

# Why a daily page or start refuses (the views turn these into pages and messages).
UNKNOWN_GAME = "There is no daily game by that name: play Daily 4×4 or Daily 5×5."
NOT_A_DATE = "That is not a date: daily boards are named by their day, like 2026-11-23."
BEFORE_EPOCH = f"The daily boards began on {DAILY_EPOCH:%d %B %Y}: there is none before."
FUTURE_DAY = "That day's board is not out yet: each board opens at midnight UTC."


# A ranked attempt is held for an admin's review, off the leaderboard, when it finds more of
# the board than people do (the best players find about a third of a daily board's words in
# its three minutes), or finds many words at machine speed (a person needs seconds a word).
HOLD_SHARE = 0.5
HOLD_SHARE_MIN_WORDS = 10
HOLD_FAST_WORDS = 20
HOLD_FAST_GAP_S = 1.0
UNRANKED_NETWORK = (
    "This attempt is unranked: someone on your network has already played today's {game} "
    "ranked without an account. Log in or create an account to play it ranked."
)
HELD_NOTE = (
    "Your score is held for review before it joins the leaderboard: your attempt {reason}, "
    "more than people usually manage. An admin will look at it soon."
)


def review_reason(*, found: int, board_words: int, found_at: list[float]) -> str:
    """Return why a ranked attempt should wait for an admin before it ranks ("" if it need
    not): `found` words of the board's `board_words`, accepted at `found_at` (seconds)."""
    if found >= HOLD_SHARE_MIN_WORDS and board_words and found >= HOLD_SHARE * board_words:
        return f"found {found} of the board's {board_words} words"
    times = sorted(found_at)
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    if len(times) >= HOLD_FAST_WORDS and statistics.median(gaps) < HOLD_FAST_GAP_S:
        return f"found {len(times)} words {statistics.median(gaps):.2f} s apart (the median)"
    return ""


class DailyError(ValueError):
    """A daily game or day that cannot be played; the message says why."""


def daily_game(slug: str) -> DailyGame:
    """Return the daily game by its slug, or raise DailyError."""
    game = DAILY_GAMES.get(slug)
    if game is None:
        raise DailyError(UNKNOWN_GAME)
    return game


def utc_day(now: datetime) -> date:
    """Return the UTC day a moment falls on (days turn at midnight UTC for everyone)."""
    return now.astimezone(UTC).date()


def daily_day(text: str, *, now: datetime) -> date:
    """Return the day a page names (YYYY-MM-DD), if its board is out; else raise DailyError."""
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise DailyError(NOT_A_DATE) from None
    if day < DAILY_EPOCH:
        raise DailyError(BEFORE_EPOCH)
    if day > utc_day(now):
        raise DailyError(FUTURE_DAY)
    return day


def daily_seed(game: DailyGame, day: date, secret: str) -> int:
    """Return the seed of a day's board: a keyed hash of the game and the date, so every
    worker derives the same board and nobody without the secret can work it out early."""
    return secret_seed(f"daily:{game.slug}:{day.isoformat()}", secret)


def streaks(days: Iterable[date], *, today: date) -> tuple[int, int]:
    """Return (current, best) runs of consecutive days played. The current run ends today,
    or yesterday while today's board is still to play; a missed day breaks it."""
    played = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in played:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(days=1)
    return (run if alive else 0), best


def length_counts(words: Sequence[str], min_length: int) -> dict[int, int]:
    """Return how many words of each length were found (the last length: that many and
    more), from the game's minimum up to SHARE_LENGTHS_CAP."""
    counts = dict.fromkeys(range(min_length, SHARE_LENGTHS_CAP + 1), 0)
    for word in words:
        counts[max(min_length, min(len(word), SHARE_LENGTHS_CAP))] += 1
    return counts


def share_text(
    *, game: DailyGame, day: date, score: int, words: Sequence[str], below: int, players: int,
    ranked: bool,
) -> str:  # fmt: skip
    """Return what a player shares after an attempt: the game and its number, the score, how
    many words, the percentile, and a grid of word lengths found. Never a word itself."""
    lines = [f"Boggle Online · {game.name} #{game.number(day)}"]
    plural = "" if len(words) == 1 else "s"
    lines.append(f"{score} point{'' if score == 1 else 's'} · {len(words)} word{plural}")
    if ranked and players <= 1:  # nobody to be better than yet
        lines.append("First to play this board")
    elif ranked:
        lines.append(
            f"Better than {percentile_of(below=below, players=players)}% of {players:,} "
            f"player{'' if players == 1 else 's'}"
        )
    else:
        lines.append("Played after the day (unranked)")
    for length, count in length_counts(words, game.settings.min_length).items():
        label = f"{length}+" if length == SHARE_LENGTHS_CAP else f"{length} "
        squares = "■" * min(count, SHARE_SQUARES_MAX) or "·"
        more = "+" if count > SHARE_SQUARES_MAX else ""
        lines.append(f"{label} {squares}{more} {count}")
    return "\n".join(lines)


def daily_summary(game: DailyGame, day: date) -> dict[str, Any]:
    """Return how a page names a day's game."""
    return {"slug": game.slug, "name": game.name, "number": game.number(day), "day": day}
