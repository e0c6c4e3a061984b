"""Board search: the best board for an objective, over rolls of a dice set or free faces.

One job is a seeded walk (``random.Random``) that scores its neighbours in batches through
:class:`~solver.engine.batch.BatchScorer`. Two methods (docs/board-search.md compares them):

- ``climb``: iterated local search. Hill-climb from a random board (first improvement over
  the whole neighbourhood in shuffled batches) to a local optimum, then kick it with a few
  random moves and climb again, keeping the result when it is no worse; restart from a new
  random board after a number of kicks in a row that found nothing better.
- ``anneal``: simulated annealing from random boards, cooling geometrically over a sweep,
  each sweep ending in the same hill climb.

Every job ends with an exhaustive local improvement of its best board. Jobs run in
processes (forked, so they share the memory-mapped trie), each with its own seed derived
from the run's. A run stops at its board budget, its time limit, its goal value, or when
asked between two batches; the best boards are then checked by the pure-Python reference.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import queue
import signal
import time
import traceback
from collections.abc import Callable

from solver.engine.boardgoals import (
    DEFAULT_METHOD,
    MAX_SEARCH_CELLS,
    METHODS,
    OBJECTIVES,
    Found,
    Objective,
    Progress,
    SearchError,
    SearchLimits,
    SearchResult,
    SearchSpec,
    VerificationError,
)
from solver.engine.boardspaces import Space
from solver.engine.boardwalk import Figures, Job, JobLimits, JobOutcome, Report
from solver.engine.search import Solver

__all__ = [
    "DEFAULT_METHOD",
    "MAX_SEARCH_CELLS",
    "METHODS",
    "OBJECTIVES",
    "Found",
    "Objective",
    "Progress",
    "SearchError",
    "SearchLimits",
    "SearchResult",
    "SearchSpec",
    "VerificationError",
    "default_jobs",
    "job_seed",
    "search",
]

PROGRESS_EVERY_S = 1.0
_JOB_REPORT_EVERY_S = 0.25


def job_seed(seed: int, job: int) -> int:
    """Return job k's seed: the run's own for job 0, a hash of (seed, k) for the others."""
    if job == 0:
        return seed
    digest = hashlib.sha256(f"{seed}/{job}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _budgets(boards: int | None, jobs: int) -> list[int | None]:
    if boards is None:
        return [None] * jobs
    return [boards // jobs + (k < boards % jobs) for k in range(jobs)]


def search(
    spec: SearchSpec,
    limits: SearchLimits,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    progress_every: float = PROGRESS_EVERY_S,
) -> SearchResult:
    """Return the best boards a seeded search finds within its limits, verified.

    ``should_stop`` is asked between batches (jobs=1) or every few hundredths of a second;
    ``on_progress`` is called about every ``progress_every`` seconds and once at the end.
    """
    space = spec.space()
    if not space.has_neighbours():
        raise SearchError("there is only one board of this kind: nothing to search")
    started = time.monotonic()
    deadline = started + limits.seconds if limits.seconds is not None else None
    goal = spec.objective.fitness(limits.goal) if limits.goal is not None else None
    seeds = [job_seed(limits.seed, k) for k in range(limits.jobs)]
    budgets = _budgets(limits.boards, limits.jobs)
    reporter = _Reporter(spec, space, started, on_progress, progress_every)
    job_limits = [
        JobLimits(budget, deadline, goal, limits.keep, limits.cpu_seconds) for budget in budgets
    ]
    if limits.jobs == 1:
        job = Job(spec, space, spec.scorer(space), seeds[0], job_limits[0])
        outcomes = [job.run(should_stop or (lambda: False), reporter.job_report(0))]
    else:
        outcomes = _run_processes(spec, space, seeds, job_limits, reporter, should_stop)
    elapsed = time.monotonic() - started
    found = _verified(spec, space, outcomes, limits.keep)
    boards = sum(o.boards for o in outcomes)
    reporter.final(found[0], boards, elapsed)
    reasons = {o.reason for o in outcomes}
    reason = next((r for r in ("stopped", "goal", "seconds") if r in reasons), "boards")
    goal_times = [o.first_goal_s for o in outcomes if o.first_goal_s is not None]
    goal_cpus = [o.first_goal_cpu_s for o in outcomes if o.first_goal_cpu_s is not None]
    return SearchResult(
        found,
        boards,
        elapsed,
        reason,
        seeds,
        (min(goal_times) - started) if goal_times else None,
        min(goal_cpus) if goal_cpus else None,
    )


class _Reporter:
    """Merges the jobs' reports into one Progress, passed on at most every few moments."""

    def __init__(
        self,
        spec: SearchSpec,
        space: Space,
        started: float,
        on_progress: Callable[[Progress], None] | None,
        every: float,
    ) -> None:
        self.spec, self.space, self.started = spec, space, started
        self.on_progress, self.every = on_progress, every
        self.best: tuple[int, bytes, Figures] | None = None
        self.boards: dict[int, int] = {}
        self.last = 0.0

    def job_report(self, job: int) -> Report:
        """Return the report callback of one job."""

        def report(fitness: int, board: bytes, figures: Figures, boards: int) -> None:
            self.update(job, fitness, board, figures, boards)

        return report

    def update(self, job: int, fitness: int, board: bytes, figures: Figures, boards: int) -> None:
        """Take one job's report in, and pass the whole on when it is time."""
        self.boards[job] = boards
        if self.best is None or fitness > self.best[0]:
            self.best = (fitness, board, figures)
        now = time.monotonic()
        if self.on_progress is not None and now - self.last >= self.every:
            self.last = now
            fitness, best, (score, words, long_words) = self.best
            self.on_progress(
                Progress(
                    self.spec.objective.fitness(fitness),  # fitness ↔ value is its own inverse
                    self.space.to_board(best),
                    score,
                    words,
                    long_words,
                    sum(self.boards.values()),
                    now - self.started,
                )
            )

    def final(self, best: Found, boards: int, elapsed: float) -> None:
        """Pass on the verified best board once the run is over."""
        if self.on_progress is not None:
            self.on_progress(
                Progress(
                    best.value,
                    best.board,
                    best.score,
                    best.words,
                    best.long_words,
                    boards,
                    elapsed,
                )
            )


def _verified(spec: SearchSpec, space: Space, outcomes: list[JobOutcome], keep: int) -> list[Found]:
    """Return the best distinct boards of all jobs, each checked by the pure-Python reference."""
    ranked: dict[bytes, tuple[int, int, tuple[int, int, int]]] = {}
    for job, outcome in enumerate(outcomes):
        for fitness, encoded, figures in outcome.top:
            if encoded not in ranked or ranked[encoded][1] > job:
                ranked[encoded] = (fitness, job, figures)
    order = sorted(ranked.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))[:keep]
    reference = Solver(spec.trie, spec.rules, use_kernel=False)
    found = []
    for encoded, (_, _, (score, words, long_words)) in order:
        board = space.to_board(encoded)
        solution = reference.solve_reference(board)
        length = spec.objective.long_length
        ref_long = sum(len(w) >= length for w in solution.words) if length else 0
        if (solution.score, len(solution), ref_long) != (score, words, long_words):
            raise VerificationError(
                f"{board.to_rows()}: the batch scorer says {score} points, {words} words, "
                f"the reference {solution.score} points, {len(solution)} words"
            )
        value = spec.objective.value(score, words, long_words)
        found.append(Found(board, score, words, long_words, value))
    return found


def _run_processes(
    spec: SearchSpec,
    space: Space,
    seeds: list[int],
    limits: list[JobLimits],
    reporter: _Reporter,
    should_stop: Callable[[], bool] | None,
) -> list[JobOutcome]:
    """Run one job per process and gather their outcomes (in job order)."""
    context = multiprocessing.get_context("fork")  # children share the mapped trie's pages
    stop = context.Event()
    messages: multiprocessing.Queue[tuple[object, ...]] = context.Queue()
    processes = []
    goal = limits[0].goal
    for k, (seed, job_limits) in enumerate(zip(seeds, limits, strict=True)):
        process = context.Process(
            target=_job_process,
            args=(spec, space, seed, job_limits, k, stop, messages),
            daemon=True,
        )
        process.start()
        processes.append(process)
    outcomes: dict[int, JobOutcome] = {}
    error: str | None = None
    try:
        while len(outcomes) < len(processes) and error is None:
            if should_stop is not None and should_stop():
                stop.set()
            try:
                message = messages.get(timeout=0.05)
            except queue.Empty:
                if not any(p.is_alive() for p in processes) and messages.empty():
                    error = "a search process ended without a result"
                continue
            kind, job = message[0], int(message[1])  # type: ignore[call-overload]
            if kind == "report":
                fitness, board, figures, boards = message[2:]
                reporter.update(job, fitness, board, figures, boards)  # type: ignore[arg-type]
                if goal is not None and fitness >= goal:  # type: ignore[operator]
                    stop.set()
            elif kind == "done":
                outcomes[job] = message[2]  # type: ignore[assignment]
                if outcomes[job].reason == "goal":
                    stop.set()
            else:
                error = str(message[2])
    finally:
        stop.set()
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    if error is not None:
        raise RuntimeError(f"board search job failed: {error}")
    return [outcomes[k] for k in range(len(processes))]


def _job_process(
    spec: SearchSpec,
    space: Space,
    seed: int,
    limits: JobLimits,
    job: int,
    stop: multiprocessing.synchronize.Event,
    messages: multiprocessing.Queue[tuple[object, ...]],
) -> None:
    """Run one job in a child process and send its reports and outcome to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    last = [0.0]

    def report(fitness: int, board: bytes, figures: Figures, boards: int) -> None:
        now = time.monotonic()
        reached = limits.goal is not None and fitness >= limits.goal
        if now - last[0] >= _JOB_REPORT_EVERY_S or reached:
            last[0] = now
            messages.put(("report", job, fitness, board, figures, boards))

    try:
        outcome = Job(spec, space, spec.scorer(space), seed, limits).run(stop.is_set, report)
        messages.put(("done", job, outcome))
    except BaseException:  # noqa: BLE001 - the parent reports it
        messages.put(("error", job, traceback.format_exc()))
    finally:
        messages.close()
        messages.join_thread()
        os._exit(0)


def default_jobs() -> int:
    """Return the number of processes a search uses unless told: every core."""
    return os.cpu_count() or 1
