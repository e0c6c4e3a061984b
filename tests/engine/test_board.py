"""Boards: the file format, the rows form, share codes, printing and bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.engine.board import Board, BoardError, neighbour_table
from solver.engine.dice import DICE_SETS, random_letter_board
from tests.engine.conftest import board_file


def test_file_format_reads_q_and_qu_as_the_qu_face() -> None:
    board = board_file("board-q.txt")
    assert (board.rows, board.cols) == (4, 4)
    assert board.face(2, 1) == "QU"
    assert Board.from_text("1 2\nQ Qu\n").faces == ("QU", "QU")


def test_file_format_reads_multi_letter_and_blank_faces() -> None:
    board = Board.from_text("2 2\nIn Th\n_ a\n")
    assert board.faces == ("IN", "TH", "", "A")


def test_rows_form_and_its_spellings() -> None:
    assert Board.from_rows("ATEE/APYO/TINU/EDSE") == board_file("board4x4.txt")
    assert Board.from_rows("atee apyo tinu edse") == board_file("board4x4.txt")


def test_rows_form_splits_capital_and_small_letters_into_one_face() -> None:
    assert Board.from_rows("QuIn/ThEr").faces == ("QU", "IN", "TH", "ER")
    assert Board.from_rows("[Qu][In]/_A").faces == ("QU", "IN", "", "A")


def test_parse_picks_the_form() -> None:
    assert Board.parse("2 2\nA B\nC D") == Board.parse("AB/CD") == Board.parse("2x2-ABCD")


def test_printing_is_the_file_format_and_reads_back() -> None:
    board = Board.from_rows("Qu[In]/_A")
    assert board.to_text() == "2 2\nQu In\n_  A\n"
    assert Board.from_text(board.to_text()) == board
    assert Board.from_rows(board.to_rows()) == board
    assert str(board) == board.to_text()


def test_share_codes_round_trip_every_dice_set() -> None:
    rng = random.Random(3)
    for dice in DICE_SETS.values():
        for _ in range(50):
            board = dice.roll(rng)
            assert Board.from_share_code(board.share_code()) == board


FACES = st.one_of(
    st.sampled_from(["A", "Z", "QU", "IN", "TH", "ER", "HE", "AN", "", "É", "SS"]),
    st.text(alphabet="ABCÉÖ", min_size=2, max_size=4),
)


@given(rows=st.integers(1, 6), cols=st.integers(1, 6), data=st.data())
def test_share_codes_round_trip_any_board(rows: int, cols: int, data: st.DataObject) -> None:
    faces = tuple(data.draw(st.lists(FACES, min_size=rows * cols, max_size=rows * cols)))
    board = Board(rows, cols, faces)
    assert Board.from_share_code(board.share_code()) == board
    assert Board.from_rows(board.to_rows()) == board


def test_share_code_is_compact() -> None:
    assert board_file("board4x4.txt").share_code() == "4x4-ATEEAPYOTINUEDSE"


def test_grid_and_neighbours() -> None:
    board = Board.from_grid([["A", "B"], ["C", "Q"]])
    assert board.grid() == [["A", "B"], ["C", "QU"]]
    assert neighbour_table(2, 2, "king")[0] == (1, 2, 3)
    assert neighbour_table(2, 2, "rook")[0] == (1, 2)
    assert neighbour_table(3, 3, "king")[4] == (0, 1, 2, 3, 5, 6, 7, 8)


def test_random_letter_boards_are_reproducible() -> None:
    a = random_letter_board(7, 3, random.Random(5))
    b = random_letter_board(7, 3, random.Random(5))
    assert a == b and (a.rows, a.cols) == (7, 3)
    assert all(face.isalpha() for face in a.faces)


def test_random_letter_boards_do_not_depend_on_the_tables_key_order() -> None:
    table = {"E": 12.0, "T": 9.0, "A": 8.0, "Q": 0.5, "Z": 0.1}
    backwards = dict(reversed(table.items()))  # as jsonb may hand the same table back
    assert list(backwards) != list(table)
    for seed in range(20):
        drawn = random_letter_board(5, 5, random.Random(seed), table)
        assert drawn == random_letter_board(5, 5, random.Random(seed), backwards)


def test_rolling_dice_uses_each_die_once() -> None:
    dice = DICE_SETS["new16"]
    board = dice.roll(random.Random(9))

    def assign(faces: tuple[str, ...], free: frozenset[int]) -> bool:
        """Whether each face can be given its own die that shows it."""
        return not faces or any(
            faces[0] in dice.dice[d] and assign(faces[1:], free - {d}) for d in free
        )

    assert assign(board.faces, frozenset(range(len(dice.dice))))
    assert dice.roll(random.Random(9)) == board


def test_super_big_boggle_has_multi_letter_and_blank_faces() -> None:
    faces = {face for die in DICE_SETS["superbig36"].dice for face in die}
    assert {"QU", "IN", "TH", "ER", "HE", "AN", ""} <= faces
    assert DICE_SETS["superbig36"].min_length == 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "row and column counts"),
        ("4", "row and column counts"),
        ("-1 4\nA", "must be at least 1"),
        ("0 4", "must be at least 1"),
        ("x 4\nA", "not a whole number"),
        ("2 2\nA B C", "needs 4 faces, found 3"),
        ("2 2\nA B C D E", "needs 4 faces, found 5"),
        ("2 2\nA B\nC 1", ":3: unknown face '1'"),
        ("1 1\nABCDEFGHI", "longer than"),
    ],
)
def test_bad_board_files_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(BoardError, match=message) as info:
        Board.from_text(text, "b.txt")
    assert str(info.value).startswith("b.txt")


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("ABC/AB", "row 2 has 2 faces"),
        ("AB/C#", "unknown face '#'"),
        ("[In/AB", "never closed"),
        ("", "empty"),
    ],
)
def test_bad_rows_say_what(rows: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board.from_rows(rows)


def test_bad_share_codes() -> None:
    with pytest.raises(BoardError, match="needs 4 faces"):
        Board.from_share_code("2x2-ABC")
    with pytest.raises(BoardError, match="not a board code"):
        Board.from_share_code("hello")
