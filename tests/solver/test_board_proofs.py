"""Board proofs as rows: created only when they can run, executed to the proven best with its
records marked, stopped and continued; and the admin's pages that start and watch them."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from solver.boardlab import proofs
from solver.boardlab.admin import proof_services
from solver.boardlab.admin import search_form as board_search_form
from solver.dictionaries.selectors import dictionary_trie
from solver.engine import prover
from solver.engine.rules import CLASSIC
from solver.models import BoardProof, BoardRecord, Dictionary
from tests.engine.conftest import exhaustive_best
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db

PROOFS = "/admin/solver/boardproof/"
START = f"{PROOFS}add/"
WORDS = "rate tear tare east seat eats rats star tsar arts rest set sat tea eat ate are ear era"


@pytest.fixture
def lab(db: None) -> Dictionary:
    return dictionary_of(WORDS, slug="lab")


@pytest.fixture
def checkpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "board-proofs"
    monkeypatch.setattr(proofs, "board_proof_checkpoint_dir", lambda: folder)
    return folder


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the processes the admin would start instead of starting them."""
    calls: list[list[str]] = []

    def spawn(argv: list[str], log_path: Path) -> int:
        calls.append(argv)
        return 12345

    monkeypatch.setattr(proof_services, "process_spawn", spawn)
    return calls


def create(lab: Dictionary, rows: int = 2, cols: int = 3, **fields: Any) -> BoardProof:
    return proofs.board_proof_create(dictionary=lab, rows=rows, cols=cols, rules=CLASSIC, **fields)


def best_of(lab: Dictionary, rows: int, cols: int) -> int:
    trie = dictionary_trie(lab)
    best, _ = exhaustive_best(prover.spec_for(trie, rows, cols, CLASSIC, "lab"), trie)
    return best


# The service ------------------------------------------------------------------------------


def test_a_proof_reaches_the_exhaustive_best_and_marks_its_records(
    lab: Dictionary, checkpoints: Path
) -> None:
    proof = create(lab, target=1)
    assert proof.status == "queued" and proof.checkpoint == str(
        checkpoints / f"proof-{proof.pk}.json"
    )
    state = proofs.board_proof_execute(proof=proof)
    assert state.complete and proof.status == "done" and proof.proven
    assert proof.best_score == best_of(lab, 2, 3)
    assert proof.progress["done"] == proof.progress["total"] == state.total
    assert proof.figures["classes"] >= state.total and proof.figures["cpu_seconds"] > 0
    records = BoardRecord.objects.filter(proof=proof)
    assert {r.board_rows for r in records} == set(proof.best_boards.split(", "))
    assert all(r.score == r.value == proof.best_score and r.words > 0 for r in records)


def test_a_board_a_search_found_first_is_marked_not_stored_twice(
    lab: Dictionary, checkpoints: Path
) -> None:
    first = create(lab, target=1)
    proofs.board_proof_execute(proof=first)
    record = BoardRecord.objects.filter(proof=first).first()
    assert record is not None
    BoardRecord.objects.filter(pk=record.pk).update(proof=None, found_by="board_search")
    again = create(lab)  # the target is now the stored record's score
    assert again.target == record.score
    proofs.board_proof_execute(proof=again)
    record.refresh_from_db()
    assert record.proof == again and record.found_by == "board_search"
    assert BoardRecord.objects.filter(board=record.board).count() == 1


def test_a_target_above_every_board_proves_nothing_and_marks_nothing(
    lab: Dictionary, checkpoints: Path
) -> None:
    proof = create(lab, rows=2, cols=2, target=999)
    proofs.board_proof_execute(proof=proof)
    assert proof.status == "done" and not proof.proven and proof.best_score is None
    assert not BoardRecord.objects.exists()


def test_a_stopped_proof_keeps_its_checkpoint_and_a_new_row_continues_it(
    lab: Dictionary, checkpoints: Path
) -> None:
    proof = create(lab, target=1)
    stopping: list[int] = []

    def stop_from_outside() -> bool:  # what the admin's Stop button does to the row
        if not stopping:
            stopping.append(1)
            BoardProof.objects.filter(pk=proof.pk).update(status="stopped")
        return False

    state = proofs.board_proof_execute(
        proof=proof, should_stop=stop_from_outside, stop_check_every=0.0
    )
    assert not state.complete and proof.status == "stopped" and not proof.proven
    path = Path(proof.checkpoint)
    assert path.exists()
    again = create(lab, checkpoint=path, resume=True)
    assert again.target == 1
    proofs.board_proof_execute(proof=again)
    assert again.proven and again.best_score == best_of(lab, 2, 3)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rows": 4, "cols": 4, "target": 5}, "Give --force to measure it"),
        ({"target": 0}, "a target is a score of 1 or more, not 0"),
        ({}, "no stored board record of free 2x3 lab with these rules to prove"),
        ({"target": 5, "buckets": "AE,RS"}, "faces in no bucket: T"),
        ({"target": 5, "jobs": 0}, "a proof needs at least one job"),
    ],
)
def test_a_proof_that_cannot_run_is_refused_and_nothing_is_stored(
    lab: Dictionary, checkpoints: Path, fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(proofs.BoardProofError, match=message):
        create(lab, **fields)
    assert not BoardProof.objects.exists()


def test_a_proof_is_executed_once(lab: Dictionary, checkpoints: Path) -> None:
    proof = create(lab, rows=2, cols=2, target=1)
    proofs.board_proof_execute(proof=proof)
    with pytest.raises(proofs.BoardProofError, match=f"proof #{proof.pk} is done, not queued"):
        proofs.board_proof_execute(proof=proof)


def test_a_damaged_checkpoint_fails_the_proof_with_the_reason(
    lab: Dictionary, checkpoints: Path
) -> None:
    proof = create(lab, rows=2, cols=2, target=1)
    Path(proof.checkpoint).parent.mkdir(parents=True)
    Path(proof.checkpoint).write_text("{", encoding="utf-8")
    with pytest.raises(prover.ProofError):
        proofs.board_proof_execute(proof=proof)
    assert proof.status == "failed" and "not a readable proof checkpoint" in proof.error


# The admin --------------------------------------------------------------------------------


def test_the_admin_starts_a_proof_and_its_process_proves_it(
    staff_client: Client,
    lab: Dictionary,
    checkpoints: Path,
    spawned: list[list[str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    page = staff_client.get(f"{START}?dictionary={lab.pk}&size=2x3")
    assert page.status_code == 200 and 'value="2x3"' in page.content.decode()
    form = {"dictionary": lab.pk, "size": "2x3", "target": "1", "jobs": "1",
            "min_length": "3", "adjacency": "king", "scoring": "classic"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(START, form)
    proof = BoardProof.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{PROOFS}{proof.pk}/change/"
    assert (proof.rows, proof.cols, proof.target, proof.started_by) == (2, 3, 1, "admin")
    [argv] = spawned
    assert argv[1].endswith("manage.py") and argv[2:] == ["board_prove", "--proof", str(proof.pk)]
    queued = staff_client.get(f"{PROOFS}{proof.pk}/progress.json").json()
    assert queued["status"] == "queued" and not queued["finished"]

    call_command(*argv[2:], stdout=StringIO(), stderr=StringIO())  # what the process runs
    proof.refresh_from_db()
    report = staff_client.get(f"{PROOFS}{proof.pk}/progress.json").json()
    assert report["finished"] and report["proven"] and report["fraction"] == 1.0
    assert report["best_score"] == best_of(lab, 2, 3) and report["open"] == 0
    page = staff_client.get(f"{PROOFS}{proof.pk}/change/").content.decode()
    assert f"proven best {proof.best_score}" in page and "Bound evaluations" in page
    kind = staff_client.get("/admin/solver/boardrecord/best/lab/free/2x3/").content.decode()
    assert "proven best</a>" in kind and f"proof #{proof.pk}" in kind
    assert "Prove the best board" in kind
    listing = staff_client.get(PROOFS).content.decode()
    assert f"proven best {proof.best_score}: " in listing


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"size": "4x4"}, "The prover takes boards of 1 to 12 cells, not 4×4."),
        ({"size": "three"}, "Write the size as rows×columns, e.g. 5x5."),
        ({"target": ""}, "no stored board record of free 2x3 lab with these rules to prove"),
        ({"jobs": "9"}, "Ensure this value is less than or equal to 2."),
    ],
)
def test_bad_input_on_the_proof_form_gets_one_clear_message_and_starts_nothing(
    staff_client: Client,
    lab: Dictionary,
    checkpoints: Path,
    spawned: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    changes: dict[str, str],
    message: str,
) -> None:
    monkeypatch.setattr(board_search_form, "cores", lambda: 2)
    form = {"dictionary": lab.pk, "size": "2x3", "target": "1", "jobs": "1",
            "min_length": "3", "adjacency": "king", "scoring": "classic", **changes}  # fmt: skip
    response = staff_client.post(START, form)
    assert response.status_code == 400 and message in response.content.decode()
    assert not BoardProof.objects.exists() and not spawned


def test_one_proof_at_a_time_and_stop_asks_it_to_end(
    staff_client: Client,
    lab: Dictionary,
    checkpoints: Path,
    spawned: list[list[str]],
) -> None:
    form = {"dictionary": lab.pk, "size": "2x2", "target": "1", "jobs": "1",
            "min_length": "3", "adjacency": "king", "scoring": "classic"}  # fmt: skip
    assert staff_client.post(START, form).status_code == 302
    proof = BoardProof.objects.get()
    again = staff_client.post(START, form)
    assert again.status_code == 400
    assert proof_services.ONE_AT_A_TIME.format(proof=proof.pk) in again.content.decode()
    staff_client.post(f"{PROOFS}{proof.pk}/stop/")
    proof.refresh_from_db()
    assert proof.status == "stopped" and proof.finished_at is not None  # it never started
    assert staff_client.post(START, form).status_code == 302
