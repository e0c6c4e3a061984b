"""What the admin changes for board proofs: a proof queued and launched, a proof stopped.

The proof itself is `manage.py board_prove --proof ID`, run in a process of its own so that
no request waits for it; it writes the proof's progress and, at the end, marks the records
of its best boards proven best (solver/boardlab/proofs.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from solver.boardlab.admin.run_selectors import (
    board_search_run_is_pending,
    board_search_run_is_silent,
    board_search_run_last_heard,
)
from solver.boardlab.admin.run_services import (
    LAUNCH_FAILED,
    NEVER_STARTED,
    SILENT_RUN,
    cores_check,
)
from solver.boardlab.proofs import BoardProofError, board_proof_create
from solver.engine.boardsearch import SearchError
from solver.engine.rules import Rules
from solver.models import BoardProof, Dictionary
from solver.processes import process_log_path, process_spawn

ONE_AT_A_TIME = (
    "You already have a proof running (#{proof}): stop it, or wait until it ends, before "
    "starting another."
)


def board_proof_log_path(proof_id: int) -> Path:
    """Return the file that the proof's process writes its output to."""
    return process_log_path("board-proof", f"proof-{proof_id}")


def board_proof_launch(*, proof: BoardProof) -> None:
    """Start `manage.py board_prove --proof ID` for a queued proof; mark it failed if the
    process cannot be started."""
    manage = Path(settings.BASE_DIR) / "manage.py"
    argv = [sys.executable, str(manage), "board_prove", "--proof", str(proof.pk)]
    try:
        process_spawn(argv, board_proof_log_path(proof.pk))
    except OSError as exc:
        BoardProof.objects.filter(pk=proof.pk, status=BoardProof.Status.QUEUED).update(
            status=BoardProof.Status.FAILED,
            error=LAUNCH_FAILED.format(what="proof", error=exc),
            finished_at=timezone.now(),
        )


def board_proof_start(
    *,
    dictionary: Dictionary,
    rows: int,
    cols: int,
    rules: Rules,
    target: int | None,
    jobs: int,
    started_by: str,
) -> BoardProof:
    """Queue a proof (BoardProofError, and nothing stored, if it cannot be run) and launch
    its process once the row is committed. One proof at a time per admin user, and no more
    processes in all searches and proofs than the machine has cores."""
    with transaction.atomic():
        now = timezone.now()
        mine = [
            p
            for p in BoardProof.objects.select_for_update().filter(
                finished_at__isnull=True, started_by=started_by
            )
            if board_search_run_is_pending(p) and not board_search_run_is_silent(p, now)
        ]
        if mine:
            raise BoardProofError(ONE_AT_A_TIME.format(proof=mine[0].pk))
        try:
            cores_check(jobs=jobs, now=now)
        except SearchError as exc:
            raise BoardProofError(str(exc)) from None
        proof = board_proof_create(
            dictionary=dictionary,
            rows=rows,
            cols=cols,
            rules=rules,
            target=target,
            jobs=jobs,
            started_by=started_by,
        )
        transaction.on_commit(lambda: board_proof_launch(proof=proof))
    return proof


def board_proof_stop(*, proof: BoardProof) -> str:
    """Ask a queued or running proof to stop, and return its status afterwards.

    A live process sees the status turn to stopped, saves its checkpoint and ends within a
    second; a queued proof that never started is finished here; a proof whose process no
    longer reports is marked failed, since nobody else will finish it.
    """
    now = timezone.now()
    with transaction.atomic():
        current = BoardProof.objects.select_for_update().get(pk=proof.pk)
        if board_search_run_is_silent(current, now):
            heard = timezone.localtime(board_search_run_last_heard(current))
            message = SILENT_RUN if current.started_at else NEVER_STARTED
            current.status = BoardProof.Status.FAILED
            current.error = message.format(what="proof", when=heard.strftime("%Y-%m-%d %H:%M:%S"))
            current.finished_at = now
        elif current.status == BoardProof.Status.QUEUED:
            current.status, current.finished_at = BoardProof.Status.STOPPED, now
        elif current.status == BoardProof.Status.RUNNING:
            current.status = BoardProof.Status.STOPPED
        else:  # finished, or already stopping
            return current.status
        current.save(update_fields=["status", "error", "finished_at"])
        return current.status
