"""The data the product ships: the YAWL and ENABLE2K dictionaries and the Boggle dice sets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.dictionaries import SHIPPED
from solver.engine.dice import DICE_SETS, ENGLISH_LETTER_FREQUENCIES
from solver.engine.wordlist import WordList, read_word_list
from solver.models import ENGLISH_ALPHABET
from solver.packing import words_pack


@dataclass(frozen=True)
class ShippedDictionary:
    """A dictionary file in solver/data/dictionaries and what the admin shows about it."""

    slug: str
    name: str
    description: str
    source: str
    licence: str
    language: str = "en"
    alphabet: str = ENGLISH_ALPHABET


DICTIONARIES = (
    ShippedDictionary(
        slug="yawl",
        name="YAWL",
        description="Yet Another Word List: 264,061 words chosen for word games.",
        source="YAWL by Mendel Cooper, based on ENABLE (solver/data/dictionaries/yawl-README)",
        licence="Public domain (solver/data/dictionaries/yawl-LICENSE)",
    ),
    ShippedDictionary(
        slug="enable2k",
        name="ENABLE2K",
        description="Enhanced North American Benchmark Lexicon, Y2K update: 173,528 words.",
        source="ENABLE2K by Mendel Cooper and Alan Beale (ENABLE-readme-excerpt.txt)",
        licence="Public domain (solver/data/dictionaries/ENABLE-readme-excerpt.txt)",
    ),
)


@cache
def dictionary_words(slug: str) -> tuple[WordList, bytes]:
    """Return a shipped dictionary's normalised list and its stored form (read once per process)."""
    word_list = read_word_list(SHIPPED[slug])
    return word_list, words_pack(word_list.words)


def dice_sets() -> list[dict[str, Any]]:
    """Return the model fields of the shipped dice sets and the English letter-frequency set."""
    rows = [
        {
            "slug": d.slug,
            "name": d.name,
            "rows": d.rows,
            "cols": d.cols,
            "dice": [list(die) for die in d.dice],
            "min_length": d.min_length,
            "scoring": d.scoring,
        }
        for d in DICE_SETS.values()
    ]
    rows.append(
        {
            "slug": "english-letters",
            "name": "English letter frequencies (any size)",
            "description": "Each cell drawn on its own by how often the letter occurs in English.",
            "rows": 4,
            "cols": 4,
            "letter_frequencies": dict(ENGLISH_LETTER_FREQUENCIES),
            "min_length": 3,
            "scoring": "classic",
        }
    )
    return rows
