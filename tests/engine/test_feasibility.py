"""Feasibility: a board can be rolled exactly when cells and dice match, checked by brute force."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from solver.engine.board import Board
from solver.engine.dice import DICE_SETS, DiceSet
from solver.engine.feasibility import feasibility, maximum_matching

NEW16 = DICE_SETS["new16"]
# Small sets with the awkward faces: Qu, a two-letter face, a blank, repeated letters.
TINY_2X2 = DiceSet(
    "t4", "tiny 2×2", 2, 2, (("A", "QU", ""), ("A", "B", "E"), ("E", "IN", "B"), ("QU", "S", ""))
)
TINY_2X3 = DiceSet(
    "t6",
    "tiny 2×3",
    2,
    3,
    (("A", "B"), ("A", "QU"), ("B", ""), ("E", "IN"), ("E", "A"), ("QU", "S")),
)


def rollable_by_brute_force(board: Board, dice: DiceSet) -> bool:
    """Return whether some order of the dice shows the board (trying every permutation)."""
    return any(
        all(face in dice.dice[d] for face, d in zip(board.faces, order, strict=True))
        for order in itertools.permutations(range(len(dice.dice)))
    )


def every_board(dice: DiceSet, faces: list[str]) -> list[Board]:
    """Return a board for every multiset of faces (feasibility ignores where faces are),
    each with its faces shuffled by a fixed seed so cells and dice are not in step."""
    rng = random.Random(7)
    boards = []
    for combo in itertools.combinations_with_replacement(faces, dice.rows * dice.cols):
        cells = list(combo)
        rng.shuffle(cells)
        boards.append(Board(dice.rows, dice.cols, tuple(cells)))
    return boards


def reason_counts(reason: str) -> tuple[int, int]:
    """Return the cells a reason says need dice, and the dice it says can serve them."""
    match = re.fullmatch(
        r"needs (\d+) dic?e showing .+?, (?:the set has (\d+)|only (\d+) dic?e of .*|no die.*)",
        reason,
    )
    assert match, reason
    return int(match[1]), int(match[2] or match[3] or 0)


def assert_assignment_rolls(board: Board, dice: DiceSet) -> None:
    answer = feasibility(board, dice)
    assert answer.ok and answer.reason == ""
    assert sorted(p.die for p in answer.assignment) == list(range(len(dice.dice)))
    assert sorted(p.cell for p in answer.assignment) == list(range(board.size))
    for p in answer.assignment:
        assert p.face == board.faces[p.cell] and p.face in dice.dice[p.die]


@pytest.mark.parametrize("dice", [TINY_2X2, TINY_2X3], ids=["2x2", "2x3"])
def test_agrees_with_brute_force_on_every_board(dice: DiceSet) -> None:
    faces = sorted({f for die in dice.dice for f in die} | {"Z"})
    boards = every_board(dice, faces)
    rollable = 0
    for board in boards:
        expected = rollable_by_brute_force(board, dice)
        answer = feasibility(board, dice)
        assert answer.ok == expected, board.to_rows()
        if expected:
            rollable += 1
            assert_assignment_rolls(board, dice)
        else:
            assert not answer.assignment
            needed, available = reason_counts(answer.reason)
            assert needed > available  # a Hall violator: more cells than dice for them
    assert 0 < rollable < len(boards)  # both answers were exercised


def test_every_rolled_board_is_feasible_with_an_assignment() -> None:
    rng = random.Random(12)
    for dice in DICE_SETS.values():
        for _ in range(50):
            assert_assignment_rolls(dice.roll(rng), dice)


def test_known_optimum_board_can_be_rolled_from_new16() -> None:
    assert_assignment_rolls(Board.from_rows("PERS/LATG/SINE/TERS"), NEW16)


def test_reason_names_one_face_with_too_few_dice() -> None:
    # new16 has a single Z die and a single B die.
    answer = feasibility(Board.from_rows("ZZAE/TSRN/LOIE/DTAS"), NEW16)
    assert answer.reason == "needs 2 dice showing Z, the set has 1"


def test_reason_names_a_face_no_die_has() -> None:
    answer = feasibility(Board(4, 4, ("IN",) + ("E",) * 15), NEW16)
    assert answer.reason == "needs 1 die showing In, no die of the set has it"


def test_reason_names_faces_that_share_too_few_dice() -> None:
    # B and J are both only on ABBJOO: each alone is fine, together they need two dice.
    answer = feasibility(Board.from_rows("BJAE/TSRN/LOIE/DTAS"), NEW16)
    assert answer.reason == (
        "needs 2 dice showing B or J (B ×1, J ×1), only 1 die of the set shows any of them"
    )


def test_reason_for_qu_and_blank_faces() -> None:
    # Only dice 1 and 4 of TINY_2X2 show Qu, and only they show a blank.
    assert feasibility(Board.from_rows("QQ/Q_"), TINY_2X2).reason == (
        "needs 3 dice showing Qu, the set has 2"
    )
    assert feasibility(Board.from_rows("QQ/__"), TINY_2X2).reason == (
        "needs 4 dice showing Qu or a blank (Qu ×2, a blank ×2), "
        "only 2 dice of the set show any of them"
    )
    assert_assignment_rolls(Board.from_rows("Q[In]/_A"), TINY_2X2)


def test_reason_for_a_board_of_another_size() -> None:
    answer = feasibility(Board.from_rows("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE"), NEW16)
    assert not answer.ok and answer.reason == "the board is 5×5, the dice set rolls 4×4"


def test_maximum_matching_finds_an_augmenting_path() -> None:
    # Greedy would give vertex 0 right 0 and strand vertex 1; the matching moves it.
    assert maximum_matching([[0, 1], [0]], 2) == [1, 0]
    assert maximum_matching([[0], [0]], 2) in ([0, None], [None, 0])
