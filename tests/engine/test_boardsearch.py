"""The board search: results the reference agrees with, seeds that reproduce, rollable dice
boards, each objective against a brute force over every 2×2 board, stopping on request."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.engine.board import Board
from solver.engine.boardsearch import (
    Objective,
    Progress,
    SearchError,
    SearchLimits,
    SearchSpec,
    job_seed,
    search,
)
from solver.engine.boardspaces import (
    DiceSpace,
    FreeSpace,
    State,
    canonical,
    free_faces,
    neighbours_batch,
    symmetries,
)
from solver.engine.boardwalk import Job, JobLimits
from solver.engine.dice import DiceSet
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie
from tests.engine.conftest import trie_of

WORDS = (
    "rate tear tare east seat eats rats star tsar arts rest set sat tea eat ate are ear era "
    "tar rat art stare tears rates aster treat qua quart quarts squat"
)
TINY_DICE = DiceSet(
    "tiny",
    "Tiny 2×2",
    2,
    2,
    (("A", "E", "S", "T"), ("R", "T", "A", "A"), ("S", "QU", "E", "A"), ("T", "R", "S", "E")),
)
RULES = Rules()


@pytest.fixture(scope="module")
def trie() -> Trie:
    return trie_of(*WORDS.split())


def figures(trie: Trie, board: Board, long_length: int = 0) -> tuple[int, int, int]:
    """Return score, words and long words of a board by the pure-Python reference."""
    solution = Solver(trie, RULES, use_kernel=False).solve_reference(board)
    long_words = sum(len(w) >= long_length for w in solution.words) if long_length else 0
    return solution.score, len(solution), long_words


def every_board(trie: Trie, rows: int = 2, cols: int = 2) -> list[Board]:
    faces = free_faces(trie)
    return [Board(rows, cols, cells) for cells in itertools.product(faces, repeat=rows * cols)]


def free_spec(trie: Trie, objective: Objective, size: int = 2, method: str = "climb") -> SearchSpec:
    return SearchSpec(trie, RULES, objective, rows=size, cols=size, method=method)


def test_free_faces_are_the_dictionarys_letters_with_qu_for_q(trie: Trie) -> None:
    assert free_faces(trie) == ("A", "E", "QU", "R", "S", "T", "U")


@pytest.mark.parametrize("method", ["climb", "anneal"])
def test_a_searchs_best_boards_are_what_the_reference_says(trie: Trie, method: str) -> None:
    result = search(free_spec(trie, Objective("max-score"), 3, method), SearchLimits(3, boards=400))
    assert result.found
    for item in result.found:
        assert (item.score, item.words, item.long_words) == figures(trie, item.board)
        assert item.value == item.score
    values = [item.value for item in result.found]
    assert values == sorted(values, reverse=True)
    assert len({item.board for item in result.found}) == len(result.found)


@pytest.mark.parametrize("method", ["climb", "anneal"])
def test_the_same_seed_and_board_budget_give_the_same_run(trie: Trie, method: str) -> None:
    spec = free_spec(trie, Objective("most-words"), 3, method)
    first = search(spec, SearchLimits(11, boards=600))
    again = search(spec, SearchLimits(11, boards=600))
    assert [(f.board, f.value) for f in first.found] == [(f.board, f.value) for f in again.found]
    assert first.boards == again.boards >= 600
    assert first.reason == "boards"


def test_jobs_run_in_processes_each_with_its_own_seed_and_reproduce(trie: Trie) -> None:
    spec = free_spec(trie, Objective("max-score"), 3)
    first = search(spec, SearchLimits(5, jobs=2, boards=400))
    again = search(spec, SearchLimits(5, jobs=2, boards=400))
    assert first.seeds == [5, job_seed(5, 1)] and job_seed(5, 1) != 5
    assert [(f.board, f.value) for f in first.found] == [(f.board, f.value) for f in again.found]
    assert first.boards >= 400
    for item in first.found:
        assert item.score == figures(trie, item.board)[0]


def rollable(dice: DiceSet, board: Board) -> bool:
    """Return whether some assignment of the dice to the cells shows the board (brute force)."""
    return any(
        all(face in die for face, die in zip(board.faces, order, strict=True))
        for order in itertools.permutations(dice.dice)
    )


def test_every_board_of_the_dice_space_can_be_rolled() -> None:
    space = DiceSpace(TINY_DICE)
    rng = random.Random(4)
    state = space.random_state(rng)
    for _ in range(300):
        assert sorted(state.dice) == list(range(4))
        for cell in range(4):  # each cell shows a side of the die the state puts there
            assert state.board[cell] == space.sides[state.dice[cell]][state.sides[cell]]
            assert space.faces[state.board[cell]] in TINY_DICE.dice[state.dice[cell]]
        assert rollable(TINY_DICE, space.to_board(state.board))
        moves = space.all_moves(state)
        assert all(rollable(TINY_DICE, space.to_board(space.apply(state, m).board)) for m in moves)
        state = space.apply(state, space.random_move(state, rng))


def test_a_dice_search_finds_the_best_roll(trie: Trie) -> None:
    spec = SearchSpec(trie, RULES, Objective("max-score"), dice=TINY_DICE)
    result = search(spec, SearchLimits(2, boards=300))
    rolls = {
        Board(2, 2, faces)
        for order in itertools.permutations(TINY_DICE.dice)
        for faces in itertools.product(*order)
    }
    best = max(figures(trie, board)[0] for board in rolls)
    assert rollable(TINY_DICE, result.best.board)
    assert result.best.score == best


@pytest.mark.parametrize(
    ("objective", "measure", "lower"),
    [
        (Objective("max-score"), lambda f: f[0], False),
        (Objective("min-score"), lambda f: f[0], True),
        (Objective("most-words"), lambda f: f[1], False),
        (Objective("most-long-words", 5), lambda f: f[2], False),
    ],
    ids=["max-score", "min-score", "most-words", "most-long-words"],
)
def test_each_objective_reaches_the_brute_force_optimum_on_2x2(
    trie: Trie, objective: Objective, measure: object, lower: bool
) -> None:
    values = [measure(figures(trie, b, objective.long_length)) for b in every_board(trie)]  # type: ignore[operator]
    best = min(values) if lower else max(values)
    result = search(free_spec(trie, objective), SearchLimits(1, boards=1500))
    assert result.best.value == best
    assert result.best.value == measure(  # type: ignore[operator]
        figures(trie, result.best.board, objective.long_length)
    )


def test_a_target_score_is_hit_exactly(trie: Trie) -> None:
    scores = sorted({figures(trie, b)[0] for b in every_board(trie)})
    target = scores[len(scores) // 2]
    result = search(free_spec(trie, Objective("target", target)), SearchLimits(1, boards=5000))
    assert result.best.score == target and result.best.value == 0
    assert result.reason == "goal"


def test_a_goal_value_ends_the_run_once_reached(trie: Trie) -> None:
    result = search(
        free_spec(trie, Objective("max-score"), 3), SearchLimits(1, boards=10**6, goal=5)
    )
    assert result.reason == "goal"
    assert result.best.value >= 5
    assert result.first_goal_s is not None


def test_a_stop_request_returns_the_best_board_so_far(trie: Trie) -> None:
    asked = []

    def should_stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    spec = free_spec(trie, Objective("max-score"), 3)
    result = search(spec, SearchLimits(1, boards=10**9), should_stop=should_stop)
    assert result.reason == "stopped"
    assert result.boards < 500
    assert result.best.score == figures(trie, result.best.board)[0]


def test_progress_reports_the_best_so_far_and_the_pace(trie: Trie) -> None:
    seen: list[Progress] = []
    spec = free_spec(trie, Objective("max-score"), 3)
    result = search(spec, SearchLimits(1, boards=300), on_progress=seen.append, progress_every=0)
    assert len(seen) > 2
    assert [p.boards for p in seen] == sorted(p.boards for p in seen)
    assert seen[-1].best_board == result.best.board and seen[-1].best_value == result.best.value
    assert all(p.best_value == figures(trie, p.best_board)[0] for p in seen)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda t: Objective("target", -1), "cannot be negative"),
        (lambda t: Objective("most-long-words", 0), "at least 1 letter"),
        (lambda t: Objective("best"), "objective must be one of"),
        (lambda t: SearchSpec(t, RULES, Objective("max-score"), rows=0, cols=4), "at least 1 row"),
        (lambda t: SearchSpec(t, RULES, Objective("max-score"), rows=11, cols=10), "at most 100"),
        (lambda t: SearchSpec(t, RULES, Objective("max-score"), method="guess"), "method must"),
        (lambda t: SearchLimits(1), "needs a limit"),
        (lambda t: SearchLimits(1, jobs=0, boards=5), "jobs must be at least 1"),
        (lambda t: SearchLimits(1, cpu_seconds=0), "CPU time limit must be positive"),
    ],
)
def test_impossible_searches_are_refused_with_the_reason(
    trie: Trie, make: object, message: str
) -> None:
    with pytest.raises(SearchError, match=message):
        make(trie)  # type: ignore[operator]


def test_a_space_with_one_board_is_refused() -> None:
    spec = SearchSpec(trie_of("aaa"), RULES, Objective("max-score"), rows=2, cols=2)
    with pytest.raises(SearchError, match="only one board"):
        search(spec, SearchLimits(1, boards=10))


def test_free_space_moves_reach_every_single_cell_change_and_every_swap(trie: Trie) -> None:
    space = FreeSpace(2, 2, free_faces(trie))
    state = State(bytes([0, 1, 1, 2]))
    neighbours = [space.apply(state, m).board for m in space.all_moves(state)]
    changes = {
        n for n in neighbours if sum(a != b for a, b in zip(n, state.board, strict=True)) == 1
    }
    swaps = set(neighbours) - changes
    assert len(neighbours) == len(set(neighbours))  # each neighbour once
    assert len(changes) == 4 * (len(space.faces) - 1)
    # Cells 1 and 2 show the same face, so 5 of the 6 pairs give a different board.
    assert swaps == {
        bytes([1, 0, 1, 2]),
        bytes([1, 1, 0, 2]),
        bytes([2, 1, 1, 0]),
        bytes([0, 2, 1, 1]),
        bytes([0, 1, 2, 1]),
    }


@pytest.mark.parametrize("dice", [False, True])
def test_a_batch_holds_the_boards_the_moves_lead_to(trie: Trie, dice: bool) -> None:
    space = DiceSpace(TINY_DICE) if dice else FreeSpace(2, 2, free_faces(trie))
    rng = random.Random(3)
    state = space.random_state(rng)
    moves = space.all_moves(state) + [space.random_move(state, rng) for _ in range(50)]
    assert {m.kind for m in moves} == ({"swap", "turn"} if dice else {"swap", "face"})
    batch = neighbours_batch(space, state, moves)
    for j, move in enumerate(moves):
        board = space.apply(state, move).board
        assert batch[4 * j : 4 * j + 4] == board != state.board


def test_forked_jobs_stop_when_asked_and_return_the_best_so_far(trie: Trie) -> None:
    asked = []

    def should_stop() -> bool:
        asked.append(1)
        return len(asked) > 2

    spec = free_spec(trie, Objective("max-score"), 3)
    result = search(spec, SearchLimits(1, jobs=2, boards=10**9), should_stop=should_stop)
    assert result.reason == "stopped"
    assert result.best.score == figures(trie, result.best.board)[0]


@pytest.mark.parametrize(("rows", "cols", "count"), [(4, 4, 8), (3, 3, 8), (2, 3, 4), (1, 4, 2)])
def test_mirror_images_and_turns_of_a_board_have_the_same_words(
    trie: Trie, rows: int, cols: int, count: int
) -> None:
    orders = symmetries(rows, cols)
    assert len(orders) == count  # a 1×4 row has only itself and its mirror
    assert all(sorted(order) == list(range(rows * cols)) for order in orders)
    faces = free_faces(trie)
    rng = random.Random(5)
    for _ in range(20):
        board = bytes(rng.randrange(len(faces)) for _ in range(rows * cols))
        images = [bytes(board[i] for i in order) for order in orders]
        words = {
            tuple(
                sorted(
                    Solver(trie, RULES, use_kernel=False)
                    .solve_reference(Board(rows, cols, tuple(faces[i] for i in image)))
                    .words
                )
            )
            for image in images
        }
        assert len(words) == 1
        assert {canonical(image, orders) for image in images} == {min(images)}


@pytest.mark.parametrize("dice", [False, True])
def test_a_walk_never_kicks_again_from_a_board_where_a_restart_got_stuck(
    trie: Trie, dice: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = (
        SearchSpec(trie, RULES, Objective("max-score"), TINY_DICE)
        if dice
        else free_spec(trie, Objective("max-score"), 2)
    )
    space = spec.space()
    monkeypatch.setattr("solver.engine.boardwalk.PATIENCE", 3)
    job = Job(spec, space, spec.scorer(space), 7, JobLimits(20_000, None, None))
    orders = symmetries(2, 2)
    kicked: list[bytes] = []
    kick = job._kick

    def watched(state: State) -> State:
        key = canonical(state.board, orders)
        assert key not in job.stuck
        kicked.append(key)
        return kick(state)

    monkeypatch.setattr(job, "_kick", watched)
    outcome = job.run(lambda: False, lambda *args: None)
    assert outcome.reason == "boards"
    assert len(job.stuck) >= 2  # several restarts got stuck, each somewhere new
    assert len(kicked) > len(job.stuck)


class CountingScorer:
    """A batch scorer that counts the boards it is given."""

    def __init__(self, scorer: object, cells: int) -> None:
        self.scorer, self.cells, self.boards = scorer, cells, 0

    def score(self, batch: bytes) -> list[int]:
        self.boards += len(batch) // self.cells
        return self.scorer.score(batch)  # type: ignore[attr-defined,no-any-return]


def test_a_walk_scores_a_board_once_and_walks_as_if_it_scored_every_time(
    trie: Trie, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = free_spec(trie, Objective("max-score"), 3)
    space = spec.space()
    runs = []
    for remembered in (250_000, 0):  # 0: forgets before every batch
        monkeypatch.setattr("solver.engine.boardwalk.KNOWN_BOARDS", remembered)
        scorer = CountingScorer(spec.scorer(space), space.cells)
        job = Job(spec, space, scorer, 11, JobLimits(30_000, None, None))  # type: ignore[arg-type]
        outcome = job.run(lambda: False, lambda *args: None)
        runs.append((outcome.top, outcome.boards, scorer.boards))
    (top, boards, scored), (top_again, boards_again, scored_again) = runs
    assert top == top_again and boards == boards_again  # the same walk
    assert scored < scored_again <= boards  # fewer boards scored when remembered


def test_a_cpu_time_limit_ends_each_job(trie: Trie) -> None:
    spec = free_spec(trie, Objective("max-score"), 3)
    result = search(spec, SearchLimits(1, cpu_seconds=0.05))
    assert result.reason == "seconds"
    assert result.best.score == figures(trie, result.best.board)[0]


def test_the_cpu_seconds_to_the_goal_are_reported(trie: Trie) -> None:
    spec = free_spec(trie, Objective("max-score"), 3)
    result = search(spec, SearchLimits(1, boards=10**6, goal=5))
    assert result.reason == "goal"
    assert result.first_goal_cpu_s is not None and result.first_goal_cpu_s >= 0
