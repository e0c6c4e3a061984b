"""`manage.py play`: the terminal game of seed 003, line for line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands.conftest import manage

BOARD = "5\nEEIRD\nAGMRS\nCIILN\nDLOTE\nFRWOT\n"
ROWS = ["EEIRD", "AGMRS", "CIILN", "DLOTE", "FRWOT"]


def state(score: int, words: str) -> list[str]:
    return [*ROWS, f"Your Score: {score}", f"Your Words:{' ' + words if words else ''}"]


def test_a_session_follows_the_seed(cache: Path) -> None:
    guesses = "guess\nword\nACID\nlica\nwoolens\nWoolens\ntoe\nzzzz\n???\n"
    result = manage("play", stdin=BOARD + guesses, cache=cache)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    expected = [
        *state(0, ""),
        "guess is not on board.",
        *state(0, ""),
        *state(1, "word"),
        *state(2, "word acid"),
        "lica is not a word.",
        *state(2, "word acid"),
        *state(6, "word acid woolens"),
        "woolens is already found.",
        *state(6, "word acid woolens"),
        "toe is too short.",
        *state(6, "word acid woolens"),
        "zzzz is not a word.",
        *state(6, "word acid woolens"),
    ]
    assert lines[: len(expected)] == expected
    computer_score, computer_words = lines[len(expected) :]
    words = computer_words.split()
    assert words[0] == "Computer" and words[1] == "Words:"
    found = words[2:]
    assert found == sorted(found) and all(w.isupper() for w in found)
    assert {"WORD", "ACID", "WOOLENS"}.isdisjoint(found)
    assert {"GIMLET", "MITTENS", "WORLD"} <= set(found)
    assert all(len(w) >= 4 for w in found)
    assert computer_score == f"Computer Score: {sum(len(w) - 3 for w in found)}"


def test_end_of_input_ends_the_turn_like_question_marks(cache: Path) -> None:
    ended = manage("play", stdin=BOARD + "word\n", cache=cache).stdout
    asked = manage("play", stdin=BOARD + "word\n???\n", cache=cache).stdout
    assert ended == asked and ended.splitlines()[-2].startswith("Computer Score: ")


def test_check_order_is_length_then_dictionary_then_board_then_repeat(cache: Path) -> None:
    # "abc" is short and not a word: too short wins. "tote" is a word not on this board.
    result = manage("play", stdin="2\nAB\nCD\nabc\ntote\n???\n", cache=cache)
    assert "abc is too short." in result.stdout
    assert "tote is not on board." in result.stdout


def test_rows_may_be_spaced_and_in_any_case(cache: Path) -> None:
    spaced = manage(
        "play", stdin="5\ne e i r d\nAGMRS\nC I I L N\ndlote\nFRWOT\nword\n???\n", cache=cache
    )
    plain = manage("play", stdin=BOARD + "word\n???\n", cache=cache)
    assert spaced.returncode == 0 and spaced.stdout == plain.stdout


def test_options_change_the_rules(cache: Path) -> None:
    result = manage(
        "play", "--min-length", "3", "--scoring", "classic", stdin=BOARD + "toe\n???\n", cache=cache
    )
    assert "Your Words: toe" in result.stdout


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "expected the board size N"),
        ("x\nAB\n", "board size must be a whole number"),
        ("0\n", "board size must be a whole number of at least 1"),
        ("2\nAB\n", "expected 2 rows of the board, found 1"),
        ("2\nAB\nCDE\n", "row 2 (CDE) has 3 letters, expected 2"),
        ("2\nAB\nC7\n", "unknown face '7'"),
    ],
)
def test_bad_boards_on_standard_input(cache: Path, stdin: str, message: str) -> None:
    result = manage("play", stdin=stdin, cache=cache)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_define_after_the_computers_turn_prints_a_words_base_form_and_senses(
    cache: Path,
) -> None:
    commands = (
        "word\n???\ndefine MITTENS\n\ndefine woolens\ndefine lica\ndefine\nhelp\ndefine a-b\n"
    )
    plain = manage("play", stdin=BOARD + "word\n???\n", cache=cache)
    result = manage("play", stdin=BOARD + commands, cache=cache)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(plain.stdout)  # the seed's messages, unchanged
    after = result.stdout[len(plain.stdout) :].splitlines()
    assert after[0] == "MITTENS → mitten (WordNet 3.0)"
    assert after[1].startswith("  1. noun: ")
    woolens = after.index("WOOLENS → woolen (WordNet 3.0)")
    senses = after[1:woolens]
    assert senses and all(line.startswith("  ") for line in senses)
    assert after[woolens + 1].startswith("  1. ")
    tail = [line for line in after[woolens + 1 :] if not line.startswith("  ")]
    assert tail == [
        "LICA: no definition found.",
        "Type define and a word, e.g. define word.",
        "Type define and a word, e.g. define word.",
        "a-b is not a word: use letters only.",
    ]
