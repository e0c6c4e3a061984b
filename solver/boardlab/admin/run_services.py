"""What the admin's board lab changes: a search run queued and launched, a run stopped.

The search itself is `manage.py board_search --run ID`, run in a process of its own so that
no request waits for it; it writes the run's progress and records as it goes.
"""

from __future__ import annotations

import logging
import sys
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from solver.boardlab import runs as boardlab
from solver.boardlab.admin import search_form
from solver.boardlab.admin.run_selectors import (
    board_search_run_is_pending,
    board_search_run_is_silent,
    board_search_run_last_heard,
)
from solver.boardlab.runs import RunKind
from solver.engine.boardsearch import SearchError
from solver.models import BoardProof, BoardSearchRun, Dictionary
from solver.processes import process_log_path, process_spawn

logger = logging.getLogger(__name__)

LAUNCH_FAILED = "The {what} process could not be started: {error}"
SILENT_RUN = (
    "The {what} process stopped reporting progress (last heard at {when}); "
    "it was marked failed from the admin."
)
ONE_AT_A_TIME = (
    "You already have a search running (#{run}): stop it, or wait until it ends, before "
    "starting another."
)
CORES_BUSY = (
    "This machine's {cores} cores are busy with searches and proofs already ({busy} "
    "processes in {runs}): wait until one ends, or ask for fewer processes."
)
NEVER_STARTED = (
    "The {what} process never started (queued at {when}); it was marked failed from the admin."
)


def board_search_log_path(run_id: int) -> Path:
    """Return the file that the run's process writes its output to."""
    return process_log_path("board-search", f"run-{run_id}")


def board_search_run_launch(*, run: BoardSearchRun) -> None:
    """Start `manage.py board_search --run ID` for a queued run; mark it failed if the
    process cannot be started."""
    manage = Path(settings.BASE_DIR) / "manage.py"
    argv = [sys.executable, str(manage), "board_search", "--run", str(run.pk)]
    try:
        process_spawn(argv, board_search_log_path(run.pk))
    except OSError as exc:
        BoardSearchRun.objects.filter(pk=run.pk, status=BoardSearchRun.Status.QUEUED).update(
            status=BoardSearchRun.Status.FAILED,
            error=LAUNCH_FAILED.format(what="search", error=exc),
            finished_at=timezone.now(),
        )


def cores_check(*, jobs: int, now: datetime) -> None:
    """Refuse (SearchError naming them) more processes than the machine has cores in all the
    searches and proofs whose processes still run, this one's `jobs` included. Call it in a
    transaction: it locks the rows it counts."""
    pending: list[BoardSearchRun | BoardProof] = []
    for model in (BoardSearchRun, BoardProof):
        pending += [
            r
            for r in model.objects.select_for_update().filter(finished_at__isnull=True)
            if board_search_run_is_pending(r) and not board_search_run_is_silent(r, now)
        ]
    busy = sum(r.jobs for r in pending)
    if pending and busy + jobs > search_form.cores():
        runs = ", ".join(
            f"{'proof' if isinstance(r, BoardProof) else 'search'} #{r.pk}" for r in pending
        )
        raise SearchError(CORES_BUSY.format(cores=search_form.cores(), busy=busy, runs=runs))


def board_search_run_start(
    *,
    dictionary: Dictionary,
    kind: RunKind,
    objective: str,
    parameter: int,
    seconds: int,
    seed: int,
    jobs: int,
    started_by: str,
) -> BoardSearchRun:
    """Queue a search run (SearchError, and nothing stored, if the search makes no sense)
    and launch its process once the row is committed: the process reads it from there.

    One search at a time per admin user, and no more processes in all searches than the
    machine has cores (SearchError saying which runs hold them): one user once ran six at
    once, eighteen processes on two cores, and every request of the site waited behind them.
    A run whose process stopped reporting holds nothing."""
    with transaction.atomic():
        now = timezone.now()
        pending = [
            r
            for r in BoardSearchRun.objects.select_for_update().filter(finished_at__isnull=True)
            if board_search_run_is_pending(r) and not board_search_run_is_silent(r, now)
        ]
        mine = [r for r in pending if r.started_by == started_by]
        if mine:
            raise SearchError(ONE_AT_A_TIME.format(run=mine[0].pk))
        cores_check(jobs=jobs, now=now)
        run = boardlab.board_search_run_create(
            dictionary=dictionary,
            kind=kind,
            objective=objective,
            parameter=parameter,
            seconds=seconds,
            seed=seed,
            jobs=jobs,
            started_by=started_by,
        )
        transaction.on_commit(lambda: board_search_run_launch(run=run))
    return run


def board_search_run_stop(*, run: BoardSearchRun) -> str:
    """Ask a queued or running search to stop, and return its status afterwards.

    A live process sees the status turn to stopped, stops within a second and stores the
    best boards it has; a queued run that never started is finished here; a run whose
    process no longer reports is marked failed, since nobody else will finish it.
    """
    now = timezone.now()
    with transaction.atomic():
        current = BoardSearchRun.objects.select_for_update().get(pk=run.pk)
        if board_search_run_is_silent(current, now):
            heard = timezone.localtime(board_search_run_last_heard(current))
            message = SILENT_RUN if current.started_at else NEVER_STARTED
            current.status = BoardSearchRun.Status.FAILED
            current.error = message.format(what="search", when=heard.strftime("%Y-%m-%d %H:%M:%S"))
            current.finished_at = now
        elif current.status == BoardSearchRun.Status.QUEUED:
            current.status, current.finished_at = BoardSearchRun.Status.STOPPED, now
        elif current.status == BoardSearchRun.Status.RUNNING:
            current.status = BoardSearchRun.Status.STOPPED
        else:  # finished, or already stopping
            return current.status
        current.save(update_fields=["status", "error", "finished_at"])
        return current.status
