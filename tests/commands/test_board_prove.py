"""`manage.py board_prove`: the proven optimum and its JSON line, resuming, and bad input."""

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
from solver.engine import prover
from solver.engine.rules import CLASSIC
from solver.models import BoardProof, Dictionary
from tests.engine.conftest import exhaustive_best
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db

WORDS = "rate tear tare east seat eats rats star tsar arts rest set sat tea eat ate are ear era"


@pytest.fixture(autouse=True)
def lab(tmp_path: Path, settings: Settings) -> Iterator[Dictionary]:
    settings.BOGGLE_CACHE_DIR = tmp_path / "tries"
    caches_clear("compiled dictionaries")
    yield dictionary_of(WORDS, slug="lab")
    caches_clear("compiled dictionaries")


def board_prove(*args: str) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("board_prove", *args, "--jobs", "1", stdout=out, stderr=err)
    return out.getvalue().splitlines()


def test_a_proof_prints_the_optimum_scoring_every_board_finds(
    lab: Dictionary, tmp_path: Path
) -> None:
    trie = selectors.dictionary_trie(lab)
    best, boards = exhaustive_best(prover.spec_for(trie, 2, 3, CLASSIC, "lab"), trie)
    lines = board_prove("--size", "2x3", "--target", "1", "--checkpoint", str(tmp_path / "p.json"))
    last = json.loads(lines[-1])
    assert last["proven"] and last["complete"] and last["open"] == 0
    assert last["score"] == best
    assert f"proven best {best} points" in lines[0] or f"proven best {best} points" in lines[1]
    assert "the target rose to" in lines[0]
    assert last["walks"] > 0 and last["classes"] >= last["top_classes"]


def test_a_target_no_board_reaches(lab: Dictionary, tmp_path: Path) -> None:
    lines = board_prove(
        "--size", "2x2", "--target", "999", "--checkpoint", str(tmp_path / "p.json")
    )
    assert "the target is not reachable: no board scores 999 or more" in lines[0]
    last = json.loads(lines[-1])
    assert last["complete"] and not last["proven"] and last["score"] is None


def test_a_stopped_proof_resumes_to_the_same_answer(lab: Dictionary, tmp_path: Path) -> None:
    straight = json.loads(
        board_prove("--size", "2x3", "--target", "1", "--checkpoint", str(tmp_path / "a.json"))[-1]
    )
    path = tmp_path / "b.json"
    with pytest.raises(CommandError, match="not complete") as raised:
        board_prove("--size", "2x3", "--target", "1", "--checkpoint", str(path), "--classes", "3")
    assert raised.value.returncode == 3
    saved = json.loads(path.read_text())
    assert saved["done"] == [[0, 3]]
    resumed = json.loads(board_prove("--size", "2x3", "--resume", str(path))[-1])
    assert resumed["proven"] and resumed["score"] == straight["score"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "four"], "is not a size like 3x3"),
        (["--size", "0x3", "--target", "5"], "at least one row"),
        (["--size", "4x4", "--target", "5"], "Give --force"),
        (["--size", "5x5", "--target", "5", "--force"], "at most 16 cells"),
        (["--size", "2x2", "--target", "0"], "a target is a score of 1 or more"),
        (["--size", "2x2"], "no stored board record of free 2x2 lab"),
        (["--size", "2x2", "--dictionary", "nope"], "unknown dictionary 'nope'"),
        (["--size", "2x2", "--target", "5", "--buckets", "AE,RS"], "faces in no bucket: T"),
    ],
)
def test_bad_input_is_one_clear_error_and_writes_nothing(
    args: list[str], message: str, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match=message) as raised:
        board_prove(*args, "--checkpoint", str(tmp_path / "p.json"))
    assert raised.value.returncode == 2
    assert not (tmp_path / "p.json").exists()
    assert not BoardProof.objects.exists()


def test_a_damaged_or_existing_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"format": "boggle-proof/1", "spec": ')
    with pytest.raises(CommandError, match="not a readable proof checkpoint"):
        board_prove("--size", "2x2", "--resume", str(path))
    with pytest.raises(CommandError, match="holds a proof already"):
        board_prove("--size", "2x2", "--target", "5", "--checkpoint", str(path))
    assert path.read_text() == '{"format": "boggle-proof/1", "spec": '


def test_every_proof_is_a_row_and_a_complete_one_marks_its_best_boards(
    lab: Dictionary, tmp_path: Path
) -> None:
    last = json.loads(
        board_prove("--size", "2x2", "--target", "1", "--checkpoint", str(tmp_path / "p.json"))[-1]
    )
    proof = BoardProof.objects.get(pk=last["proof"])
    assert proof.proven and proof.status == "done" and proof.best_score == last["score"]
    assert proof.started_by == "board_prove" and proof.figures["walks"] == last["walks"]
    boards = proof.best_boards.split(", ")
    assert last["board"] in boards
    records = list(proof.records.order_by("board_rows"))
    assert [r.board_rows for r in records] == sorted(boards)
    assert all(r.objective == "max-score" and r.score == last["score"] for r in records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--proof", "99"], "there is no board proof #99"),
        (["--proof", "1", "--size", "2x2"], "give no --size with it"),
        ([], "give the board's --size"),
    ],
)
def test_a_stored_proof_is_named_alone(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        board_prove(*args)
