"""Everyday-word dictionaries: keep the words of a list that are common enough.

A word is kept when its Zipf figure (solver.engine.commonness) reaches the threshold and it has at
least the minimum number of letters. This module only computes the cut and what it drops;
solver.everyday.services stores it as a dictionary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.engine.commonness import commonness
from solver.engine.wordlist import WordList

MAX_ZIPF = 8.0  # the Zipf scale runs from 0 (never seen) to about 8 (no word reaches it)
EXAMPLES = 20  # how many words each list of examples shows


@dataclass(frozen=True)
class EverydayCut:
    """The words a threshold keeps, and examples of what it drops, for the admin to judge."""

    threshold: float
    min_length: int
    kept: WordList
    dropped_rare: int  # long enough, but below the threshold
    dropped_short: int  # shorter than the minimum length, however common
    most_common_dropped: list[tuple[str, float]]  # the dropped words closest to the cut
    rare_dropped: list[tuple[str, float]]  # dropped words spread over the alphabet
    least_common_kept: list[tuple[str, float]]  # the kept words closest to the cut

    @property
    def kept_count(self) -> int:
        """Return how many words the cut keeps."""
        return len(self.kept.words)

    @property
    def total(self) -> int:
        """Return how many words the list had before the cut."""
        return self.kept_count + self.dropped

    @property
    def dropped(self) -> int:
        """Return how many words the cut drops in all."""
        return self.dropped_rare + self.dropped_short


def everyday_cut(
    words: Sequence[str],
    *,
    threshold: float,
    min_length: int = 1,
    zipf: Callable[[str], float] = commonness,
    examples: int = EXAMPLES,
) -> EverydayCut:
    """Return the cut of a sorted, normalised list at a Zipf threshold and minimum length.

    The examples are chosen without chance: the most common dropped words (highest Zipf,
    then alphabetical), the least common kept ones, and words evenly spaced through the
    alphabetical list of the words the threshold drops.
    """
    kept: list[str] = []
    kept_zipf: list[tuple[float, str]] = []
    rare: list[tuple[str, float]] = []
    short = 0
    for word in words:
        if len(word) < min_length:
            short += 1
            continue
        figure = zipf(word)
        if figure >= threshold:
            kept.append(word)
            kept_zipf.append((figure, word))
        else:
            rare.append((word, figure))
    most_common = sorted(rare, key=lambda wz: (-wz[1], wz[0]))[:examples]
    least_kept = [(w, z) for z, w in sorted(kept_zipf)[:examples]]
    return EverydayCut(
        threshold=threshold,
        min_length=min_length,
        kept=WordList(tuple(kept), "".join(sorted(set("".join(kept))))),
        dropped_rare=len(rare),
        dropped_short=short,
        most_common_dropped=most_common,
        rare_dropped=_evenly_spaced(rare, examples),
        least_common_kept=least_kept,
    )


def everyday_source(base: str, threshold: float, min_length: int) -> str:
    """Return how a derived dictionary was made, as its source field says it."""
    return f"derived from {base}, Zipf ≥ {threshold:g}, min length {min_length}"


def _evenly_spaced(items: Sequence[tuple[str, float]], count: int) -> list[tuple[str, float]]:
    """Return up to `count` items spread evenly from the first to near the last."""
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]
