"""One seeded job of the board search: hill climbing, iterated local search and annealing.

A job scores neighbours in batches, keeps its few best distinct boards, and stops between
two batches when its budget, deadline or goal is reached or when it is asked to; the
methods are described in :mod:`solver.engine.boardsearch`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.engine.batch import BatchScorer
from solver.engine.boardspaces import (
    Move,
    Space,
    State,
    canonical,
    neighbours_batch,
    symmetries,
)

if TYPE_CHECKING:
    from solver.engine.boardgoals import SearchSpec

# Tuned by the measurements in docs/board-search.md.
CLIMB_BATCH = 16  # neighbours scored per call while climbing (first improvement per batch)
KICK_MOVES = (2, 4)  # random moves that kick a local optimum before the next climb
PATIENCE = 40  # kicks in a row without a better board before a restart from a random one
KNOWN_BOARDS = 250_000  # boards a job remembers the fitness of (about 30 MB), then forgets
ANNEAL_SWEEP_PER_CELL = 2000  # boards scored per sweep, per cell of the board
ANNEAL_T0, ANNEAL_T1 = 0.05, 0.0005  # start and end temperatures, times the objective's scale
ANNEAL_MAX_BATCH = 64

Figures = tuple[int, int, int]  # score, words, long words
Report = Callable[[int, bytes, Figures, int], None]  # best fitness, board, figures; boards


@dataclass(frozen=True)
class JobLimits:
    """When one job stops: boards scored, a monotonic deadline, a goal fitness, CPU seconds."""

    boards: int | None
    deadline: float | None
    goal: int | None
    keep: int = 5
    cpu_seconds: float | None = None  # of this job's own process time


@dataclass(frozen=True)
class JobOutcome:
    """A job's best distinct boards (fitness, board, figures; best first) and its totals."""

    top: list[tuple[int, bytes, Figures]]
    boards: int
    reason: str
    first_goal_s: float | None
    first_goal_cpu_s: float | None = None  # the job's CPU seconds when it reached the goal


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Job:
    """A seeded walk through one space towards one objective."""

    def __init__(
        self, spec: SearchSpec, space: Space, scorer: BatchScorer, seed: int, limits: JobLimits
    ) -> None:
        self.spec, self.space, self.scorer, self.limits = spec, space, scorer, limits
        self.objective = spec.objective
        self.rng = random.Random(seed)
        self.boards = 0
        self.best_fit = -(2**62)
        self.best_state: State | None = None
        self.top: dict[bytes, tuple[int, Figures]] = {}
        self.kth = -(2**62)  # the fitness a board must beat to enter the top
        self.first_goal: float | None = None
        self.first_goal_cpu: float | None = None
        self.cpu_start = time.process_time()
        self._should_stop: Callable[[], bool] = lambda: False
        self.best_figures: Figures = (0, 0, 0)
        self._report: Report = lambda fitness, board, figures, boards: None
        self._checking = True
        # Where restarts got stuck, one key per board and its mirror images and turns.
        self.stuck: set[bytes] = set()
        self.known: dict[bytes, int] = {}  # board -> fitness, of the boards scored lately

    def run(self, should_stop: Callable[[], bool], report: Report) -> JobOutcome:
        """Walk until a limit is reached, improve the best board exhaustively, and return."""
        self._should_stop, self._report = should_stop, report
        self.cpu_start = time.process_time()
        try:
            if self.spec.method == "anneal":
                self._anneal()
            else:
                self._iterated_climb()
            reason = "boards"  # pragma: no cover - the walks only end by stopping
        except _Stop as stop:
            reason = stop.reason
        if reason in ("boards", "seconds") and self.best_state is not None:
            self._checking = False  # the last improvement runs to its end, user stop aside
            try:
                self._climb(self.best_state, self.best_fit)
            except _Stop:
                reason = "stopped"
        top = sorted(self.top.items(), key=lambda kv: (-kv[1][0], kv[0]))
        return JobOutcome(
            [(fit, board, figures) for board, (fit, figures) in top],
            self.boards,
            reason,
            self.first_goal,
            self.first_goal_cpu,
        )

    # Scoring ---------------------------------------------------------------------------

    def _evaluate(self, state: State, moves: list[Move]) -> list[int]:
        """Return the fitness of each neighbour the moves lead to; note the best ones."""
        batch = neighbours_batch(self.space, state, moves)
        return self._score(batch, lambda j: self.space.apply(state, moves[j]))

    def _evaluate_state(self, state: State) -> int:
        """Return the fitness of one board."""
        return self._score(state.board, lambda j: state)[0]

    def _score(self, batch: bytes, state_of: Callable[[int], State]) -> list[int]:
        """Return the fitness of each board of a batch, scoring only those this job has not
        scored before (a kicked walk often climbs back through boards it has seen), and note
        the best new ones."""
        n = self.space.cells
        known = self.known
        if len(known) > KNOWN_BOARDS:
            known.clear()
        boards = [batch[start : start + n] for start in range(0, len(batch), n)]
        fresh = [j for j, board in enumerate(boards) if board not in known]
        if fresh:
            if len(fresh) < len(boards):
                batch = b"".join(boards[j] for j in fresh)
            flat = self.scorer.score(batch)
            fits = self.objective.fitnesses(flat)
            for k, j in enumerate(fresh):
                known[boards[j]] = fits[k]
            self._note(fits, flat, batch, lambda k: state_of(fresh[k]))
        self.boards += len(boards)  # those seen again too: budgets bound the walk itself
        assert self.best_state is not None
        self._report(self.best_fit, self.best_state.board, self.best_figures, self.boards)
        self._check()
        return [known[board] for board in boards]

    def _note(
        self, fits: list[int], flat: Sequence[int], batch: bytes, state_of: Callable[[int], State]
    ) -> None:
        """Keep the best of newly scored boards (a board scored before was noted then)."""
        top = max(fits)
        if top > self.kth:
            n = self.space.cells
            for j, fit in enumerate(fits):
                if fit > self.kth:
                    figures = (flat[3 * j], flat[3 * j + 1], flat[3 * j + 2])
                    self._keep(fit, batch[j * n : (j + 1) * n], figures)
        if top > self.best_fit:
            j = fits.index(top)
            self.best_fit = top
            self.best_state = state_of(j)
            self.best_figures = (flat[3 * j], flat[3 * j + 1], flat[3 * j + 2])
            if self.limits.goal is not None and top >= self.limits.goal and not self.first_goal:
                self.first_goal = time.monotonic()
                self.first_goal_cpu = time.process_time() - self.cpu_start

    def _keep(self, fit: int, board: bytes, figures: Figures) -> None:
        if board in self.top:
            return
        self.top[board] = (fit, figures)
        if len(self.top) > self.limits.keep:
            worst = max(self.top, key=lambda b: (-self.top[b][0], b))
            del self.top[worst]
        if len(self.top) >= self.limits.keep:
            self.kth = min(fit for fit, _ in self.top.values())

    def _check(self) -> None:
        """Stop between batches when a limit is reached or the run is asked to stop."""
        if self._should_stop():
            raise _Stop("stopped")
        if not self._checking:
            return
        limits = self.limits
        if limits.goal is not None and self.best_fit >= limits.goal:
            raise _Stop("goal")
        perfect = self.objective.perfect_fitness()
        if perfect is not None and self.best_fit >= perfect:
            raise _Stop("goal")
        if limits.boards is not None and self.boards >= limits.boards:
            raise _Stop("boards")
        if limits.deadline is not None and time.monotonic() >= limits.deadline:
            raise _Stop("seconds")
        if (
            limits.cpu_seconds is not None
            and time.process_time() - self.cpu_start >= limits.cpu_seconds
        ):
            raise _Stop("seconds")

    # Methods ---------------------------------------------------------------------------

    def _climb(self, state: State, fit: int) -> tuple[State, int]:
        """Return the local optimum a first-improvement climb reaches from a board."""
        random = self.rng.random
        while True:
            moves = self.space.all_moves(state)
            count = len(moves)
            for start in range(0, count, CLIMB_BATCH):
                # Shuffled as far as needed (Fisher-Yates, a batch at a time): a climb step
                # usually ends within its first batches.
                for i in range(start, min(start + CLIMB_BATCH, count)):
                    j = i + int(random() * (count - i))
                    moves[i], moves[j] = moves[j], moves[i]
                chunk = moves[start : start + CLIMB_BATCH]
                fits = self._evaluate(state, chunk)
                top = max(fits)
                if top > fit:
                    state, fit = self.space.apply(state, chunk[fits.index(top)]), top
                    break
            else:
                return state, fit

    def _kick(self, state: State) -> State:
        for _ in range(self.rng.randint(*KICK_MOVES)):
            state = self.space.apply(state, self.space.random_move(state, self.rng))
        return state

    def _iterated_climb(self) -> None:
        """Climb, kick and climb again; restart from a random board when stuck.

        The boards where an earlier restart got stuck (up to mirror images and turns) are
        remembered: a walk that reaches one again restarts at once rather than spend another
        round of kicks where they already failed.
        """
        orders = symmetries(self.space.rows, self.space.cols)
        stuck = self.stuck
        while True:
            state = self.space.random_state(self.rng)
            state, fit = self._climb(state, self._evaluate_state(state))
            if canonical(state.board, orders) in stuck:
                continue
            fails = 0
            while fails < PATIENCE:
                candidate = self._kick(state)
                candidate, cfit = self._climb(candidate, self._evaluate_state(candidate))
                fails = 0 if cfit > fit else fails + 1
                if cfit >= fit:  # equal boards too: drifting along a plateau helps
                    if (
                        candidate.board != state.board
                        and canonical(candidate.board, orders) in stuck
                    ):
                        break
                    state, fit = candidate, cfit
            else:
                stuck.add(canonical(state.board, orders))

    def _anneal(self) -> None:
        """Anneal from random boards, each sweep cooling geometrically, then climbing."""
        scale: float | None = None
        sweep = ANNEAL_SWEEP_PER_CELL * self.space.cells
        while True:
            state = self.space.random_state(self.rng)
            fit = self._evaluate_state(state)
            if scale is None:  # the size of a local optimum's value sets the temperatures
                _, local = self._climb(state, fit)
                scale = max(10.0, float(abs(local)))
            t0, t1 = scale * ANNEAL_T0, max(scale * ANNEAL_T1, 0.1)
            start, rate = self.boards, 0.5
            while self.boards - start < sweep:
                temperature = t0 * math.pow(t1 / t0, (self.boards - start) / sweep)
                size = min(ANNEAL_MAX_BATCH, max(1, round(1 / max(rate, 1e-3))))
                moves = [self.space.random_move(state, self.rng) for _ in range(size)]
                fits = self._evaluate(state, moves)
                tries, accepted = size, 0.0
                for j, cfit in enumerate(fits):
                    if cfit >= fit or self.rng.random() < math.exp((cfit - fit) / temperature):
                        state, fit = self.space.apply(state, moves[j]), cfit
                        tries, accepted = j + 1, 1.0
                        break
                rate = 0.9 * rate + 0.1 * (accepted / tries)
            self._climb(state, fit)
