"""A glossary: headwords → parts of speech → glosses, stored as one compressed text file.

The format (UTF-8, then xz) is three sections of lines, each section introduced by its name
and line count::

    boggle-definitions 1
    glosses 2
    put down by force or intimidation
    ...
    words 1
    quash<TAB>v12:0,1          headword, then per part of speech: pos, weight, gloss numbers
    exceptions 1
    quashes<TAB>v:quash        irregular form, then per part of speech: its base forms

Words are in code-point order, so a loaded glossary finds a headword by binary search over
the bytes themselves: a process holds the decompressed text and two offset arrays, not a
dictionary of Python strings. A weight says how much a headword is used in a part of speech
(WordNet's tagged-sense counts); it chooses between base forms. ``-`` is the part of speech
of a glossary that has none (a two-column upload), ``x`` that of a function word and ``i``
that of an interjection.
"""

from __future__ import annotations

import lzma
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

MAGIC = b"boggle-definitions 1\n"
MAX_SENSES = 4
ANY_POS = "-"
CLOSED = "x"  # a function word (THE, SHE, INTO): defined as itself only, never as a base form
# An interjection (OH, AH, OLE): itself, and the base form of its -s, -ed and -ing forms, which
# word-game lists hold as the verb "to say oh" (OHS, AHED, OLES).
INTERJECTION = "i"
MAX_GLOSS_CHARS = 1000
XZ_PRESET = 6


class GlossaryFormatError(ValueError):
    """Bytes that are not a glossary in this format."""


def is_headword(word: str) -> bool:
    """Return whether a lower-case headword can be a word-game word (letters only)."""
    return word.isalpha() and word == word.lower()


class PosSenses(NamedTuple):
    """A headword's senses in one part of speech, most used first."""

    pos: str
    weight: int
    glosses: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """A headword's senses: its parts of speech, most used first."""

    parts: tuple[PosSenses, ...]

    @classmethod
    def chosen(cls, parts: Iterable[PosSenses], max_senses: int = MAX_SENSES) -> Entry:
        """Return an entry with at most max_senses glosses: the first of each part, then more."""
        ordered = sorted(parts, key=lambda p: -p.weight)
        keep = [0] * len(ordered)
        left = max_senses
        for rank in range(max(len(p.glosses) for p in ordered)):
            for i, part in enumerate(ordered):
                if left and rank < len(part.glosses):
                    keep[i] += 1
                    left -= 1
        return cls(
            tuple(
                p._replace(glosses=p.glosses[:n]) for p, n in zip(ordered, keep, strict=True) if n
            )
        )

    def has(self, pos: str) -> bool:
        """Return whether the headword has senses in a part of speech (any, if it has no pos)."""
        return any(p.pos == pos or p.pos == ANY_POS for p in self.parts)

    def weight(self, poses: Iterable[str]) -> int:
        """Return how much the headword is used in the given parts of speech."""
        wanted = set(poses)
        return sum(p.weight for p in self.parts if p.pos in wanted or p.pos == ANY_POS)


@dataclass
class GlossaryData:
    """A glossary being built: entries by headword and the irregular forms."""

    entries: dict[str, Entry]
    exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    @property
    def sense_count(self) -> int:
        """Return how many glosses the entries hold in all."""
        return sum(len(p.glosses) for e in self.entries.values() for p in e.parts)


def _clean(text: str) -> str:
    return " ".join(text.split())[:MAX_GLOSS_CHARS]


def glossary_text(data: GlossaryData) -> bytes:
    """Return a glossary in the stored format, uncompressed."""
    numbers: dict[str, int] = {}
    word_lines = []
    for word in sorted(data.entries):
        parts = []
        for part in data.entries[word].parts:
            ids = [numbers.setdefault(_clean(g), len(numbers)) for g in part.glosses]
            parts.append(f"{part.pos}{part.weight}:{','.join(map(str, ids))}")
        word_lines.append("\t".join([word, *parts]))
    exception_lines = [
        "\t".join([form, *(f"{pos}:{','.join(bases)}" for pos, bases in by_pos.items())])
        for form, by_pos in sorted(data.exceptions.items())
    ]
    text = "\n".join(
        [
            f"glosses {len(numbers)}",
            *numbers,
            f"words {len(word_lines)}",
            *word_lines,
            f"exceptions {len(exception_lines)}",
            *exception_lines,
        ]
    )
    return MAGIC + text.encode() + b"\n"


def glossary_encode(data: GlossaryData) -> bytes:
    """Return a glossary in the stored format, xz-compressed (xz's default level: its 8 MiB
    window holds the whole WordNet glossary, and compressing needs under 100 MiB)."""
    return lzma.compress(glossary_text(data), preset=XZ_PRESET)


class Glossary:
    """A loaded glossary: headword entries found by binary search, and the irregular forms."""

    def __init__(self, compressed: bytes, name: str = "") -> None:
        """Load a glossary from its stored, compressed form."""
        try:
            text = lzma.decompress(compressed)
        except lzma.LZMAError as exc:
            raise GlossaryFormatError(f"not an xz-compressed glossary ({exc})") from None
        self._load(text, name)

    @classmethod
    def from_text(cls, text: bytes, name: str = "") -> Glossary:
        """Return a glossary from its uncompressed form (as glossary_text writes it)."""
        glossary = cls.__new__(cls)
        glossary._load(text, name)
        return glossary

    def _load(self, blob: bytes, name: str) -> None:
        if not blob.startswith(MAGIC):
            raise GlossaryFormatError("not a glossary: the first line is wrong")
        self.name = name
        self._blob = blob
        position = len(MAGIC)
        self._glosses, position = self._section(b"glosses", position)
        self._words, position = self._section(b"words", position)
        exception_lines, _ = self._section(b"exceptions", position)
        self.exceptions = self._parse_exceptions(exception_lines)

    def _section(self, name: bytes, position: int) -> tuple[array[int], int]:
        """Return the start of each line of a section (and one past its end), and the end."""
        eol = self._blob.find(b"\n", position)
        title, _, count_text = self._blob[position:eol].partition(b" ")
        if title != name or not count_text.isdigit():
            raise GlossaryFormatError(f"not a glossary: no {name.decode()} section")
        starts = array("I")
        position = eol + 1
        for _ in range(int(count_text)):
            starts.append(position)
            position = self._blob.find(b"\n", position) + 1
            if position == 0:
                raise GlossaryFormatError(f"not a glossary: the {name.decode()} section is short")
        starts.append(position)
        return starts, position

    def _line(self, starts: array[int], i: int) -> str:
        return self._blob[starts[i] : starts[i + 1] - 1].decode()

    def _parse_exceptions(self, starts: array[int]) -> dict[str, dict[str, list[str]]]:
        exceptions: dict[str, dict[str, list[str]]] = {}
        for i in range(len(starts) - 1):
            form, *parts = self._line(starts, i).split("\t")
            exceptions[form] = {p[0]: p[2:].split(",") for p in parts}
        return exceptions

    def __len__(self) -> int:
        return len(self._words) - 1

    @property
    def nbytes(self) -> int:
        """Return the memory the loaded glossary holds (text and offsets)."""
        arrays = self._glosses.itemsize * (len(self._glosses) + len(self._words))
        return len(self._blob) + arrays

    def headwords(self) -> Iterable[str]:
        """Yield every headword in order."""
        for i in range(len(self)):
            yield self._line(self._words, i).partition("\t")[0]

    def entry(self, headword: str) -> Entry | None:
        """Return a headword's entry, or None if it is not a headword."""
        key = headword.encode() + b"\t"
        blob, starts = self._blob, self._words
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            start = starts[mid]
            line_key = blob[start : blob.index(b"\t", start) + 1]
            if line_key < key:
                lo = mid + 1
            elif line_key > key:
                hi = mid
            else:
                return self._entry(self._line(starts, mid))
        return None

    def _entry(self, line: str) -> Entry:
        parts = []
        for field_text in line.split("\t")[1:]:
            head, _, ids = field_text.partition(":")
            glosses = tuple(self._line(self._glosses, int(n)) for n in ids.split(","))
            parts.append(PosSenses(head[0], int(head[1:]), glosses))
        return Entry(tuple(parts))
