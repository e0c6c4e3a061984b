"""What a board search is after, and what it answers: objectives, the kind of board,
limits, progress and results (values shared by the search, its jobs and its callers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.engine.batch import BatchScorer
from solver.engine.board import Board
from solver.engine.boardspaces import DiceSpace, FreeSpace, Space, free_faces
from solver.engine.dice import DiceSet
from solver.engine.rules import Rules
from solver.engine.trie import Trie

OBJECTIVES = ("max-score", "min-score", "most-words", "most-long-words", "target")
METHODS = ("climb", "anneal")
DEFAULT_METHOD = "climb"
MAX_SEARCH_CELLS = 100  # 10×10; larger boards are solvable but too slow to search


class SearchError(ValueError):
    """A search that cannot be run as asked: the message says why."""


class VerificationError(RuntimeError):
    """The batch scorer and the pure-Python reference disagree on a board."""


@dataclass(frozen=True, slots=True)
class Objective:
    """What a search is after; ``parameter`` is the target score or the long-word length."""

    name: str
    parameter: int = 0

    def __post_init__(self) -> None:
        if self.name not in OBJECTIVES:
            raise SearchError(
                f"objective must be one of {', '.join(OBJECTIVES)}, not {self.name!r}"
            )
        if self.name == "target" and self.parameter < 0:
            raise SearchError(f"a target score cannot be negative ({self.parameter})")
        if self.name == "most-long-words" and self.parameter < 1:
            raise SearchError("most-long-words needs a word length of at least 1 letter")

    @property
    def lower_is_better(self) -> bool:
        """Return whether a smaller value is a better board (lowest score, distance)."""
        return self.name in ("min-score", "target")

    @property
    def long_length(self) -> int:
        """Return the least letters of a long word the scorer must count (0: none)."""
        return self.parameter if self.name == "most-long-words" else 0

    def value(self, score: int, words: int, long_words: int) -> int:
        """Return the objective's measure of a board (the target's: distance to it)."""
        if self.name in ("max-score", "min-score"):
            return score
        if self.name == "most-words":
            return words
        if self.name == "most-long-words":
            return long_words
        return abs(score - self.parameter)

    def fitness(self, value: int) -> int:
        """Return a value as the number the search maximises."""
        return -value if self.lower_is_better else value

    def fitnesses(self, flat: Sequence[int]) -> list[int]:
        """Return the fitness of every board of a scored batch (score, words, long; flat)."""
        scores = flat[0::3]
        if self.name == "max-score":
            return list(scores)
        if self.name == "min-score":
            return [-s for s in scores]
        if self.name == "most-words":
            return list(flat[1::3])
        if self.name == "most-long-words":
            return list(flat[2::3])
        target = self.parameter
        return [-abs(s - target) for s in scores]

    def perfect_fitness(self) -> int | None:
        """Return a fitness no board can beat, when one is known (0 for a hit target)."""
        return 0 if self.lower_is_better else None


@dataclass(frozen=True)
class SearchSpec:
    """The kind of board searched: dictionary, rules, space (dice, or rows×cols) and objective."""

    trie: Trie
    rules: Rules
    objective: Objective
    dice: DiceSet | None = None
    rows: int = 4
    cols: int = 4
    method: str = DEFAULT_METHOD

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise SearchError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        rows, cols = (self.dice.rows, self.dice.cols) if self.dice else (self.rows, self.cols)
        if rows < 1 or cols < 1:
            raise SearchError(f"a board needs at least 1 row and 1 column, not {rows}×{cols}")
        if rows * cols > MAX_SEARCH_CELLS:
            raise SearchError(
                f"a searched board has at most {MAX_SEARCH_CELLS} cells, not {rows}×{cols}"
            )

    def space(self) -> Space:
        """Return the space the search walks."""
        if self.dice is not None:
            return DiceSpace(self.dice)
        return FreeSpace(self.rows, self.cols, free_faces(self.trie))

    def scorer(self, space: Space) -> BatchScorer:
        """Return the batch scorer for this kind of board."""
        return BatchScorer(
            self.trie,
            self.rules,
            space.rows,
            space.cols,
            space.faces,
            long_length=self.objective.long_length,
        )


@dataclass(frozen=True)
class SearchLimits:
    """When a run stops, and how it is split: seed, jobs, boards, seconds, goal value."""

    seed: int
    jobs: int = 1
    boards: int | None = None  # boards scored in all, split between the jobs
    seconds: float | None = None
    cpu_seconds: float | None = None  # each job's own CPU seconds (load-independent budgets)
    goal: int | None = None  # stop once a board's value reaches this
    keep: int = 5  # how many distinct best boards to return

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise SearchError(f"jobs must be at least 1, not {self.jobs}")
        if self.boards is None and self.seconds is None and self.cpu_seconds is None:
            raise SearchError("a search needs a limit: a number of boards or of seconds")
        if self.boards is not None and self.boards < 1:
            raise SearchError(f"the board budget must be at least 1, not {self.boards}")
        if self.seconds is not None and self.seconds <= 0:
            raise SearchError(f"the time limit must be positive, not {self.seconds}")
        if self.cpu_seconds is not None and self.cpu_seconds <= 0:
            raise SearchError(f"the CPU time limit must be positive, not {self.cpu_seconds}")


@dataclass(frozen=True)
class Found:
    """A board a search found, with the reference's figures for it."""

    board: Board
    score: int
    words: int
    long_words: int
    value: int


@dataclass(frozen=True)
class Progress:
    """How a run is going: the best board so far and the pace."""

    best_value: int
    best_board: Board
    score: int
    words: int
    long_words: int
    boards: int
    elapsed: float

    @property
    def boards_per_s(self) -> float:
        """Return boards scored per second so far."""
        return self.boards / self.elapsed if self.elapsed > 0 else 0.0


@dataclass(frozen=True)
class SearchResult:
    """The best boards of a run (best first, verified), and how the run went."""

    found: list[Found]
    boards: int
    elapsed: float
    reason: str  # "boards", "seconds", "goal" or "stopped"
    seeds: list[int] = field(default_factory=list)
    first_goal_s: float | None = None  # when a board first reached the goal
    # the CPU seconds the job that first reached the goal had used by then: on an idle machine
    # with a core per job, about the wall time to the goal
    first_goal_cpu_s: float | None = None

    @property
    def best(self) -> Found:
        """Return the best board."""
        return self.found[0]
