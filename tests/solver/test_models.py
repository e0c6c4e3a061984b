"""A dice set is valid only when its dice fill its board with equal dice, or it has weights."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from solver.models import DiceSet


def dice_set(**fields: Any) -> DiceSet:
    values: dict[str, Any] = {"name": "Test", "slug": "test", "rows": 2, "cols": 2}
    values.update(fields)
    return DiceSet(**values)


def errors_of(candidate: DiceSet) -> str:
    with pytest.raises(ValidationError) as error:
        candidate.clean()
    return " ".join(error.value.messages)


def test_dice_that_fill_the_board_are_valid() -> None:
    dice_set(dice=[["A", "B"], ["QU", ""], ["IN", "TH"], ["E", "E"]]).clean()


def test_the_number_of_dice_must_match_the_board() -> None:
    message = errors_of(dice_set(dice=[["A", "B"]] * 3))
    assert message == "3 dice cannot fill a 2×2 board."


def test_every_die_needs_the_same_number_of_faces() -> None:
    message = errors_of(dice_set(dice=[["A", "B"], ["A"], ["A", "B"], ["A", "B"]]))
    assert message == "Every die needs the same number of faces (found [1, 2])."


@pytest.mark.parametrize("face", ["Q", "qu", "A1", "_", 7, "ABCDEFGH"])
def test_faces_must_be_in_engine_form(face: object) -> None:
    message = errors_of(dice_set(dice=[["A", face]] + [["A", "B"]] * 3))
    assert message.startswith("die 1:")


def test_dice_or_frequencies_but_not_both_nor_neither() -> None:
    assert "not both" in errors_of(dice_set())
    both = dice_set(dice=[["A"]] * 4, letter_frequencies={"A": 1})
    assert "not both" in errors_of(both)


def test_a_frequency_table_needs_positive_weights_for_letters() -> None:
    dice_set(letter_frequencies={"A": 2, "QU": 0.5}).clean()
    assert "positive number" in errors_of(dice_set(letter_frequencies={"A": 0}))
    assert "positive number" in errors_of(dice_set(letter_frequencies={"A": True}))
    assert "positive number" in errors_of(dice_set(letter_frequencies={"": 1}))
    assert "not a face" in errors_of(dice_set(letter_frequencies={"q": 1}))


def test_a_board_needs_a_row_and_a_column() -> None:
    assert "at least one row" in errors_of(dice_set(rows=0, dice=[["A"]]))
