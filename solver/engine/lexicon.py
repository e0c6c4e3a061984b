"""Lexicons answer WORD, PREFIX or NOT_WORD for a string (seed 004's wordStatus)."""

from __future__ import annotations

import bisect
import enum
from collections.abc import Iterable
from typing import Protocol


class Status(enum.Enum):
    """What a string is to a lexicon."""

    NOT_WORD = "not_word"
    PREFIX = "prefix"
    WORD = "word"


class Lexicon(Protocol):
    """Anything that can say whether a string is a word or begins one."""

    def status(self, text: str) -> Status: ...


class SortedLexicon:
    """A lexicon over a sorted list, answering by binary search (the trie's test oracle)."""

    def __init__(self, words: Iterable[str]) -> None:
        self._words = sorted({w.upper() for w in words})

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.status(word) is Status.WORD

    def status(self, text: str) -> Status:
        """Return WORD if text is a word, PREFIX if it only begins one, else NOT_WORD."""
        text = text.upper()
        i = bisect.bisect_left(self._words, text)
        if i < len(self._words) and self._words[i] == text:
            return Status.WORD
        if i < len(self._words) and self._words[i].startswith(text):
            return Status.PREFIX
        return Status.NOT_WORD
