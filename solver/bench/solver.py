"""The solver benchmark behind `manage.py bench_solver`: figures, never pass/fail timings."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from solver.engine.board import Board
from solver.engine.dice import DiceSet, random_letter_board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie, build_trie
from solver.engine.wordlist import WordList


def median_time(action: Callable[[], object], repeats: int) -> float:
    """Return the median wall time of running action, in seconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


@dataclass
class BenchResult:
    """Figures from one benchmark run."""

    kernel_boards_per_s: float
    reference_boards_per_s: float
    reference_boards: int
    mismatches: int
    words_per_board: float
    points_per_board: float
    dictionary_build_s: float
    dictionary_load_s: float
    dictionary_bytes: int
    big_board_ms: float

    @property
    def ratio(self) -> float:
        """Return how many times faster the kernel is than the reference."""
        return self.kernel_boards_per_s / self.reference_boards_per_s


def run_bench(
    word_list: Callable[[], WordList],
    compiled: Path,
    dice: DiceSet,
    boards: int,
    seed: int,
    reference_boards: int,
    repeats: int = 5,
) -> BenchResult:
    """Measure dictionary build and load, kernel and reference speed on the same boards."""
    rules = Rules()
    build_s = median_time(lambda: build_trie(word_list()), 1)
    # Ready to use: mapped, and every node checked by the kernel (which touches every page).
    load_s = median_time(lambda: Solver(Trie.load(compiled), rules), max(repeats, 5))
    trie = Trie.load(compiled)
    kernel, reference = Solver(trie, rules), Solver(trie, rules, use_kernel=False)
    if not kernel.uses_kernel:
        raise RuntimeError("the compiled kernel is not built: run `make build`")

    rng = random.Random(seed)
    sample = [dice.roll(rng) for _ in range(boards)]
    kernel_s = median_time(lambda: [kernel.solve_ids(b) for b in sample], repeats)
    checked = sample[:reference_boards]
    reference_s = median_time(lambda: [reference.solve_reference(b) for b in checked], 1)

    mismatches = sum(kernel.solve(b).ids != reference.solve_reference(b).ids for b in checked)
    answers = [kernel.solve_ids(b) for b in sample]
    words = sum(len(ids) // 4 for ids, _ in answers) / boards
    points = sum(score for _, score in answers) / boards

    big = [random_letter_board(10, 10, rng) for _ in range(50)]
    big_s = statistics.median(median_time(partial(kernel.solve_ids, b), 3) for b in big)
    return BenchResult(
        kernel_boards_per_s=boards / kernel_s,
        reference_boards_per_s=len(checked) / reference_s,
        reference_boards=len(checked),
        mismatches=mismatches,
        words_per_board=words,
        points_per_board=points,
        dictionary_build_s=build_s,
        dictionary_load_s=load_s,
        dictionary_bytes=trie.nbytes,
        big_board_ms=big_s * 1000,
    )


def best_board(boards: Sequence[Board], scores: Sequence[int]) -> tuple[int, Board]:
    """Return the index and board with the highest score (the first if tied)."""
    index = max(range(len(boards)), key=lambda i: (scores[i], -i))
    return index, boards[index]
