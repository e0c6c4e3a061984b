"""What a word means: its base form and a few senses, from the glossaries given, offline.

``define("QUASHED")`` returns the definition of *quash* and says so: a word that is not a
headword is found through its base form, by WordNet's exception lists and suffix rules
(solver/engine/morphy.py), then by regular derivations. Among several base forms (RUNS is the
noun *runs* and the verb *run*) the most used wins; the word itself is preferred a little.
The shipped glossaries (WordNet 3.0, function words, GCIDE for what WordNet lacks, then the
project's glossary of word-game words none of them defines) are read once per process, when
first asked for; each definition names its source.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from solver.engine.glossary import (
    ANY_POS,
    CLOSED,
    INTERJECTION,
    Entry,
    Glossary,
    glossary_text,
)
from solver.engine.glossary_tsv import parse_tsv
from solver.engine.morphy import AGENT_ENDINGS, NOUN, PARTS_OF_SPEECH, VERB, derive, detach

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "data" / "definitions"
SHIPPED_PATH = SHIPPED_DIR / "wordnet-3.0.defs.xz"
SHIPPED_NAME = "WordNet 3.0"
FUNCTION_WORDS_PATH = SHIPPED_DIR / "function-words.tsv"
FUNCTION_WORDS_NAME = "Boggle Online function words"
GCIDE_PATH = SHIPPED_DIR / "gcide-0.48.defs.xz"
GCIDE_NAME = "GCIDE (Webster 1913)"
WORD_GAME_PATH = SHIPPED_DIR / "word-game-words.tsv"
WORD_GAME_NAME = "Boggle Online word-game glossary"
POS_NAMES = {
    "n": "noun",
    "v": "verb",
    "a": "adjective",
    "r": "adverb",
    INTERJECTION: "interjection",
    ANY_POS: "",
    CLOSED: "",
}
SELF_PREFERENCE = 4  # the word itself wins unless a base form is used 4× as much


@dataclass(frozen=True)
class Sense:
    """One meaning: a part of speech ('' when the source has none) and its gloss."""

    pos: str
    gloss: str


@dataclass(frozen=True)
class Definition:
    """The senses shown for a word, and the base form (headword) they belong to."""

    word: str
    base: str
    senses: tuple[Sense, ...]
    source: str = ""

    @property
    def is_base(self) -> bool:
        """Return whether the word is itself the headword shown."""
        return self.word.lower() == self.base

    def heading(self) -> str:
        """Return "QUASHED → quash" for an inflected word, "quash" for a headword."""
        return self.base if self.is_base else f"{self.word.upper()} → {self.base}"

    def summary(self) -> str:
        """Return one line: the heading and the first sense ("QUASHED → quash: put down …")."""
        return f"{self.heading()}: {self.senses[0].gloss}"

    def lines(self) -> list[str]:
        """Return the definition as printed in a terminal: the heading and source, then one
        numbered line per sense ("  1. verb: put down by force or intimidation")."""
        heading = f"{self.heading()} ({self.source})" if self.source else self.heading()
        return [
            heading,
            *(
                f"  {n}. {s.pos + ': ' if s.pos else ''}{s.gloss}"
                for n, s in enumerate(self.senses, 1)
            ),
        ]

    def as_dict(self) -> dict[str, object]:
        """Return the definition as JSON-ready data."""
        return {
            "word": self.word.upper(),
            "base": self.base,
            "senses": [{"pos": s.pos, "gloss": s.gloss} for s in self.senses],
            "source": self.source,
        }


Lookup = Callable[[str], Entry | None]
Candidates = dict[str, tuple[Entry, set[str]]]  # base form → its entry, the parts it matched


def _morphy_candidates(lookup: Lookup, glossary: Glossary, word: str) -> Candidates:
    """Return base form → (entry, parts of speech it matched in), as WordNet's morphy does."""
    found: Candidates = {}
    itself = lookup(word)
    if itself is not None and itself.has(CLOSED):
        found[word] = (itself, {CLOSED})
    for base in [word, *detach(word, VERB)]:  # OH, and OHS, OHED, OHING: "to say oh"
        entry = itself if base == word else lookup(base)
        if entry is not None and entry.has(INTERJECTION):
            found.setdefault(base, (entry, set()))[1].add(INTERJECTION)
    irregular = glossary.exceptions.get(word, {})
    for pos in PARTS_OF_SPEECH:
        bases = [*irregular.get(pos, []), word]
        if pos not in irregular:
            bases += detach(word, pos)
        for base in bases:
            entry = lookup(base)
            if entry is not None and entry.has(pos):
                found.setdefault(base, (entry, set()))[1].add(pos)
    return found


def _derived_candidates(lookup: Lookup, word: str, is_noun: Callable[[str], bool]) -> Candidates:
    """Return base forms by regular derivation (QUICKNESS → quick), when morphy found none.

    An agent noun (DETHRONER) is derived from a verb only when the base is not mainly a noun
    (is_noun): a MOSSER gathers moss, it does not "cover with moss"; a CODDER gathers cods.
    """
    found: Candidates = {}
    agent = word.endswith(AGENT_ENDINGS)
    for base, poses in derive(word):
        entry = lookup(base)
        matched = {p for p in poses if entry is not None and entry.has(p)}
        if agent and VERB in matched and is_noun(base):
            matched.discard(VERB)
        if entry is not None and matched:
            found.setdefault(base, (entry, set()))[1].update(matched)
    return found


def _mainly_noun(base: str, glossaries: Sequence[Glossary]) -> bool:
    """Return whether a base is used more as a noun than as a verb, in the first glossary that
    has it (WordNet's counts: moss, code and crab are nouns; care, link and thaw verbs)."""
    for glossary in glossaries:
        entry = glossary.entry(base)
        if entry is not None:
            if not entry.has(VERB):
                return entry.has(NOUN)
            return entry.has(NOUN) and entry.weight({NOUN}) > entry.weight({VERB})
    return False


def _third_person(verb: str) -> str:
    """Return a verb's third person singular (dethrones, catches, carries)."""
    if verb.endswith(("s", "x", "z", "ch", "sh")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _senses(entry: Entry, poses: set[str]) -> tuple[Sense, ...]:
    """Return the senses of the parts of speech the form belongs to (those without a part of
    speech only when no other part matched: an upload's, or a GCIDE article's unlabelled)."""
    parts = [p for p in entry.parts if p.pos in poses] or [
        p for p in entry.parts if p.pos == ANY_POS
    ]
    return tuple(Sense(POS_NAMES.get(p.pos, ""), gloss) for p in parts for gloss in p.glosses)


def define_in(
    glossary: Glossary, word: str, *, others: Sequence[Glossary] = ()
) -> Definition | None:
    """Return a word's definition in one glossary, through its base form if need be. The
    glossaries asked in turn (others, this one among them) say what a base is mainly: GCIDE's
    moss is a verb because WordNet, asked first, has the noun."""
    lower = word.lower()
    if not lower.isalpha():
        return None
    lookup = cache(glossary.entry)  # the same base comes up for several parts of speech

    candidates = _morphy_candidates(lookup, glossary, lower)
    derived = not candidates
    if derived:
        candidates = _derived_candidates(
            lookup, lower, lambda base: _mainly_noun(base, others or (glossary,))
        )
    if not candidates:
        return None

    def rank(base: str) -> tuple[int, bool, int, str]:
        entry, poses = candidates[base]
        score = (entry.weight(poses) + 1) * (SELF_PREFERENCE if base == lower else 1)
        return (-score, base != lower, -len(base), base)

    base = min(candidates, key=rank)
    entry, poses = candidates[base]
    senses = _senses(entry, poses)
    if derived and lower.endswith(AGENT_ENDINGS) and VERB in poses:  # DETHRONER: the agent
        agent = f"one who or that {_third_person(base)}"
        senses = tuple(
            Sense(s.pos and "noun", f"{agent} ({s.gloss})") if s.pos == "verb" else s
            for s in senses
        )
    return Definition(word.upper(), base, senses, glossary.name)


def define(word: str, glossaries: Sequence[Glossary] | None = None) -> Definition | None:
    """Return a word's definition from the first glossary that has one (default: shipped)."""
    asked = shipped_glossaries() if glossaries is None else tuple(glossaries)
    for glossary in asked:
        if (found := define_in(glossary, word, others=asked)) is not None:
            return found
    return None


_shipped: tuple[Glossary, ...] | None = None
_shipped_lock = threading.Lock()


def _tsv_glossary(path: Path, name: str) -> Glossary:
    text = path.read_text(encoding="utf-8")
    return Glossary.from_text(glossary_text(parse_tsv(text, CLOSED, pos_column=True).data), name)


def shipped_glossaries() -> tuple[Glossary, ...]:
    """Return the shipped glossaries in the order a word is looked up: WordNet, the function
    words WordNet leaves out (THE, SHE, INTO), GCIDE for the words neither defines (AIT, EAN,
    TOLE), then the word-game words none of them defines (OSE, TEL, SEI), read from their
    files the first time they are asked for."""
    global _shipped
    with _shipped_lock:
        if _shipped is None:
            _shipped = (
                Glossary(SHIPPED_PATH.read_bytes(), SHIPPED_NAME),
                _tsv_glossary(FUNCTION_WORDS_PATH, FUNCTION_WORDS_NAME),
                Glossary(GCIDE_PATH.read_bytes(), GCIDE_NAME),
                _tsv_glossary(WORD_GAME_PATH, WORD_GAME_NAME),
            )
        return _shipped


def shipped_glossary() -> Glossary:
    """Return the shipped WordNet glossary."""
    return shipped_glossaries()[0]
