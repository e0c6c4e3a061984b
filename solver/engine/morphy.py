"""Base forms of an inflected word: WordNet's detachment rules, then a few derivations.

WordNet's morphy finds a base form in three steps per part of speech: the exception lists
(GEESE → goose, RAN → run), the word itself, then one suffix rule (CATS → cat, QUASHED → quash,
BIGGER → big is an exception, TALLER → tall a rule). The rules below are WordNet's; a candidate
counts only if it is a headword of that part of speech, which the caller checks.

``derive`` goes one step further for words WordNet lists neither way, mostly the regular
derivations that word-game lists are full of (QUICKNESS → quick, SADLY → sad, RETHINKS →
rethink → think is *not* done: prefixes change meaning). Its candidates are tried only when
morphy found nothing, and the definition still says which base form it shows.
"""

from __future__ import annotations

from collections.abc import Iterator

NOUN, VERB, ADJECTIVE, ADVERB = "n", "v", "a", "r"
PARTS_OF_SPEECH = (NOUN, VERB, ADJECTIVE, ADVERB)

# WordNet 3.0's detachment rules (morph.c), in its order: (ending, replacement).
DETACHMENTS: dict[str, tuple[tuple[str, str], ...]] = {
    NOUN: (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    VERB: (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    ADJECTIVE: (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    ADVERB: (),
}

# Regular derivations WordNet's rules leave out, each with the parts of speech its base may
# have. Tried in order, on the word and on what one inflection rule leaves of it.
DERIVATIONS: tuple[tuple[str, str, str], ...] = (
    ("ness", "", ADJECTIVE),
    ("iness", "y", ADJECTIVE),
    ("ly", "", ADJECTIVE),
    ("ily", "y", ADJECTIVE),
    ("ally", "al", ADJECTIVE),
    ("ably", "able", ADJECTIVE),
    ("ibly", "ible", ADJECTIVE),
    ("ier", "y", ADJECTIVE),
    ("iest", "y", ADJECTIVE),
    ("er", "", VERB),
    ("er", "e", VERB),
    ("ers", "", VERB),
    ("ers", "e", VERB),
    ("ings", "", VERB),
    ("ings", "e", VERB),
    ("ment", "", VERB),
    ("ments", "", VERB),
    ("able", "", VERB),
    ("able", "e", VERB),
    ("less", "", NOUN),
    ("ful", "", NOUN),
    ("ish", "", ADJECTIVE + NOUN),
    ("like", "", NOUN),
    ("s", "", NOUN + VERB + ADJECTIVE),
    ("es", "", NOUN + VERB),
    ("'s", "", NOUN),
)
SHORTEST_BASE = 2


def detach(word: str, pos: str) -> list[str]:
    """Return what WordNet's suffix rules for one part of speech make of a lower-case word."""
    if pos == NOUN and (word.endswith("ss") or len(word) <= 2):
        return []  # morph.c: "glass" is never "glas"
    found: list[str] = []
    for ending, replacement in DETACHMENTS[pos]:
        if word.endswith(ending):
            base = word[: len(word) - len(ending)] + replacement
            if base and base not in found:
                found.append(base)
    return found


def undouble(stem: str) -> Iterator[str]:
    """Yield a stem and, when it ends in a doubled consonant, the stem with one (RUNN → run)."""
    yield stem
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiousl":
        yield stem[:-1]


def derive(word: str) -> Iterator[tuple[str, str]]:
    """Yield (base, parts of speech it may have) for regular derivations, nearest first."""
    seen: set[str] = set()
    for ending, replacement, poses in DERIVATIONS:
        if not word.endswith(ending) or len(word) - len(ending) < SHORTEST_BASE:
            continue
        for stem in undouble(word[: len(word) - len(ending)]):
            base = stem + replacement
            if base not in seen:
                seen.add(base)
                yield base, poses
