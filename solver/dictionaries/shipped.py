"""The data the product ships: the YAWL and ENABLE2K dictionaries, Everyday English (derived
from YAWL) and the Boggle dice sets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.dictionaries.loading import SHIPPED
from solver.dictionaries.packing import words_pack
from solver.engine.dice import DICE_SETS, ENGLISH_LETTER_FREQUENCIES
from solver.engine.everyday import everyday_cut, everyday_source
from solver.engine.wordlist import WordList, read_word_list
from solver.models import ENGLISH_ALPHABET


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


@dataclass(frozen=True)
class ShippedEveryday:
    """A dictionary derived from a shipped one by commonness (solver.engine.everyday)."""

    slug: str
    name: str
    base: str  # the slug of the shipped dictionary it is cut from
    threshold: float  # the least Zipf figure a word needs
    min_length: int

    @property
    def base_spec(self) -> ShippedDictionary:
        """Return the shipped dictionary it is derived from."""
        return next(spec for spec in DICTIONARIES if spec.slug == self.base)

    @property
    def source(self) -> str:
        """Return how it was made, as its source field says it."""
        return everyday_source(self.base_spec.name, self.threshold, self.min_length)


# Zipf 2.7 keeps about 31,000 words of 3+ letters: OAT, EWE, WOK, YAK and GNU stay, QAT (1.86),
# ADZ and the words wordfreq has never seen go; two-letter words (AA, OE, XU) go by length.
EVERYDAY = ShippedEveryday(
    slug="everyday", name="Everyday English", base="yawl", threshold=2.7, min_length=3
)


@cache
def dictionary_words(slug: str) -> tuple[WordList, bytes]:
    """Return a shipped dictionary's normalised list and its stored form (read once per process)."""
    word_list = read_word_list(SHIPPED[slug])
    return word_list, words_pack(word_list.words)


@cache
def everyday_words() -> tuple[WordList, bytes]:
    """Return Everyday English's list, cut from the shipped base file, and its stored form."""
    base, _ = dictionary_words(EVERYDAY.base)
    cut = everyday_cut(base.words, threshold=EVERYDAY.threshold, min_length=EVERYDAY.min_length)
    return cut.kept, words_pack(cut.kept.words)


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
