"""A board's standing: quantiles of random boards, percentiles and bands."""

from __future__ import annotations

import random

import pytest

from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.standing import (
    BANDS,
    NO_MAXIMUM,
    STEPS,
    BandError,
    Standing,
    quantiles,
    standing_compute,
)
from solver.engine.trie import Trie
from tests.engine.conftest import trie_of

NEW16 = DICE_SETS["new16"]
FACES = sorted({f for die in NEW16.dice for f in die})


def linear_standing() -> Standing:
    """A standing whose score at step k is k (and words k // 2): easy to reason about."""
    return Standing(STEPS + 1, 0, tuple(range(STEPS + 1)), tuple(k // 2 for k in range(STEPS + 1)))


@pytest.fixture(scope="module")
def new16_standing(yawl: Trie) -> Standing:
    return standing_compute(yawl, Rules(), 4, 4, FACES, NEW16.roll, samples=2000, seed=5)


def test_percentiles_read_the_quantiles() -> None:
    standing = linear_standing()
    assert standing.score_percentile(0) == 0.0
    assert standing.score_percentile(500) == 50.0
    assert standing.score_percentile(STEPS) == 100.0
    assert standing.score_percentile(-3) == 0.0
    assert standing.score_percentile(STEPS + 50) == 100.0
    assert standing.words_percentile(250) == pytest.approx(50.0, abs=0.1)  # ties: the middle
    assert standing.score_at(25) == 250 and standing.words_at(25) == 125


def test_percentile_interpolates_between_quantiles() -> None:
    values = tuple(10 * (k // 10) for k in range(STEPS + 1))  # runs of ten equal values
    standing = Standing(1, 0, values, values)
    assert standing.score_percentile(0) == pytest.approx(0.45)  # middle of steps 0-9
    assert 0.45 < standing.score_percentile(5) < standing.score_percentile(10)


def test_percentile_never_falls_as_the_score_rises(new16_standing: Standing) -> None:
    scores = range(0, new16_standing.score_at(100) + 20)
    percentiles = [new16_standing.score_percentile(s) for s in scores]
    assert percentiles == sorted(percentiles)
    assert percentiles[0] < 1 and percentiles[-1] == 100.0
    words = [new16_standing.words_percentile(w) for w in range(0, 600)]
    assert words == sorted(words)


def test_computed_standing_matches_the_boards_it_sampled(yawl: Trie) -> None:
    standing = standing_compute(yawl, Rules(), 4, 4, FACES, NEW16.roll, samples=300, seed=9)
    rng = random.Random(9)
    solver = Solver(yawl)
    solutions = [solver.solve(NEW16.roll(rng)) for _ in range(300)]
    assert standing.score_quantiles == quantiles([s.score for s in solutions])
    assert standing.word_quantiles == quantiles([len(s) for s in solutions])
    assert standing.score_at(0) == min(s.score for s in solutions)
    assert standing.score_at(100) == max(s.score for s in solutions)
    assert (standing.samples, standing.seed) == (300, 9)


def test_same_seed_same_standing(yawl: Trie) -> None:
    one = standing_compute(yawl, Rules(), 4, 4, FACES, NEW16.roll, samples=200, seed=3)
    two = standing_compute(yawl, Rules(), 4, 4, FACES, NEW16.roll, samples=200, seed=3)
    assert one == two


def test_new16_yawl_standing_is_sensible(new16_standing: Standing) -> None:
    # A typical new16 board holds about a hundred words and 150 points with YAWL.
    assert 100 <= new16_standing.words_at(50) <= 140
    assert 130 <= new16_standing.score_at(50) <= 190
    assert new16_standing.score_at(5) < new16_standing.score_at(95)


def test_bands_are_percentile_ranges_of_points(new16_standing: Standing) -> None:
    for name, (low, high) in BANDS.items():
        lowest, highest = new16_standing.band_range(name)
        assert lowest <= highest
        assert lowest == (0 if low == 0 else new16_standing.score_at(low))
        assert highest == (NO_MAXIMUM if high == 100 else new16_standing.score_at(high))
    assert new16_standing.band_range("gentle")[1] < new16_standing.band_range("monster")[0]


def test_an_unknown_band_is_refused() -> None:
    with pytest.raises(BandError, match="unknown band 'easy': choose one of gentle, standard"):
        linear_standing().band_range("easy")


def test_quantiles_must_be_complete_and_ordered() -> None:
    with pytest.raises(ValueError, match="non-decreasing"):
        Standing(1, 0, (1, 2), tuple(range(STEPS + 1)))
    with pytest.raises(ValueError, match="non-decreasing"):
        Standing(1, 0, tuple(range(STEPS, -1, -1)), tuple(range(STEPS + 1)))
    with pytest.raises(ValueError, match="at least 2 boards"):
        standing_compute(trie_of("CAT"), Rules(), 4, 4, FACES, NEW16.roll, samples=1, seed=0)
