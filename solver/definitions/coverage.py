"""How many of the words that turn up on boards get a definition (`manage.py
definitions_coverage`): each word weighted by the number of boards it appears on."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.engine.board import Board
from solver.engine.definitions import define
from solver.engine.glossary import Glossary
from solver.engine.search import Solver


@dataclass(frozen=True)
class Coverage:
    """Word appearances over a set of boards, and how many of them have a definition."""

    boards: int
    appearances: int
    defined_appearances: int
    words: int
    defined_words: int
    undefined: tuple[tuple[str, int], ...]  # the most frequent words without one
    lookup_us: float  # mean time to define one word, in microseconds

    @property
    def weighted(self) -> float:
        """Return the share of word appearances with a definition, in percent."""
        return 100 * self.defined_appearances / self.appearances if self.appearances else 0.0

    @property
    def distinct(self) -> float:
        """Return the share of distinct words with a definition, in percent."""
        return 100 * self.defined_words / self.words if self.words else 0.0


def coverage_measure(
    *,
    solver: Solver,
    boards: Sequence[Board],
    glossaries: Sequence[Glossary],
    undefined_shown: int = 20,
) -> Coverage:
    """Return the definition coverage of the words a solver finds on the boards."""
    counts: Counter[str] = Counter()
    for board in boards:
        counts.update(solver.solve(board).words)
    started = time.perf_counter()
    defined = {word: define(word, glossaries) is not None for word in counts}
    elapsed = time.perf_counter() - started
    undefined = Counter({w: n for w, n in counts.items() if not defined[w]})
    return Coverage(
        boards=len(boards),
        appearances=sum(counts.values()),
        defined_appearances=sum(n for w, n in counts.items() if defined[w]),
        words=len(counts),
        defined_words=sum(defined.values()),
        undefined=tuple(_most_common(undefined, undefined_shown)),
        lookup_us=1e6 * elapsed / len(counts) if counts else 0.0,
    )


def _most_common(counts: Counter[str], n: int) -> Iterable[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]
