"""The project's word-game glossary: the Collins-only words no published source defines,
read as the fourth shipped source, each line a word, a part of speech and a definition."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.engine.definitions import (
    WORD_GAME_NAME,
    WORD_GAME_PATH,
    define,
    define_in,
    shipped_glossaries,
)
from solver.engine.glossary import CLOSED
from solver.engine.glossary_tsv import parse_tsv


def _lines() -> list[list[str]]:
    text = WORD_GAME_PATH.read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def test_each_line_is_a_word_a_part_of_speech_and_a_definition_once() -> None:
    lines = _lines()
    assert len(lines) > 2000
    assert all(len(fields) == 3 for fields in lines)
    assert all(word.isalpha() and word == word.lower() for word, _, _ in lines)
    assert all(pos in {"n", "v", "a", "r", "x", "i"} for _, pos, _ in lines)
    twice = [word for word, n in Counter(word for word, _, _ in lines).items() if n > 1]
    assert twice == []  # a second line would be merged silently under the first's part
    assert not [gloss for _, _, gloss in lines if "?" in gloss]  # no guesses left in
    parsed = parse_tsv(WORD_GAME_PATH.read_text(encoding="utf-8"), CLOSED, pos_column=True)
    assert len(parsed.data.entries) == len(lines)


@pytest.mark.parametrize(
    ("word", "base", "start"),
    [
        ("OSE", "ose", "a long winding ridge of gravel"),
        ("TELS", "tel", "an ancient mound"),
        ("NIED", "nie", "(archaic) to come near"),  # a verb's forms reach it
        ("TOEIER", "toey", "(Australian) nervous"),  # an adjective's comparative
        ("TELT", "telt", "(Scots) told"),  # x: the form itself only
    ],
)
def test_collins_words_and_their_forms_are_defined_by_it(word: str, base: str, start: str) -> None:
    found = define(word)
    assert found is not None and found.source == WORD_GAME_NAME
    assert found.base == base and found.senses[0].gloss.startswith(start)


def test_it_is_asked_last_and_never_replaces_a_published_sense() -> None:
    *published, word_game = shipped_glossaries()
    assert word_game.name == WORD_GAME_NAME
    # IRE is a WordNet noun; the glossary only adds the verb so that IRED is found.
    ire = define("IRE")
    assert ire is not None and ire.source == "WordNet 3.0"
    ired = define("IRED")
    assert ired is not None and (ired.base, ired.source) == ("ire", WORD_GAME_NAME)
    assert all(define_in(glossary, "OSE") is None for glossary in published)
    assert define_in(word_game, "TELTS") is None  # an x form inflects to nothing
