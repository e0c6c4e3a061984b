"""A board's standing: where its score and word count fall among random boards of its kind.

The distribution is sampled once (``standing_compute``: seeded boards, rolled from a dice
set or drawn by letter frequency, each scored) and kept as quantiles, one per tenth of a
percentile. Difficulty bands are percentile ranges of total points, so one definition
serves every dice set, size and dictionary.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from solver.engine.batch import FIELDS, BatchScorer
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie

STEPS = 1000  # quantiles per distribution, minus one: one every 0.1 percentile
NO_MAXIMUM = 2**31 - 1  # the upper score of a band that ends at the 100th percentile
BATCH = 500  # boards per call to the batch scorer

# Named bands as percentile ranges of total points (inclusive). They overlap on purpose:
# a board at the 30th percentile is both gentle and standard, so neither band starves.
# gentle: the lower third, few long words; standard: the middle half, what a random roll
# usually gives; rich: the upper quarter below the top; monster: the top 5 %.
BANDS: Mapping[str, tuple[float, float]] = {
    "gentle": (0.0, 35.0),
    "standard": (25.0, 75.0),
    "rich": (70.0, 95.0),
    "monster": (95.0, 100.0),
}


class BandError(ValueError):
    """A band or minimum word count that boards of this kind cannot meet; says why."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Scores and word counts of random boards of one kind, as quantiles.

    ``score_quantiles[k]`` is the score at percentile ``100 * k / STEPS`` among ``samples``
    boards drawn with ``seed`` (likewise ``word_quantiles``).
    """

    samples: int
    seed: int
    score_quantiles: tuple[int, ...]
    word_quantiles: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("score_quantiles", "word_quantiles"):
            values = getattr(self, name)
            if len(values) != STEPS + 1 or any(
                a > b for a, b in zip(values, values[1:], strict=False)
            ):
                raise ValueError(f"{name} must be {STEPS + 1} non-decreasing values")

    def score_percentile(self, score: int) -> float:
        """Return the percentile (0–100) of a board's total points among boards of its kind."""
        return _percentile(self.score_quantiles, score)

    def words_percentile(self, words: int) -> float:
        """Return the percentile (0–100) of a board's word count among boards of its kind."""
        return _percentile(self.word_quantiles, words)

    def score_at(self, percentile: float) -> int:
        """Return the score at a percentile (0–100)."""
        return self.score_quantiles[_step(percentile)]

    def words_at(self, percentile: float) -> int:
        """Return the word count at a percentile (0–100)."""
        return self.word_quantiles[_step(percentile)]

    def words_share(self, words: int) -> float:
        """Return the share of boards (0–1) with at least this many words, rounded down to
        what the quantiles resolve (1 / STEPS): 0 when fewer than that have so many."""
        return (STEPS - bisect.bisect_left(self.word_quantiles, words)) / STEPS

    def words_for_share(self, share: float) -> int | None:
        """Return the most words that at least this share (0–1) of boards reach, as
        ``words_share`` counts them; None when the share is more than 1."""
        last = math.floor(STEPS * (1 - share) + 1e-9)
        return None if last < 0 else self.word_quantiles[min(STEPS, last)]

    def band_range(self, name: str) -> tuple[int, int]:
        """Return the lowest and highest total points (inclusive) of a named band.

        A band from the 0th percentile starts at 0 points; one up to the 100th has no
        upper limit (``NO_MAXIMUM``), so a board beyond every sampled one still belongs.
        """
        if name not in BANDS:
            raise BandError(f"unknown band {name!r}: choose one of {', '.join(BANDS)}")
        low, high = BANDS[name]
        lowest = 0 if low <= 0 else self.score_at(low)
        highest = NO_MAXIMUM if high >= 100 else self.score_at(high)
        return lowest, highest


def _step(percentile: float) -> int:
    return min(STEPS, max(0, round(percentile * STEPS / 100)))


def _percentile(quantiles: Sequence[int], value: int) -> float:
    """Return where value sits among the quantiles, as a percentile: ties take the middle."""
    low = bisect.bisect_left(quantiles, value)
    high = bisect.bisect_right(quantiles, value)
    if low < high:  # some quantiles equal the value: the middle of their run
        position = (low + high - 1) / 2
    elif low == 0:
        return 0.0
    elif low > STEPS:
        return 100.0
    else:  # strictly between two quantiles: interpolate
        below, above = quantiles[low - 1], quantiles[low]
        position = low - 1 + (value - below) / (above - below)
    return round(100 * position / STEPS, 2)


def quantiles(values: Sequence[int]) -> tuple[int, ...]:
    """Return the STEPS + 1 quantiles of values (nearest rank, so each is a sampled value)."""
    ordered = sorted(values)
    last = len(ordered) - 1
    return tuple(ordered[round(k * last / STEPS)] for k in range(STEPS + 1))


def standing_compute(
    trie: Trie,
    rules: Rules,
    rows: int,
    cols: int,
    faces: Sequence[str],
    draw: Callable[[random.Random], Board],
    *,
    samples: int,
    seed: int,
) -> Standing:
    """Return the standing of boards drawn by ``draw`` (a dice roll or a letter draw).

    ``faces`` lists every face a drawn board may show. The boards come from
    ``random.Random(seed)`` and are scored in batches by the batch scorer when it runs in
    the compiled kernel, else one by one; both give the same figures.
    """
    if samples < 2:
        raise ValueError(f"a standing needs at least 2 boards, not {samples}")
    rng = random.Random(seed)
    scorer = BatchScorer(trie, rules, rows, cols, faces)
    scores: list[int] = []
    words: list[int] = []
    if not getattr(scorer, "uses_kernel", False):
        # No compiled batch path: one kernel call per board (or the reference) is quicker
        # than a batch scored board by board.
        solver = Solver(trie, rules)
        for _ in range(samples):
            solution = solver.solve(draw(rng))
            scores.append(solution.score)
            words.append(len(solution))
        return Standing(samples, seed, quantiles(scores), quantiles(words))
    index = {face: i for i, face in enumerate(scorer.faces)}
    while len(scores) < samples:
        count = min(BATCH, samples - len(scores))
        batch = bytes(index[f] for _ in range(count) for f in draw(rng).faces)
        result = scorer.score(batch)
        scores.extend(result[0::FIELDS])
        words.extend(result[1::FIELDS])
    return Standing(samples, seed, quantiles(scores), quantiles(words))
