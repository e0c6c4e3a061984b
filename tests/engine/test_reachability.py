"""Words no board can hold: the rule checked against every board tiny dice sets can roll."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.engine.board import Board
from solver.engine.dice import DICE_SETS, DiceSet
from solver.engine.reachability import DiceFit, longest_path, unreachable_words
from solver.engine.rules import Adjacency, Rules
from solver.engine.search import Solver
from tests.engine.conftest import trie_of

# Qu, a two-letter face, blanks and a letter on one die only: every kind of face.
TINY_2X2 = DiceSet(
    "t4", "tiny 2×2", 2, 2, (("A", "QU", ""), ("A", "T", "E"), ("E", "IN", "T"), ("QU", "S", ""))
)
TINY_2X3 = DiceSet(
    "t6",
    "tiny 2×3",
    2,
    3,
    (("A", "T"), ("A", "QU"), ("T", ""), ("E", "IN"), ("E", "A"), ("QU", "S")),
)


def every_roll(dice: DiceSet) -> set[Board]:
    """Return every board the dice can roll: each order of the dice, each face of each."""
    boards = set()
    for order in itertools.permutations(dice.dice):
        for faces in itertools.product(*order):
            boards.add(Board(dice.rows, dice.cols, faces))
    return boards


def random_words(dice: DiceSet, count: int, seed: int) -> list[str]:
    """Return strings made of the dice's faces (and Z, and a bare Q's neighbours)."""
    rng = random.Random(seed)
    pieces = sorted({f for die in dice.dice for f in die if f} | {"Z", "N", "I", "U"})
    return sorted(
        {"".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(count)}
    )


@pytest.mark.parametrize("adjacency", ["king", "rook"])
@pytest.mark.parametrize("dice", [TINY_2X2, TINY_2X3], ids=["2x2", "2x3"])
def test_agrees_with_every_board_the_dice_can_roll(dice: DiceSet, adjacency: Adjacency) -> None:
    words = random_words(dice, 3000, seed=len(dice.dice))
    trie = trie_of(*words)
    solver = Solver(trie, Rules(min_length=1, adjacency=adjacency))
    on_some_board: set[str] = set()
    for board in every_roll(dice):
        on_some_board.update(solver.solve(board).words)
    expected = sorted(set(trie) - on_some_board)
    found = unreachable_words(trie, dice, adjacency)
    assert found.words == tuple(expected)
    assert found.checked == len(trie)
    assert 0 < found.count < len(trie)  # both answers were exercised


def test_a_word_is_split_into_the_faces_the_dice_show() -> None:
    fit = DiceFit(TINY_2X3)
    assert fit.faces_of("QUINT") == ("QU", "IN", "T")
    assert fit.faces_of("QUAQUAQU") is None  # three Qu faces, two dice show Qu
    assert fit.faces_of("QUAQU") == ("QU", "A", "QU")
    assert fit.faces_of("QI") is None


def test_reasons_say_what_is_missing() -> None:
    fit = DiceFit(DICE_SETS["new16"])
    assert fit.why_not("ABBA") == "needs 2 dice showing B, the set has 1"
    assert fit.why_not("QAT") == "letter 1 (Q) needs a face the dice lack: they show Qu"
    assert fit.why_not("QUIT") == ""
    assert fit.why_not("AEIOUAEIOUAEIOUAEIOU") == (
        "needs 20 dice in a path, the longest path has 16 cells"
    )
    assert fit.why_not("JAB") == (
        "needs 2 dice showing J or B (J ×1, B ×1), only 1 die of the set shows any of them"
    )


def test_longest_path_covers_every_cell_of_a_grid() -> None:
    for rows, cols in [(1, 1), (1, 5), (2, 3), (4, 4), (5, 5), (6, 6)]:
        assert longest_path(rows, cols, "king") == rows * cols
        assert longest_path(rows, cols, "rook") == rows * cols


def test_new16_counts_words_of_a_known_list() -> None:
    # B, J, Z and X sit on one die each; the set has sixteen dice.
    found = unreachable_words(
        ["ABB", "JAB", "JAZZ", "TEST", "QUIT", "QAT", "SEVENTEENLETTERSX"], DICE_SETS["new16"]
    )
    assert found.words == ("ABB", "JAB", "JAZZ", "QAT", "SEVENTEENLETTERSX")
    assert found.count == 5 and found.checked == 7
