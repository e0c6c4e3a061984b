"""What the admin's search-run and proof pages read: whether a run's process is still alive,
and its progress as the run page shows it. A proof (BoardProof) keeps the same status,
heard_at and progress.elapsed as a search run, so "alive" means the same for both."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from solver.boardlab.admin.record_selectors import board_grid
from solver.models import BoardProof, BoardSearchRun

ProcessRow = BoardSearchRun | BoardProof

# A search writes its progress about once a second; a run that has said nothing for this
# long (or a queued run that no process picked up) has lost its process.
SILENT_AFTER_S = 60
ACTIVE = (BoardSearchRun.Status.QUEUED, BoardSearchRun.Status.RUNNING)
# Why a search ended, as the search reports it in its last progress.
ENDINGS = {
    "seconds": "its time ran out",
    "goal": "it reached a board no other can beat",
    "stopped": "it was stopped",
    "boards": "it scored its budget of boards",
}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _fraction(run: BoardSearchRun, elapsed: float) -> float:
    """Return how much of its time a run has used (all of it once done, whatever the clock)."""
    if run.status == BoardSearchRun.Status.DONE or run.seconds <= 0:
        return 1.0
    return min(elapsed / run.seconds, 1.0)


def board_search_run_last_heard(run: ProcessRow) -> datetime:
    """Return when the run's process last said it is alive (``heard_at``, written in every
    phase of the search), or, for a row written before that, its start plus the elapsed time
    of its latest progress; when it was queued, if it never started."""
    if run.started_at is None:
        return run.created_at
    elapsed = _number((run.progress or {}).get("elapsed")) or 0.0
    by_progress = run.started_at + timedelta(seconds=elapsed)
    return max(run.heard_at, by_progress) if run.heard_at else by_progress


def board_search_run_is_pending(run: ProcessRow) -> bool:
    """Return whether a run still waits for its process: queued, running, or asked to stop
    and not yet finished (the process then stores what it found and sets finished_at)."""
    stopping = run.status == BoardSearchRun.Status.STOPPED and run.finished_at is None
    return run.status in ACTIVE or stopping


def board_search_run_is_silent(run: ProcessRow, now: datetime) -> bool:
    """Return whether a pending run has said nothing for SILENT_AFTER_S: its process died
    or never started."""
    if not board_search_run_is_pending(run):
        return False
    return (now - board_search_run_last_heard(run)).total_seconds() > SILENT_AFTER_S


def status_label(run: ProcessRow, silent: bool) -> str:
    if silent:
        return "not responding"
    if run.status == BoardSearchRun.Status.STOPPED and run.finished_at is None:
        return "stopping"
    return run.get_status_display()


def board_search_run_report(run: BoardSearchRun, now: datetime) -> dict[str, Any]:
    """Return what the run page shows and its script polls: status, progress, best so far."""
    progress = run.progress or {}
    elapsed = _number(progress.get("elapsed")) or 0.0
    best_board = progress.get("best_board")
    silent = board_search_run_is_silent(run, now)
    finished = not board_search_run_is_pending(run)
    return {
        "id": run.pk,
        "status": run.status,
        "status_label": status_label(run, silent),
        "silent": silent,
        "finished": finished,
        "seconds": run.seconds,
        "elapsed": round(elapsed, 1),
        "fraction": _fraction(run, elapsed),
        "best_value": progress.get("best_value"),
        "best_board": best_board if isinstance(best_board, str) else "",
        "grid": board_grid(best_board) if isinstance(best_board, str) else [],
        "score": progress.get("score"),
        "words": progress.get("words"),
        "boards": progress.get("boards"),
        "boards_per_s": progress.get("boards_per_s"),
        "ending": ENDINGS.get(str(progress.get("reason")), "") if finished else "",
        "error": run.error,
        "last_heard": board_search_run_last_heard(run).isoformat(),
    }


def board_proof_report(proof: BoardProof, now: datetime) -> dict[str, Any]:
    """Return what a proof's page shows and its script polls: status, classes done and open,
    boards covered, rate, time left, and the proven best once it is over."""
    progress = proof.progress or {}
    done = int(_number(progress.get("done")) or 0)
    total = int(_number(progress.get("total")) or 0)
    covered = _number(progress.get("boards_covered"))
    boards_total = _number(progress.get("boards_total"))
    left = _number(progress.get("left_seconds"))
    silent = board_search_run_is_silent(proof, now)
    finished = not board_search_run_is_pending(proof)
    best_board = proof.best_boards.split(", ")[0] if proof.best_boards else ""
    return {
        "id": proof.pk,
        "status": proof.status,
        "status_label": status_label(proof, silent),
        "silent": silent,
        "finished": finished,
        "proven": proof.proven,
        "elapsed": round(_number(progress.get("elapsed")) or 0.0, 1),
        "fraction": 1.0
        if proof.status == BoardProof.Status.DONE
        else (done / total if total else 0.0),
        "done": done,
        "total": total,
        "open": total - done,
        "boards_share": f"{covered / boards_total:.1%}"
        if covered is not None and boards_total
        else "",
        "rate": _number(progress.get("rate")),
        "left": f"{left / 60:,.1f} min" if left is not None and not finished else "",
        "target": proof.target,
        "best_score": proof.best_score,
        "best_board": best_board,
        "grid": board_grid(best_board) if best_board else [],
        "error": proof.error,
        "last_heard": board_search_run_last_heard(proof).isoformat(),
    }
