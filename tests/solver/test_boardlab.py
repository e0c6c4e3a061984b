"""Board search runs as rows: executed with progress, stopped from outside, stored once."""

from __future__ import annotations

import pytest

from solver.boardlab import runs as boardlab
from solver.dictionaries.selectors import dictionary_trie
from solver.engine.board import Board
from solver.engine.boardsearch import Progress, SearchError
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.models import BoardRecord, BoardSearchRun, DiceSet, Dictionary
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db

WORDS = "rate tear tare east seat eats rats star tsar arts rest set sat tea eat ate are ear era"


@pytest.fixture
def words() -> Dictionary:
    return dictionary_of(WORDS, slug="lab")


@pytest.fixture
def tiny_dice() -> DiceSet:
    return DiceSet.objects.create(
        slug="tiny",
        name="Tiny 2×2",
        rows=2,
        cols=2,
        dice=[
            ["A", "E", "S", "T"],
            ["R", "T", "A", "A"],
            ["S", "E", "E", "A"],
            ["T", "R", "S", "E"],
        ],
    )


def new_run(
    dictionary: Dictionary,
    *,
    dice_set: DiceSet | None = None,
    size: int = 3,
    objective: str = "max-score",
    parameter: int = 0,
    seed: int = 1,
) -> BoardSearchRun:
    return boardlab.board_search_run_create(
        dictionary=dictionary,
        kind=boardlab.RunKind(dice_set, size, size, Rules()),
        objective=objective,
        parameter=parameter,
        seconds=60,
        seed=seed,
        jobs=1,
    )


def reference_score(dictionary: Dictionary, rows: str) -> int:
    solver = Solver(dictionary_trie(dictionary), Rules(), use_kernel=False)
    return solver.solve_reference(Board.from_rows(rows)).score


def test_a_run_goes_from_queued_to_done_with_its_progress_and_records(words: Dictionary) -> None:
    run = new_run(words)
    assert run.status == BoardSearchRun.Status.QUEUED
    result = boardlab.board_search_run_execute(run=run, boards=300, found_by="test --seed 1")
    assert run.status == BoardSearchRun.Status.DONE
    assert run.started_at is not None and run.finished_at is not None
    assert run.heard_at is not None and run.started_at <= run.heard_at <= run.finished_at
    progress = run.progress
    assert progress["best_board"] == result.best.board.to_rows()
    assert progress["best_value"] == progress["score"] == result.best.score
    assert progress["boards"] == result.boards and progress["verified"] is True
    assert {"words", "boards_per_s", "elapsed"} <= set(progress)
    records = list(BoardRecord.objects.filter(run=run).order_by("-value"))
    assert [r.board_rows for r in records] == [f.board.to_rows() for f in result.found]
    for record in records:
        assert record.score == reference_score(words, record.board_rows)
        assert record.found_by == "test --seed 1" and record.seed == 1
        assert record.dictionary_hash == words.content_hash
        assert record.board == Board.from_rows(record.board_rows).share_code()


def test_a_board_found_twice_is_stored_once(words: Dictionary, tiny_dice: DiceSet) -> None:
    for dice_set in (None, tiny_dice):
        first = new_run(words, dice_set=dice_set, size=2)
        boardlab.board_search_run_execute(run=first, boards=200)
        stored = BoardRecord.objects.count()
        again = new_run(words, dice_set=dice_set, size=2)
        result = boardlab.board_search_run_execute(run=again, boards=200)
        assert result.found
        assert BoardRecord.objects.count() == stored
        assert not BoardRecord.objects.filter(run=again).exists()


def test_a_run_stopped_from_outside_ends_with_the_best_so_far(words: Dictionary) -> None:
    run = new_run(words)
    seen: list[Progress] = []

    def stop_from_the_admin(progress: Progress) -> None:
        seen.append(progress)
        BoardSearchRun.objects.filter(pk=run.pk).update(status=BoardSearchRun.Status.STOPPED)

    result = boardlab.board_search_run_execute(
        run=run, boards=10**9, on_progress=stop_from_the_admin, stop_check_every=0
    )
    assert result.reason == "stopped"
    assert run.status == BoardSearchRun.Status.STOPPED and run.finished_at is not None
    assert result.boards < 1000
    assert BoardRecord.objects.filter(run=run).count() == len(result.found) > 0


def test_only_a_queued_run_is_executed(words: Dictionary) -> None:
    run = new_run(words)
    boardlab.board_search_run_execute(run=run, boards=50)
    with pytest.raises(boardlab.BoardSearchRunError, match="is done, not queued"):
        boardlab.board_search_run_execute(run=run, boards=50)


def test_a_search_that_fails_marks_its_run_failed(words: Dictionary, tiny_dice: DiceSet) -> None:
    run = new_run(words, dice_set=tiny_dice)
    DiceSet.objects.filter(pk=tiny_dice.pk).update(dice=[], letter_frequencies={"A": 1.0})
    run.dice_set = DiceSet.objects.get(pk=tiny_dice.pk)
    with pytest.raises(SearchError):
        boardlab.board_search_run_execute(run=run, boards=50)
    assert run.status == BoardSearchRun.Status.FAILED and "letter frequencies" in run.error
    assert not BoardRecord.objects.exists()


def test_an_impossible_run_is_never_created(words: Dictionary) -> None:
    with pytest.raises(SearchError, match="cannot be negative"):
        new_run(words, objective="target", parameter=-5)
    with pytest.raises(SearchError, match="at most 100 cells"):
        new_run(words, size=11)
    # The 19 words score 19 points together: no board can score more.
    with pytest.raises(SearchError, match="no 3×3 board can score 20 .* scores 19 together"):
        new_run(words, objective="target", parameter=20)
    assert not BoardSearchRun.objects.exists()
    assert new_run(words, objective="target", parameter=19).parameter == 19


def test_the_best_records_come_first_for_each_objective(words: Dictionary) -> None:
    for objective in ("max-score", "min-score"):
        for seed in (1, 2):
            run = new_run(words, objective=objective, seed=seed)
            boardlab.board_search_run_execute(run=run, boards=200)
    highest = boardlab.board_records_best(dictionary=words, objective="max-score", rows=3, cols=3)
    lowest = boardlab.board_records_best(dictionary=words, objective="min-score", rows=3, cols=3)
    assert highest and lowest
    assert [r.value for r in highest] == sorted((r.value for r in highest), reverse=True)
    assert [r.value for r in lowest] == sorted(r.value for r in lowest)
    assert lowest[0].value == 0
    assert boardlab.board_records_best(dictionary=words, objective="max-score", rows=4) == []
