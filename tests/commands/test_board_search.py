"""`manage.py board_search`: the JSON last line, the records it stores, and bad input."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from pytest_django.fixtures import Settings

from solver.caches import caches_clear
from solver.dictionaries import selectors
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.models import BoardRecord, BoardSearchRun, DiceSet, Dictionary
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db

WORDS = "rate tear tare east seat eats rats star tsar arts rest set sat tea eat ate are ear era"


@pytest.fixture(autouse=True)
def lab(tmp_path: Path, settings: Settings) -> Iterator[Dictionary]:
    """A small default dictionary and a 2×2 dice set, compiled in a private cache."""
    settings.BOGGLE_CACHE_DIR = tmp_path / "tries"
    caches_clear("compiled dictionaries")
    DiceSet.objects.create(
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
    yield dictionary_of(WORDS, slug="lab")
    caches_clear("compiled dictionaries")


def board_search(*args: str) -> tuple[list[str], str]:
    """Run the command in this process; return its stdout lines and its stderr."""
    out, err = io.StringIO(), io.StringIO()
    call_command("board_search", *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


def test_the_last_line_is_json_naming_the_verified_best_board(lab: Dictionary) -> None:
    lines, _ = board_search("--size", "3x3", "--seed", "4", "--boards", "300", "--jobs", "1")
    last = json.loads(lines[-1])
    board = Board.from_rows(last["board"])
    assert last["code"] == board.share_code()
    solution = Solver(selectors.dictionary_trie(lab), Rules(), use_kernel=False).solve(board)
    assert (last["score"], last["words"], last["value"]) == (
        solution.score,
        len(solution),
        solution.score,
    )
    assert last["seed"] == 4 and last["verified"] is True
    assert any(last["board"] in line and last["code"] in line for line in lines[:-1])
    record = BoardRecord.objects.get(run_id=last["run"], board=last["code"])
    assert record.found_by == "board_search --seed 4"
    assert BoardSearchRun.objects.get(pk=last["run"]).status == BoardSearchRun.Status.DONE


def test_a_dice_search_for_an_exact_target(lab: Dictionary) -> None:
    lines, _ = board_search(
        "--dice", "tiny", "--objective", "target", "--target", "3", "--seed", "1", "--jobs", "1"
    )
    last = json.loads(lines[-1])
    assert (last["score"], last["value"], last["reason"]) == (3, 0, "goal")
    assert BoardRecord.objects.filter(objective="target", parameter=3, board=last["code"]).exists()


def test_a_queued_run_is_executed_by_its_id(lab: Dictionary) -> None:
    run = BoardSearchRun.objects.create(
        dictionary=lab, space="free", rows=2, cols=2, objective="most-words", seconds=30, seed=9
    )
    lines, _ = board_search("--run", str(run.pk), "--boards", "200")
    last = json.loads(lines[-1])
    assert last["run"] == run.pk and last["objective"] == "most-words"
    run.refresh_from_db()
    assert run.status == BoardSearchRun.Status.DONE
    assert run.progress["best_board"] == last["board"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dice", "new99"], "unknown dice set 'new99': use one of tiny"),
        (["--dice", "tiny", "--size", "4x4"], "give --dice or --size, not both"),
        ([], "give --dice SLUG"),
        (["--size", "0x4"], "at least 1 row and 1 column"),
        (["--size", "11x10"], "at most 100 cells"),
        (["--size", "four"], "is not a size like 4x4"),
        (["--size", "3x3", "--objective", "target"], "needs --target N"),
        (["--size", "3x3", "--objective", "target", "--target", "-1"], "no board scores -1"),
        (["--size", "3x3", "--target", "5"], "--target goes with --objective target"),
        (["--size", "3x3", "--dictionary", "nope"], "unknown dictionary 'nope'"),
        (["--run", "999"], "there is no board search #999"),
        (["--run", "1", "--size", "3x3"], "give no --dice or --size"),
    ],
)
def test_bad_input_is_one_clear_error_and_stores_nothing(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message) as raised:
        board_search(*args, "--boards", "10")
    assert raised.value.returncode == 2
    assert not BoardSearchRun.objects.exists()
    assert not BoardRecord.objects.exists()
