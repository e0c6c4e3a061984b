"""The tests' fixed dice (tests/fixed_dice.py): every roll spells the same words, enough of them."""

from __future__ import annotations

import random

import pytest

from solver.dictionaries import selectors
from solver.dictionaries.shipped import dictionary_words
from solver.engine import Rules, Solver, Trie
from solver.models import DiceSet, Dictionary
from tests.fixed_dice import FIXED_DICE_SLUG, FIXED_ROOM, FIXED_WORDS_ALGS4, words_needed
from tests.games.conftest import make_room

RULES = Rules(3, "king", "classic")


def rolled_words(dice: DiceSet, trie: Trie, seeds: range) -> set[frozenset[str]]:
    """Return the distinct word sets of the boards these seeds roll."""
    solver = Solver(trie, RULES)
    return {
        frozenset(solver.solve(selectors.dice_set_roll(dice, random.Random(seed))).words)
        for seed in seeds
    }


def test_every_roll_of_the_fixed_dice_spells_the_same_algs4_words(game_data: Dictionary) -> None:
    dice = DiceSet.objects.get(slug=FIXED_DICE_SLUG)
    trie = selectors.dictionary_trie(game_data)
    assert rolled_words(dice, trie, range(200)) == {FIXED_WORDS_ALGS4}


@pytest.mark.slow
def test_every_roll_of_the_fixed_dice_has_the_words_the_browser_tests_need(
    game_data: Dictionary,
) -> None:
    """The browser tests play on YAWL: three words to play (one of three dice) and one missed."""
    words, _ = dictionary_words("yawl")
    (found,) = rolled_words(
        DiceSet.objects.get(slug=FIXED_DICE_SLUG), Trie.from_word_list(words), range(50)
    )
    assert len(found) >= 4 and any(len(word) == 3 for word in found)


def test_a_room_on_the_fixed_dice_plays_a_2x2_board(game_data: Dictionary) -> None:
    room, _, _ = make_room(FIXED_ROOM)
    assert (room.settings["dice"], room.settings["rows"], room.settings["cols"]) == (
        FIXED_DICE_SLUG,
        2,
        2,
    )


def test_a_board_with_too_few_words_fails_the_setup_naming_the_board() -> None:
    with pytest.raises(AssertionError, match="board 2x2-ABCD holds 1 words"):
        words_needed([["ABC", [0, 1, 2], 1]], 2, "2x2-ABCD")
    assert words_needed([["ABC", [0, 1, 2], 1], ["BAD", [1, 0, 3], 1]], 1) == ["ABC"]
