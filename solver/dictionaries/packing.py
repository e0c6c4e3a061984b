"""The stored form of a dictionary's words, and its effective list (base + extras − exclusions)."""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Sequence

from solver.engine.wordlist import WordList


def words_pack(words: Iterable[str]) -> bytes:
    """Return normalised words as stored: one a line, UTF-8, gzip (the same bytes every time)."""
    return gzip.compress("\n".join(words).encode(), compresslevel=6, mtime=0)


def words_unpack(blob: bytes | memoryview) -> list[str]:
    """Return the words of a stored list, in their stored (code-point) order."""
    text = gzip.decompress(bytes(blob)).decode()
    return text.split("\n") if text else []


def words_effective(
    base: Sequence[str], extras: Iterable[str], excluded: Iterable[str]
) -> WordList:
    """Return the list games use: the base words plus the extras, minus the exclusions."""
    drop = set(excluded)
    add = set(extras)
    if drop or add:
        words: Sequence[str] = sorted((set(base) - drop) | add)
    else:
        words = base  # already sorted and unique: the common case costs no copy
    return WordList(tuple(words), "".join(sorted(set("".join(words)))))
