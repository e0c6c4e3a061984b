"""Every board with a known score gives exactly that score, with both searches."""

from __future__ import annotations

import re

import pytest

from solver.engine.search import KERNEL_AVAILABLE, Solver
from solver.engine.trie import Trie
from tests.engine.conftest import DATA, board_file

POINTS_BOARDS = sorted(p.name for p in (DATA / "boards").glob("board-points*.txt"))


def test_the_compiled_kernel_is_built() -> None:
    assert KERNEL_AVAILABLE, "make install should have built solver/engine/_kernel"


@pytest.mark.parametrize("name", POINTS_BOARDS)
def test_points_board_scores_its_number_with_yawl(name: str, yawl: Trie) -> None:
    expected = int(re.search(r"points(\d+)", name)[1])  # type: ignore[index]
    board = board_file(name)
    assert Solver(yawl).solve(board).score == expected
    assert Solver(yawl, use_kernel=False).solve(board).score == expected


@pytest.mark.parametrize(("name", "score"), [("board4x4.txt", 33), ("board-q.txt", 84)])
def test_algs4_boards_score_as_published(name: str, score: int, algs4: Trie) -> None:
    solution = Solver(algs4).solve(board_file(name))
    assert solution.score == score
    assert len(solution) == 29


def test_qu_board_finds_the_published_qu_words(algs4: Trie) -> None:
    words = Solver(algs4).solve(board_file("board-q.txt")).words
    assert {"EQUATION", "EQUATIONS", "QUERIES", "QUESTION", "QUESTIONS"} <= set(words)


def test_words_come_back_sorted_and_once(yawl_solver: Solver) -> None:
    words = yawl_solver.solve(board_file("board-dodo.txt")).words
    assert words == sorted(set(words))


@pytest.mark.parametrize("name", sorted(p.name for p in (DATA / "boards").glob("*.txt")))
def test_kernel_and_reference_agree_on_every_board_file(name: str, yawl: Trie) -> None:
    board = board_file(name)
    assert Solver(yawl).solve(board).ids == Solver(yawl, use_kernel=False).solve(board).ids
