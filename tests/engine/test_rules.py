"""Rule variants: adjacency, minimum length, scoring, blanks, multi-letter faces, odd sizes."""

from __future__ import annotations

import random

import pytest

from solver.engine.board import Board
from solver.engine.dice import random_letter_board
from solver.engine.rules import Rules, points_for_length
from solver.engine.search import Solver
from solver.engine.trie import Trie
from tests.engine.conftest import trie_of


def both(trie: Trie, board: Board, rules: Rules) -> list[str]:
    """Solve with kernel and reference, check they agree, return the words."""
    kernel = Solver(trie, rules).solve(board)
    reference = Solver(trie, rules, use_kernel=False).solve(board)
    assert kernel.ids == reference.ids and kernel.score == reference.score
    return kernel.words


@pytest.mark.parametrize(
    ("letters", "classic", "linear"),
    [(3, 1, 0), (4, 1, 1), (5, 2, 2), (6, 3, 3), (7, 5, 4), (8, 11, 5), (15, 11, 12)],
)
def test_scoring_tables(letters: int, classic: int, linear: int) -> None:
    assert points_for_length(letters, "classic") == classic
    assert points_for_length(letters, "linear") == linear


def test_qu_counts_two_letters_for_length_and_score() -> None:
    # QUEUE: four dice, five letters.
    words = both(trie_of("QUEUE", "QUE"), Board.from_rows("QuEUX/XXXE"), Rules(min_length=5))
    assert words == ["QUEUE"]
    assert Rules().score("QUEUE") == 2


def test_a_word_with_q_and_no_u_is_never_formed_on_a_qu_board() -> None:
    trie = trie_of("QAT", "QUAT")
    assert both(trie, Board.from_rows("QA/XT"), Rules()) == ["QUAT"]


def test_diagonal_words_need_king_adjacency() -> None:
    trie = trie_of("NEHT", "NET", "THEN")
    board = Board.from_rows("NXXX/XEXX/XXHX/XXXT")
    assert both(trie, board, Rules(adjacency="king")) == ["NEHT", "THEN"]
    assert both(trie, board, Rules(adjacency="rook")) == []


def test_rook_adjacency_allows_straight_moves() -> None:
    trie = trie_of("CAT", "CAB", "TAB")
    board = Board.from_rows("CA/BT")  # C-A right, A-T down, C-B down, B-A diagonal
    assert both(trie, board, Rules(adjacency="rook")) == ["CAT"]
    assert both(trie, board, Rules(adjacency="king")) == ["CAB", "CAT", "TAB"]


def test_minimum_length_and_linear_scoring() -> None:
    trie = trie_of("CAT", "CATS", "SCAT")
    board = Board.from_rows("CA/ST")
    assert both(trie, board, Rules(min_length=4)) == ["CATS", "SCAT"]
    solution = Solver(trie, Rules(min_length=4, scoring="linear")).solve(board)
    assert solution.score == 2


def test_blank_faces_are_never_used() -> None:
    trie = trie_of("CAT", "CAB")
    assert both(trie, Board.from_rows("C_/AT"), Rules()) == ["CAT"]
    assert both(trie, Board.from_rows("__/__"), Rules()) == []


def test_multi_letter_faces_are_one_die() -> None:
    trie = trie_of("THIN", "THINE", "INTO", "HINT")
    board = Board.from_rows("[Th][In]/EO")
    assert both(trie, board, Rules(min_length=3)) == ["THIN", "THINE"]
    assert Solver(trie).solve(board).path("THINE") == (0, 1, 2)


@pytest.mark.parametrize(
    "corner", ["QuXXX/XXXX/XXXX/XXXE", "XXXQu/XXXX/XXXX/EXXX", "XXXX/XXXX/XXXX/XXXQu"]
)
def test_qu_in_corners(corner: str) -> None:
    trie = trie_of("QUEX", "QUXX")
    words = both(trie, Board.from_rows(corner), Rules())
    assert words == ["QUXX"]


def test_one_by_one_board() -> None:
    assert both(trie_of("A", "QU"), Board.from_rows("A"), Rules(min_length=1)) == ["A"]
    assert both(trie_of("A", "QU"), Board.from_rows("Q"), Rules(min_length=1)) == ["QU"]
    assert both(trie_of("A"), Board.from_rows("A"), Rules()) == []


def test_one_row_and_one_column_boards(yawl: Trie) -> None:
    row = Board.from_rows("ANTIDISESTABLISHMENTARIANISMS")
    column = Board.from_rows("/".join("ANTIDISESTABLISHMENTARIANISMS"))
    assert (row.rows, row.cols, column.rows, column.cols) == (1, 29, 29, 1)
    assert both(yawl, row, Rules()) == both(yawl, column, Rules())
    assert "ANTIDISESTABLISHMENTARIANISMS" in both(yawl, row, Rules())


def test_ten_by_ten_boards_agree(yawl: Trie) -> None:
    rng = random.Random(10)
    for _ in range(5):
        board = random_letter_board(10, 10, rng)
        assert len(both(yawl, board, Rules())) > 50


def test_letters_outside_the_alphabet_make_dead_cells() -> None:
    trie = trie_of("CAT")
    assert both(trie, Board.from_rows("CÉ/AT"), Rules()) == ["CAT"]


def test_accented_alphabet_works() -> None:
    trie = trie_of("ÉTÉ", "ÇA", "ÇAVA")
    assert both(trie, Board.from_rows("ÉT/XÉ"), Rules()) == ["ÉTÉ"]
    assert both(trie, Board.from_rows("ÇA/AV"), Rules(min_length=2)) == ["ÇA", "ÇAVA"]


def test_rules_reject_nonsense() -> None:
    with pytest.raises(ValueError, match="minimum"):
        Rules(min_length=0)
    with pytest.raises(ValueError, match="adjacency"):
        Rules(adjacency="queen")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scoring"):
        Rules(scoring="double")  # type: ignore[arg-type]
