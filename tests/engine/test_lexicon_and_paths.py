"""Lexicon status (trie against the sorted-array oracle) and finding and checking paths."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import paths
from solver.engine.board import Board
from solver.engine.dice import DICE_SETS
from solver.engine.lexicon import SortedLexicon, Status
from solver.engine.search import Solver
from solver.engine.trie import Trie
from tests.engine.conftest import DATA, board_file, trie_of

ALGS4_WORDS = (DATA / "dictionaries" / "dictionary-algs4.txt").read_text().split()


def test_status_of_words_prefixes_and_others() -> None:
    for lexicon in (
        trie_of("BIG", "BIGGER", "SMALL", "SUN"),
        SortedLexicon(["big", "bigger", "small", "sun"]),
    ):
        assert lexicon.status("big") is Status.WORD
        assert lexicon.status("BIGG") is Status.PREFIX
        assert lexicon.status("sma") is Status.PREFIX
        assert lexicon.status("bigs") is Status.NOT_WORD
        assert lexicon.status("zzz") is Status.NOT_WORD
        assert lexicon.status("é") is Status.NOT_WORD


@settings(max_examples=300)
@given(st.text(alphabet="ABEIOQSTUZ", max_size=8))
def test_trie_status_matches_the_sorted_oracle(algs4: Trie, text: str) -> None:
    oracle = SortedLexicon(ALGS4_WORDS)
    assert algs4.status(text) is oracle.status(text)


def test_every_word_and_every_prefix_of_a_dictionary(algs4: Trie) -> None:
    oracle = SortedLexicon(ALGS4_WORDS)
    for word in ALGS4_WORDS[::7]:
        for end in range(1, len(word) + 1):
            assert algs4.status(word[:end]) is oracle.status(word[:end])
    assert list(algs4) == sorted({w.upper() for w in ALGS4_WORDS})
    assert algs4.word(algs4.id_of("queue")) == "QUEUE"  # type: ignore[arg-type]


def test_find_path_returns_a_valid_path_for_every_word(yawl_solver: Solver) -> None:
    board = board_file("board-points4540.txt")
    solution = yawl_solver.solve(board)
    for word in solution.words:
        path = solution.path(word)
        assert path is not None
        assert paths.path_problem(board, path, word, "king") is None
        assert paths.spell(board, path) == word


def test_find_path_follows_qu_and_refuses_missing_words() -> None:
    board = board_file("board-q.txt")
    path = paths.find_path(board, "question")
    assert path is not None and paths.spell(board, path) == "QUESTION"
    assert paths.find_path(board, "QESTION") is None
    assert paths.find_path(board, "") is None


def test_find_path_honours_rook_adjacency() -> None:
    board = Board.from_rows("NXXX/XEXX/XXHX/XXXT")
    assert paths.find_path(board, "NEHT", "king") == (0, 5, 10, 15)
    assert paths.find_path(board, "NEHT", "rook") is None


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ((0, 1, 2), None),
        ((0, 1, 1), paths.REUSED_CELL),
        ((0, 2, 3), paths.NOT_ADJACENT),
        ((0, 1, 99), paths.OUT_OF_BOUNDS),
        ((0, 1, -1), paths.OUT_OF_BOUNDS),
        ((1, 0, 2), paths.NOT_ADJACENT),
        ((0, 1, 6), paths.WRONG_LETTERS),
        ((), paths.EMPTY_PATH),
    ],
)
def test_path_problems(path: tuple[int, ...], problem: str | None) -> None:
    board = board_file("board4x4.txt")  # ATEE / APYO / TINU / EDSE
    assert paths.path_problem(board, path, "ate", "king") == problem


def test_path_problem_checks_adjacency_under_rook() -> None:
    board = board_file("board4x4.txt")
    assert paths.path_problem(board, (0, 5, 2), "ape", "king") is None
    assert paths.path_problem(board, (0, 5, 2), "ape", "rook") == paths.NOT_ADJACENT


def test_words_on_board_keeps_only_formable_words(yawl_solver: Solver) -> None:
    board = board_file("board4x4.txt")
    assert yawl_solver.words_on_board(board, ["tape", "zebra", "at", "TINY"]) == ["TAPE", "TINY"]


def test_lexicon_first_finds_the_same_words(yawl_solver: Solver) -> None:
    rng = random.Random(4)
    for _ in range(5):
        board = DICE_SETS["new16"].roll(rng)
        assert yawl_solver.solve_lexicon_first(board).ids == yawl_solver.solve(board).ids
