"""Computer players: which words a bot finds, and when, decided up front from a seed.

A plan depends only on the round's words, the bot's level and a seed, so every worker
process computes the same plan and a bot's words can be submitted by whichever process gets
there first (a word's client id makes a second submission a harmless retry).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.engine.commonness import commonness as commonness  # the bots' and the results' figure

UNTIMED_PACE = 180.0  # seconds a bot paces itself over when the round has no clock
READING_TIME = (2.0, 5.0)  # seconds before a first word: a person looks at the board first


@dataclass(frozen=True)
class Level:
    """How a computer player of one level plays."""

    name: str
    label: str
    min_zipf: float  # how common a word must be (wordfreq's Zipf scale, 0–8)
    max_letters: int  # longest word it finds
    gap: tuple[float, float]  # seconds between two words, drawn uniformly
    share: float  # at most this share of the words it could find


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", "Easy", 4.0, 5, (7.0, 13.0), 1.0),
        Level("medium", "Medium", 3.0, 99, (3.0, 6.0), 1.0),
        Level("hard", "Hard", 1.0, 99, (1.0, 2.5), 0.8),
        Level("humbling", "Humbling", 0.0, 999, (0.4, 0.8), 1.0),
    )
}
Plan = list[tuple[float, str]]  # (seconds after the round starts, word)


def bot_plan(
    *,
    words: Sequence[str],
    level: str,
    seed: str,
    duration: float | None,
    known: Callable[[str], bool] = lambda word: True,
) -> Plan:
    """Return when a bot of this level finds which of the board's words."""
    spec = LEVELS[level]
    rng = random.Random(seed)
    pace = duration or UNTIMED_PACE
    eligible = [
        w
        for w in words
        if known(w) and len(w) <= spec.max_letters and commonness(w) >= spec.min_zipf
    ]
    # People find common words first; noise keeps two bots of a level from agreeing.
    eligible.sort(key=lambda w: commonness(w) + rng.uniform(-1.0, 1.0), reverse=True)
    eligible = eligible[: round(len(eligible) * spec.share)]
    gap_low, gap_high = spec.gap
    if level == "humbling" and eligible:  # every word, squeezed into the round if need be
        fits = 0.9 * pace / len(eligible)
        gap_low, gap_high = min(gap_low, fits * 0.7), min(gap_high, fits * 1.3)
    plan: Plan = []
    at = rng.uniform(*READING_TIME)
    for word in eligible:
        if at >= pace - 0.5:
            break
        plan.append((round(at, 3), word))
        at += rng.uniform(gap_low, gap_high)
    return plan
