"""Reading a WordNet database (the WNDB files Debian's wordnet-base ships) into a glossary.

Only what a word game shows is kept: single-word headwords made of letters, each with its
parts of speech (most used first, by WordNet's sense counts) and a few glosses (the text after
the ``|`` of a data line, without its quoted examples), and the exception lists of irregular
forms. Proper-noun senses (the synset spells the word with a capital: Mars, Paris) are left
out: word-game lists do not hold names, and MARS should reach "mar", not the planet. WordNet
also spells a few units named after people with a capital (Bel, Erlang): a unit of measure
spelt as a word is kept when the word has no other sense in its part of speech (BEL is the
unit of sound, not missing). A part of speech's senses keep the index's order, which is
WordNet's sense numbering: most tagged first, as ``cntlist.rev`` counts them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from solver.engine.glossary import MAX_SENSES, Entry, GlossaryData, PosSenses, is_headword
from solver.engine.morphy import ADJECTIVE, ADVERB, NOUN, VERB

FILE_NAMES = {NOUN: "noun", VERB: "verb", ADJECTIVE: "adj", ADVERB: "adv"}
SS_TYPES = {"1": NOUN, "2": VERB, "3": ADJECTIVE, "4": ADVERB, "5": ADJECTIVE}
COUNT_FILE = "cntlist.rev"
NEEDED_FILES = (
    *(f"{kind}.{name}" for name in FILE_NAMES.values() for kind in ("data", "index")),
    *(f"{name}.exc" for name in FILE_NAMES.values()),
    COUNT_FILE,
)
SYNTACTIC_MARKER = re.compile(r"\((?:a|p|ip)\)$")
QUANTITY_FILE = "23"  # noun.quantity, WordNet's lexicographer file of units and amounts
NAMED_UNIT = re.compile(r"[A-Z][a-z]{2,}")  # Bel, Erlang: a word, not an abbreviation (Pa, Gb)
LICENCE_LINE = re.compile(r"^  \d+ ?(.*?)\s*$")

NO_PARTS = "No WordNet data: the files data.noun/index.noun (or verb, adj, adv) are missing."
BAD_LINE = "{name}, line {line}: not a WordNet {kind} line."
NO_HEADWORDS = "The WordNet files hold no single-word headwords made of letters."

FileReader = Callable[[str], bytes | None]  # a file's name → its bytes, or None if absent


class WordNetError(ValueError):
    """WordNet files that cannot be read; the message names the file and line."""


def directory_reader(directory: Path) -> FileReader:
    """Return a reader of the WordNet files in a directory (Debian: /usr/share/wordnet)."""

    def read(name: str) -> bytes | None:
        path = directory / name
        return path.read_bytes() if path.is_file() else None

    return read


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # Princeton's files are ASCII; older copies Latin-1
        return raw.decode("latin-1")


def licence_of(read: FileReader) -> str:
    """Return the licence a WordNet data file carries in its numbered header lines ('' if none)."""
    for name in FILE_NAMES.values():
        raw = read(f"data.{name}")
        if raw is None:
            continue
        lines = []
        for line in _text(raw[:8192]).splitlines():
            match = LICENCE_LINE.match(line)
            if match is None:
                break
            lines.append(match.group(1))
        return "\n".join(lines).strip() + "\n" if lines else ""
    return ""


def gloss_definition(gloss: str) -> str:
    """Return a gloss without its quoted example sentences ("put down by force")."""
    gloss = gloss.strip()
    definition = gloss.split('; "', 1)[0].strip().rstrip(";").strip()
    return definition if definition and not definition.startswith('"') else gloss


class _Synset(NamedTuple):
    definition: str
    capitalised: frozenset[str]  # its lemmas spelt with a capital (lower-cased)
    named_units: frozenset[str]  # of those, units spelt as a word (Bel)


def _synsets(text: str, name: str) -> dict[str, _Synset]:
    """Return offset → the synset's definition and its lemmas spelt with a capital."""
    synsets = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("  "):
            continue  # the licence header
        head, bar, gloss = line.partition("|")
        fields = head.split()
        if not bar or len(fields) < 4:
            raise WordNetError(BAD_LINE.format(name=name, line=number, kind="data"))
        try:
            count = int(fields[3], 16)
        except ValueError:
            raise WordNetError(BAD_LINE.format(name=name, line=number, kind="data")) from None
        words = [SYNTACTIC_MARKER.sub("", w) for w in fields[4 : 4 + 2 * count : 2]]
        capitalised = [w for w in words if w != w.lower()]
        # A unit WordNet names only with capitals (Bel, B); Gbit beside gigabit is short for it.
        named_unit = fields[1] == QUANTITY_FILE and len(capitalised) == len(words)
        units = [w for w in capitalised if named_unit and NAMED_UNIT.fullmatch(w)]
        synsets[fields[0]] = _Synset(
            gloss_definition(gloss),
            frozenset(w.lower() for w in capitalised),
            frozenset(w.lower() for w in units),
        )
    return synsets


def _index(text: str, name: str) -> list[tuple[str, list[str], int]]:
    """Return (lemma, synset offsets most used first, tagged senses) for an index file."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("  "):
            continue
        fields = line.split()
        try:
            synset_count, pointer_count = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + pointer_count])
        except (IndexError, ValueError):
            raise WordNetError(BAD_LINE.format(name=name, line=number, kind="index")) from None
        offsets = fields[len(fields) - synset_count :]
        if synset_count < 1 or len(fields) < 6 + pointer_count + synset_count:
            raise WordNetError(BAD_LINE.format(name=name, line=number, kind="index"))
        rows.append((fields[0], offsets, tagged))
    return rows


def _usage(read: FileReader) -> dict[tuple[str, str], int] | None:
    """Return (lemma, part of speech) → tagged occurrences from cntlist.rev, if it is there."""
    raw = read(COUNT_FILE)
    if raw is None:
        return None
    usage: dict[tuple[str, str], int] = defaultdict(int)
    for line in _text(raw).splitlines():
        fields = line.split()
        lemma, _, rest = fields[0].partition("%") if fields else ("", "", "")
        if len(fields) == 3 and rest[:1] in SS_TYPES and fields[2].isdigit():
            usage[lemma, SS_TYPES[rest[0]]] += int(fields[2])
    return usage


def _glosses(lemma: str, offsets: list[str], synsets: dict[str, _Synset]) -> list[str]:
    """Return a lemma's definitions in one part of speech in the index's order (most used
    first): its synsets that spell it in lower case, or else the units spelt with a capital
    (Bel), never a name's (Bel the god)."""
    found = [synsets[o] for o in offsets if o in synsets]
    chosen = [s for s in found if lemma not in s.capitalised]
    if not chosen:
        chosen = [s for s in found if lemma in s.named_units]
    return [s.definition for s in chosen]


def read_wordnet(read: FileReader, *, max_senses: int = MAX_SENSES) -> GlossaryData:
    """Return the glossary of a WordNet database, or raise WordNetError saying what is wrong."""
    usage = _usage(read)
    parts: dict[str, list[PosSenses]] = defaultdict(list)
    found_any = False
    for pos, name in FILE_NAMES.items():
        data, index = read(f"data.{name}"), read(f"index.{name}")
        if data is None or index is None:
            continue
        found_any = True
        synsets = _synsets(_text(data), f"data.{name}")
        for lemma, offsets, tagged in _index(_text(index), f"index.{name}"):
            if not is_headword(lemma):
                continue
            glosses = _glosses(lemma, offsets, synsets)
            if glosses:
                weight = usage.get((lemma, pos), 0) if usage is not None else tagged
                parts[lemma].append(PosSenses(pos, weight, tuple(glosses)))
    if not found_any:
        raise WordNetError(NO_PARTS)
    if not parts:
        raise WordNetError(NO_HEADWORDS)
    entries = {word: Entry.chosen(groups, max_senses) for word, groups in parts.items()}
    return GlossaryData(entries=entries, exceptions=_exceptions(read, entries))


def _exceptions(read: FileReader, entries: dict[str, Entry]) -> dict[str, dict[str, list[str]]]:
    """Return inflected form → part of speech → base forms, for bases that are headwords."""
    exceptions: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for pos, name in FILE_NAMES.items():
        raw = read(f"{name}.exc")
        if raw is None:
            continue
        for line in _text(raw).splitlines():
            fields = line.split()
            if len(fields) < 2 or not is_headword(fields[0]):
                continue
            inflected, bases = fields[0], fields[1:]
            known = [b for b in bases if b in entries and entries[b].has(pos)]
            if known:
                exceptions[inflected][pos] = known
    return dict(exceptions)
