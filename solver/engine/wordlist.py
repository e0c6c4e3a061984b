"""Word lists: read, normalise and check a dictionary file before it becomes a trie."""

from __future__ import annotations

import gzip
import hashlib
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

MAX_WORD_LETTERS = 255  # word lengths are stored in one byte
MAX_ALPHABET = 63  # one bit of a 64-bit child mask per letter, one spare
SKIP_EXAMPLES = 5


class WordListError(ValueError):
    """A word list that cannot be used; the message says why."""


@dataclass(frozen=True)
class WordList:
    """A normalised dictionary: unique upper-case words in code-point order."""

    words: tuple[str, ...]
    alphabet: str
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_examples: dict[str, list[str]] = field(default_factory=dict)
    duplicates: int = 0

    @property
    def digest(self) -> str:
        """Return the SHA-256 of the normalised list, which names its compiled trie."""
        return hashlib.sha256("\n".join(self.words).encode()).hexdigest()

    def skipped_report(self) -> str:
        """Return one line per kind of skipped word, with counts and examples (or '')."""
        return _skipped_report(self.skipped, self.skipped_examples)


def _skipped_report(skipped: Counter[str], examples: dict[str, list[str]]) -> str:
    return "\n".join(
        f"skipped {count} word(s) {reason}, e.g. {', '.join(examples[reason])}"
        for reason, count in sorted(skipped.items())
    )


def normalise_word(token: str) -> str:
    """Return a word (or a whole text) as the engine stores it: NFC, upper case."""
    return unicodedata.normalize("NFC", token).upper()


def parse_word_list(text: str, source: str = "word list", alphabet: str | None = None) -> WordList:
    """Return the normalised word list for whitespace-separated words, reporting bad ones.

    With an alphabet, words using any other letter are skipped (and reported) too.
    """
    words: list[str] = []
    skipped: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    allowed = set(normalise_word(alphabet)) if alphabet is not None else None
    tokens = normalise_word(text).split()
    unique = sorted(set(tokens))
    for word in unique:
        reason = None
        if not word.isalpha():
            reason = "with characters that are not letters"
        elif len(word) > MAX_WORD_LETTERS:
            reason = f"longer than {MAX_WORD_LETTERS} letters"
        elif allowed is not None and not allowed.issuperset(word):
            reason = "with letters outside the alphabet"
        if reason:
            skipped[reason] += 1
            shown = examples.setdefault(reason, [])
            if len(shown) < SKIP_EXAMPLES:
                shown.append(word[:40])
            continue
        words.append(word)
    if not words and skipped:
        report = _skipped_report(skipped, examples).replace("\n", "; ")
        raise WordListError(f"{source}: no usable words ({report})")
    if not words:
        raise WordListError(f"{source}: no words found (the dictionary is empty)")
    used = "".join(sorted(set("".join(words))))
    if len(used) > MAX_ALPHABET:
        raise WordListError(
            f"{source}: the words use {len(used)} different letters; at most "
            f"{MAX_ALPHABET} are supported"
        )
    return WordList(tuple(words), used, skipped, examples, len(tokens) - len(unique))


def read_text(path: Path) -> str:
    """Return a word-list file's text: UTF-8 (a BOM is dropped), plain or gzip-compressed."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise WordListError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise WordListError(f"{path}: not a valid gzip file ({exc})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"{path}:{line}: the file is not UTF-8 text") from None


def read_word_list(path: Path) -> WordList:
    """Return the normalised word list in a file."""
    return parse_word_list(read_text(path), str(path))
