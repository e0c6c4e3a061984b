"""A glossary written as text: one word<TAB>definition a line (a word on several lines has
several senses). Uploaded sources use it, and so does the shipped list of function words."""

from __future__ import annotations

import io
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass

from solver.engine.glossary import (
    ANY_POS,
    MAX_GLOSS_CHARS,
    MAX_SENSES,
    Entry,
    GlossaryData,
    PosSenses,
    is_headword,
)
from solver.engine.wordlist import SKIP_EXAMPLES

# Why a list was refused (tests assert these by name).
NO_TAB = "Line {line} has no TAB between the word and its definition."
NO_DEFINITION = "Line {line}: the definition of {word!r} is empty."
LONG_DEFINITION = f"Line {{line}}: a definition has at most {MAX_GLOSS_CHARS} characters."
NO_WORDS = "No line of the file defines a word made of letters only."
EMPTY = "The file is empty: it defines no words."
NOT_A_WORD = "that are not a single word of letters"
TOO_MANY = f"beyond the first {MAX_SENSES} senses of a word"
BAD_POS = "Line {line}: {pos!r} is not a part of speech (n, v, a, r, x, i or -)."
LINE_POS = ("n", "v", "a", "r", "x", "i", "-", "")


class TsvError(ValueError):
    """A word<TAB>definition list that cannot be used; the message names the line."""


@dataclass(frozen=True)
class TsvGlossary:
    """The glossary of a list, and a line per kind of skipped line ('' if none)."""

    data: GlossaryData
    report: str


def parse_tsv(text: str, pos: str = ANY_POS, *, pos_column: bool = False) -> TsvGlossary:
    """Return the glossary of word<TAB>definition lines; blank lines and # comments are skipped.

    With pos_column (the shipped function words), a line is word<TAB>part of speech<TAB>
    definition, the part of speech one of n, v, a, r, x (a function word) or i (an
    interjection); ``-`` or an empty column means ``pos``.
    """
    if not text.strip():
        raise TsvError(EMPTY)
    glosses: dict[str, list[str]] = defaultdict(list)
    parts: dict[str, str] = {}  # a word's part of speech: that of its first line
    skipped: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for number, line in enumerate(io.StringIO(text), 1):
        line = line.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, tab, definition = line.partition("\t")
        if not tab:
            raise TsvError(NO_TAB.format(line=number))
        line_pos = pos
        if pos_column:
            given, _, definition = definition.partition("\t")
            if given.strip() not in LINE_POS:
                raise TsvError(BAD_POS.format(line=number, pos=given))
            line_pos = given.strip() if given.strip() not in ("", ANY_POS) else pos
        word = unicodedata.normalize("NFC", word.strip()).lower()
        definition = " ".join(definition.split())
        if not definition:
            raise TsvError(NO_DEFINITION.format(line=number, word=word))
        if len(definition) > MAX_GLOSS_CHARS:
            raise TsvError(LONG_DEFINITION.format(line=number))
        reason = ""
        if not is_headword(word):
            reason = NOT_A_WORD
        elif len(glosses[word]) >= MAX_SENSES:
            reason = TOO_MANY
        if reason:
            skipped[reason] += 1
            if len(examples[reason]) < SKIP_EXAMPLES:
                examples[reason].append(word or "(empty)")
        elif definition not in glosses[word]:
            glosses[word].append(definition)
            parts.setdefault(word, line_pos)
    if not glosses:
        raise TsvError(NO_WORDS)
    entries = {w: Entry((PosSenses(parts[w], 0, tuple(g)),)) for w, g in glosses.items()}
    report = "\n".join(
        f"skipped {count} line(s) {reason}, e.g. {', '.join(examples[reason])}"
        for reason, count in sorted(skipped.items())
    )
    return TsvGlossary(GlossaryData(entries), report)
