"""The compiled kernel and the pure-Python reference find exactly the same words."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine.board import Board
from solver.engine.dice import DICE_SETS, random_letter_board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie

BOARDS_PER_DICE_SET = 1000


@pytest.mark.slow
@pytest.mark.parametrize("dice", sorted(DICE_SETS))
def test_agree_on_a_thousand_random_boards_of_each_dice_set(dice: str, yawl: Trie) -> None:
    dice_set = DICE_SETS[dice]
    rules = Rules(min_length=dice_set.min_length)
    kernel, reference = Solver(yawl, rules), Solver(yawl, rules, use_kernel=False)
    rng = random.Random(f"agree-{dice}")
    for _ in range(BOARDS_PER_DICE_SET):
        board = dice_set.roll(rng)
        k, r = kernel.solve(board), reference.solve(board)
        assert (k.ids, k.score) == (r.ids, r.score), board.share_code()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(1, 10),
    cols=st.integers(1, 10),
    adjacency=st.sampled_from(["king", "rook"]),
    min_length=st.integers(1, 6),
    scoring=st.sampled_from(["classic", "linear"]),
)
def test_agree_on_random_boards_and_rules(
    yawl: Trie, seed: int, rows: int, cols: int, adjacency: str, min_length: int, scoring: str
) -> None:
    rules = Rules(min_length=min_length, adjacency=adjacency, scoring=scoring)  # type: ignore[arg-type]
    board = random_letter_board(rows, cols, random.Random(seed))
    k = Solver(yawl, rules).solve(board)
    r = Solver(yawl, rules, use_kernel=False).solve(board)
    assert (k.ids, k.score) == (r.ids, r.score)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_agree_on_random_ten_by_ten_boards(yawl: Trie, seed: int) -> None:
    board = random_letter_board(10, 10, random.Random(seed))
    k = Solver(yawl).solve(board)
    assert k.ids == Solver(yawl, use_kernel=False).solve(board).ids


FACES = st.sampled_from(
    ["A", "E", "I", "O", "S", "T", "R", "N", "QU", "IN", "TH", "ER", "HE", "AN", ""]
)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), data=st.data())
def test_agree_with_multi_letter_and_blank_faces(
    yawl: Trie, rows: int, cols: int, data: st.DataObject
) -> None:
    board = Board(
        rows, cols, tuple(data.draw(st.lists(FACES, min_size=rows * cols, max_size=rows * cols)))
    )
    rules = Rules(min_length=4)
    assert (
        Solver(yawl, rules).solve(board).ids
        == Solver(yawl, rules, use_kernel=False).solve(board).ids
    )
