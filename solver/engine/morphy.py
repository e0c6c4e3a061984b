"""Base forms of an inflected word: WordNet's detachment rules, then a few derivations.

WordNet's morphy finds a base form in three steps per part of speech: the exception lists
(GEESE → goose, RAN → run), the word itself, then one suffix rule (CATS → cat, QUASHED → quash,
BIGGER → big is an exception, TALLER → tall a rule). The rules below are WordNet's; a candidate
counts only if it is a headword of that part of speech, which the caller checks.

``derive`` goes one step further for words WordNet lists neither way: the regular suffixes
word-game lists are full of (QUICKNESS → quick, FATLY → fat, DETHRONERS → dethrone, REEFIER →
reefy). Prefixes are left alone (they change the meaning), and so is a bare -s that WordNet's
rules refused (SURES is not "sure"). Its candidates are tried only when morphy found nothing,
and the definition still says which base form it shows.
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
# have. Every candidate that is a headword of such a part is ranked by use, like morphy's.
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
)
# An -ER word derived from a verb is an agent noun: one who or that does it (DETHRONER). When
# the base is a noun too, the -ER often comes from the noun instead (a MOSSER gathers moss, a
# CRABBER catches crabs, a PALMER carried a palm), so the verb's sense would mislead.
AGENT_ENDINGS = ("er", "ers")
VOWELS = "aeiouy"
SHORTEST_BASE = 3


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


def undouble(stem: str, ending: str) -> Iterator[str]:
    """Yield a stem and, when a vowel suffix doubled its last consonant, the stem with one
    (RUNN-ERS → run; but not CARR-S → car: only a vowel suffix doubles)."""
    yield stem
    doubled = len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in VOWELS + "sl"
    if doubled and ending[0] in VOWELS:
        yield stem[:-1]


def _short_closed(stem: str) -> bool:
    """Return whether a stem is one syllable ending in one short vowel and one consonant (ROB),
    which doubles its consonant before a vowel suffix."""
    vowels = [c in VOWELS for c in stem]
    return (
        len(stem) >= 3
        and sum(vowels) == 1
        and vowels[-2]
        and not vowels[-1]
        and not vowels[-3]
        and stem[-1] not in "wxy"
    )


def derive(word: str) -> Iterator[tuple[str, str]]:
    """Yield (base, parts of speech it may have) for regular derivations, nearest first."""
    seen: set[str] = set()
    for ending, replacement, poses in DERIVATIONS:
        if not word.endswith(ending) or len(word) - len(ending) < SHORTEST_BASE:
            continue
        whole = word[: len(word) - len(ending)]
        if not replacement and ending[0] in VOWELS and _short_closed(whole):
            continue  # ROBER is not rob + er (that is ROBBER): try robe
        # A doubled consonant is undone only when nothing replaces the ending: RUNN-ERS is
        # run, but DOTT-ER is not dote (that would be DOTER).
        for stem in undouble(whole, ending) if not replacement else (whole,):
            base = stem + replacement
            if base not in seen:
                seen.add(base)
                yield base, poses
