"""The kernel race behind `manage.py bench_solver`: the kernel frozen at f30852c against this
one, the batch path and optionally boggle-zoo, on the same boards in one run. Figures only."""

from __future__ import annotations

import importlib
import random
import statistics
import struct
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.engine.batch import FIELDS, BatchScorer
from solver.engine.board import Board
from solver.engine.dice import DICE_SETS, DiceSet
from solver.engine.rules import Rules
from solver.engine.search import Solver, face_slot, kernel_for, neighbour_bytes
from solver.engine.trie import Trie

RACE_DICE = ("new16", "big25")  # 4×4 and 5×5
OVERHEAD_BOARDS = 100_000


def cpu_time(action: Callable[[], object]) -> float:
    """Return the CPU time this process spent running action, in seconds.

    CPU time rather than wall time: on a machine shared with other work, time spent waiting
    for a core is not the kernel's.
    """
    started = time.process_time()
    action()
    return time.process_time() - started


def baseline_kernel(trie: Trie) -> Any:
    """Return the kernel as it was at commit f30852c over a trie (benchmark-only module)."""
    from solver.bench.baseline import _kernel_v1  # type: ignore[attr-defined]

    return _kernel_v1.Kernel(
        trie.buffer, trie.nodes_offset, trie.node_count, trie.lengths_offset, len(trie)
    )


@dataclass
class ZooBoggle:
    """danvk's boggle-zoo (popcount-trie branch), built outside the project, for comparison.

    ``directory`` holds its compiled ``cpp_boggle`` module and a dictionary encoded by its
    ``boggle/encode_dict.py`` as ``<dictionary>.bin``. Its boards are lower-case letters with
    ``q`` for the Qu face; it scores 4×4 and 5×5 boards under classic rules.
    """

    directory: Path

    def scorer(self, dictionary: str, rows: int, cols: int) -> Callable[[str], int] | None:
        """Return its score function for a size and dictionary, or None if it has neither."""
        encoded = self.directory / f"{dictionary}.bin"
        if not encoded.is_file():
            return None
        if str(self.directory) not in sys.path:
            sys.path.insert(0, str(self.directory))
        try:
            module = importlib.import_module("cpp_boggle")
        except ImportError as exc:
            raise RuntimeError(
                f"{self.directory}: no boggle-zoo cpp_boggle module there ({exc}); "
                "README.md says how to build it"
            ) from None
        boggler = getattr(module, f"Boggler{rows}{cols}", None)
        if boggler is None:
            return None
        trie = module.CompactTrie.create_from_binary_file(str(encoded))
        self._keep = (trie, boggler(trie))  # the boggler points into the trie
        return self._keep[1].score

    @staticmethod
    def board(board: Board) -> str:
        """Return a board in boggle-zoo's form (cells in our order; a transpose scores alike)."""
        return "".join("q" if face == "QU" else face.lower() for face in board.faces)


@dataclass
class KernelRace:
    """Old and new kernel, the batch path and optionally boggle-zoo on the same boards."""

    dictionary: str
    dice: str
    boards: int
    old_boards_per_s: float
    new_boards_per_s: float
    batch_boards_per_s: float
    zoo_boards_per_s: float | None

    @property
    def ratio(self) -> float:
        """Return new kernel boards/s over old (one call per board for both)."""
        return self.new_boards_per_s / self.old_boards_per_s

    @property
    def batch_ratio(self) -> float:
        """Return batch-path boards/s over the old kernel's."""
        return self.batch_boards_per_s / self.old_boards_per_s


def race_kernels(
    trie: Trie,
    dictionary: str,
    dice: DiceSet,
    boards: int,
    seed: int,
    repeats: int,
    zoo: ZooBoggle | None = None,
) -> KernelRace:
    """Time the old and new kernels, the batch path and boggle-zoo on the same rolled boards.

    Classic rules (words of 3 letters and up) for every size.
    Old and new are called once per board from the same loop with the same prepared cells, so
    their ratio is the kernels' own; the batch path scores all boards in one call. Each repeat
    runs every contender once, in turn; the figure is the median over repeats. Every contender
    must give the same total score, or the race is refused.
    """
    rules = Rules()  # classic, 3 letters and up, for every size: as boggle-zoo scores
    rng = random.Random(seed)
    sample = [dice.roll(rng) for _ in range(boards)]
    rows, cols = sample[0].rows, sample[0].cols
    table = struct.pack("<256i", *rules.score_table())
    nbrs = neighbour_bytes(rows, cols, rules.adjacency)
    cells = [b"".join(face_slot(trie, f) for f in b.faces) for b in sample]
    old, new = baseline_kernel(trie), kernel_for(trie)
    faces = sorted({f for b in sample for f in b.faces})
    scorer = BatchScorer(trie, rules, rows, cols, faces)
    batch = b"".join(scorer.encode(b) for b in sample)
    zoo_score = zoo.scorer(dictionary, rows, cols) if zoo else None
    zoo_boards = [ZooBoggle.board(b) for b in sample] if zoo_score else []

    def run(kernel: Any) -> Callable[[], int]:
        return lambda: sum(kernel.solve(c, nbrs, table, rules.min_length)[1] for c in cells)

    contenders: dict[str, Callable[[], object]] = {
        "old": run(old),
        "new": run(new),
        "batch": lambda: sum(scorer.score(batch)[0::FIELDS]),
    }
    if zoo_score is not None:
        contenders["zoo"] = lambda: sum(map(zoo_score, zoo_boards))
    totals = {name: action() for name, action in contenders.items()}
    if len(set(totals.values())) != 1:
        raise RuntimeError(f"the kernels disagree on {dictionary} {dice.name}: {totals}")
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, action in contenders.items():
            times[name].append(cpu_time(action))
    rate = {name: boards / statistics.median(t) for name, t in times.items()}
    return KernelRace(
        dictionary=dictionary,
        dice=dice.slug,
        boards=boards,
        old_boards_per_s=rate["old"],
        new_boards_per_s=rate["new"],
        batch_boards_per_s=rate["batch"],
        zoo_boards_per_s=rate.get("zoo"),
    )


@dataclass
class Overhead:
    """What one board costs beyond its search, in microseconds."""

    batch_us: float
    solve_call_us: float


def per_board_overhead(trie: Trie, rows: int, cols: int, boards: int, repeats: int) -> Overhead:
    """Measure the cost of a board on which the search has nothing to do.

    The boards are all blanks, so the search stops at every cell at once: what remains is the
    per-board cost of each path (for the batch: reading the board's bytes, preparing its
    cells, writing three numbers; for solve_ids: the Python call, its arguments and answer).
    """
    rules = Rules()
    scorer = BatchScorer(trie, rules, rows, cols, ["", "A"])
    blanks = bytes(rows * cols * boards)
    solver = Solver(trie, rules)
    board = Board(rows, cols, ("",) * (rows * cols))
    batch = statistics.median(cpu_time(lambda: scorer.score(blanks)) for _ in range(repeats))
    calls = statistics.median(
        cpu_time(lambda: [solver.solve_ids(board) for _ in range(boards)]) for _ in range(repeats)
    )
    return Overhead(batch_us=batch / boards * 1e6, solve_call_us=calls / boards * 1e6)


@dataclass
class RaceReport:
    """Every race of one benchmark run, and the per-board overhead (None without a race)."""

    races: list[KernelRace]
    overhead: Overhead | None


def run_races(
    dictionaries: Sequence[tuple[str, Trie]],
    boards: int,
    seed: int,
    repeats: int,
    zoo: ZooBoggle | None = None,
) -> RaceReport:
    """Race on each dictionary with 4×4 boards (``boards`` of them) and 5×5 (a quarter)."""
    races = [
        race_kernels(trie, name, DICE_SETS[dice], count, seed, repeats, zoo)
        for name, trie in dictionaries
        for dice, count in zip(RACE_DICE, (boards, max(boards // 4, 1)), strict=True)
    ]
    overhead = (
        per_board_overhead(dictionaries[0][1], 4, 4, OVERHEAD_BOARDS, repeats)
        if dictionaries
        else None
    )
    return RaceReport(races, overhead)
