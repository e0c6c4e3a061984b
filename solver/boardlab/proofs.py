"""Board proofs as data: create and execute a BoardProof, and mark the best boards proven.

The proof itself is the engine's (solver.engine.prover); this module ties it to the
database: the row says what to prove and shows how far the proof got, its checkpoint file
lets a stopped proof continue, and a complete proof stores its best boards as records of
the kind (objective "max-score") marked proven best, with the proof's figures beside them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from solver.boardlab.runs import board_records_best
from solver.dictionaries.selectors import dictionary_trie
from solver.engine import prover
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.models import BoardObjective, BoardProof, BoardRecord, BoardSpace, Dictionary

STOP_CHECK_EVERY_S = 1.0  # how often a running proof reads its row's status
PROGRESS_WRITE_EVERY_S = 1.0
NO_RECORD_TO_PROVE = (
    "no stored board record of free {rows}x{cols} {slug} with these rules to prove: search "
    "that kind first (board_search --size {rows}x{cols}), or give a target"
)
BAD_TARGET = "a target is a score of 1 or more, not {target}"
CHECKPOINT_TAKEN = "{path} holds a proof already: continue it (board_prove --resume {path})"


class BoardProofError(ValueError):
    """A proof that cannot be created or executed; the message says why, in words."""


def board_proof_checkpoint_dir() -> Path:
    """Return the folder proofs save their checkpoints in (beside the compiled tries)."""
    return Path(settings.BOGGLE_CACHE_DIR).parent / "board-proofs"


def board_proof_spec(*, proof: BoardProof, force: bool = False) -> prover.ProofSpec:
    """Return the engine's description of the proof a row asks for (BoardProofError if the
    size or buckets are not ones the prover takes)."""
    trie = dictionary_trie(proof.dictionary)
    buckets = proof.buckets.split(",") if proof.buckets else None
    try:
        return prover.spec_for(
            trie,
            proof.rows,
            proof.cols,
            proof.rules,
            proof.dictionary.slug,
            buckets=buckets,
            force=force,
        )
    except prover.ProofError as exc:
        raise BoardProofError(str(exc)) from None


def best_recorded_score(*, dictionary: Dictionary, rows: int, cols: int, rules: Rules) -> int:
    """Return the best stored record's score of free rows×cols boards under these rules (the
    target a proof starts from); BoardProofError if there is none."""
    records = [
        r
        for r in board_records_best(
            dictionary=dictionary,
            objective=BoardObjective.MAX_SCORE,
            rows=rows,
            cols=cols,
            limit=50,
        )  # fmt: skip
        if (r.min_length, r.adjacency, r.scoring)
        == (rules.min_length, rules.adjacency, rules.scoring)
    ]
    if not records:
        raise BoardProofError(NO_RECORD_TO_PROVE.format(rows=rows, cols=cols, slug=dictionary.slug))
    return records[0].score


def board_proof_create(
    *,
    dictionary: Dictionary,
    rows: int,
    cols: int,
    rules: Rules,
    target: int | None = None,
    jobs: int = 1,
    buckets: str = "",
    checkpoint: Path | None = None,
    resume: bool = False,
    force: bool = False,
    started_by: str = "",
) -> BoardProof:
    """Return a new queued proof, after checking that it can be run: the size and buckets
    the prover takes, a target (given, or the best stored record's score), and a checkpoint
    file that is free (or, with ``resume``, a checkpoint of this very proof)."""
    if jobs < 1:
        raise BoardProofError("a proof needs at least one job")
    proof = BoardProof(
        dictionary=dictionary,
        dictionary_hash=dictionary.content_hash,
        rows=rows,
        cols=cols,
        min_length=rules.min_length,
        adjacency=rules.adjacency,
        scoring=rules.scoring,
        buckets=buckets,
        jobs=jobs,
        started_by=started_by,
        target=0,
    )
    spec = board_proof_spec(proof=proof, force=force)
    if resume:
        if checkpoint is None:
            raise BoardProofError("resuming a proof needs its checkpoint file")
        try:
            state = prover.ProofState.load(checkpoint, spec)
        except prover.ProofError as exc:
            raise BoardProofError(str(exc)) from None
        if target is not None and target != state.target:
            raise BoardProofError(
                f"the proof saved in {checkpoint} has target {state.target}; give no target"
            )
        proof.target = state.target
    else:
        if target is not None and target < 1:
            raise BoardProofError(BAD_TARGET.format(target=target))
        proof.target = (
            target
            if target is not None
            else best_recorded_score(dictionary=dictionary, rows=rows, cols=cols, rules=rules)
        )
        if checkpoint is not None and checkpoint.exists():
            raise BoardProofError(CHECKPOINT_TAKEN.format(path=checkpoint))
    with transaction.atomic():
        proof.save()
        if checkpoint is None:
            checkpoint = board_proof_checkpoint_dir() / f"proof-{proof.pk}.json"
        proof.checkpoint = str(checkpoint)
        proof.save(update_fields=["checkpoint"])
    return proof


def board_proof_execute(
    *,
    proof: BoardProof,
    force: bool = False,
    classes: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[prover.Progress], None] | None = None,
    stop_check_every: float = STOP_CHECK_EVERY_S,
) -> prover.ProofState:
    """Run the proof a queued row describes, keep its progress, and mark its best boards.

    The row goes queued → running → done (or stopped, or failed); someone may set it to
    stopped meanwhile, which ends the proof at its next check with its checkpoint saved.
    ``classes`` stops it after that many more top classes (to measure a rate).
    """
    now = timezone.now()
    claimed = BoardProof.objects.filter(pk=proof.pk, status=BoardProof.Status.QUEUED).update(
        status=BoardProof.Status.RUNNING, started_at=now, heard_at=now
    )
    if not claimed:
        proof.refresh_from_db()
        raise BoardProofError(f"proof #{proof.pk} is {proof.status}, not queued")
    path = Path(proof.checkpoint)
    try:
        spec = board_proof_spec(proof=proof, force=force)
        if path.exists():
            state = prover.ProofState.load(path, spec)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            state = prover.ProofState(spec, proof.target, len(prover.top_classes(spec)))
        watch = _ProofWatch(proof.pk, stop_check_every, should_stop, on_progress)
        done_before = len(state.done)

        def stop() -> bool:
            if classes is not None and len(state.done) - done_before >= classes:
                return True
            return watch.should_stop()

        prover.prove(
            state,
            dictionary_trie(proof.dictionary),
            jobs=proof.jobs,
            checkpoint=path,
            on_progress=watch.progress,
            should_stop=stop,
        )
        if state.complete:
            _mark_proven(proof, state)
    except Exception as exc:
        BoardProof.objects.filter(pk=proof.pk).update(
            status=BoardProof.Status.FAILED, error=str(exc), finished_at=timezone.now()
        )
        proof.refresh_from_db()
        raise
    best = state.best
    ended = BoardProof.Status.DONE if state.complete else BoardProof.Status.STOPPED
    BoardProof.objects.filter(pk=proof.pk).update(
        status=ended,
        finished_at=timezone.now(),
        progress=_progress_json(watch.last_progress, state),
        figures={**state.figures.as_dict(), "wall_seconds": round(state.wall_seconds, 2)},
        target=state.target,
        best_score=best[1] if best and state.complete else None,
        best_boards=_ties(state) if state.complete else "",
    )
    proof.refresh_from_db()
    return state


def _ties(state: prover.ProofState) -> str:
    best = state.best
    if best is None:
        return ""
    return ", ".join(sorted({rows for rows, score in state.found if score == best[1]}))


def _mark_proven(proof: BoardProof, state: prover.ProofState) -> None:
    """Store the proof's best boards as max-score records of the kind, marked proven best
    (a record of the board found by a search before is marked, not stored twice); each is
    checked by the pure-Python reference first."""
    best = state.best
    if best is None:
        return
    dictionary = proof.dictionary
    reference = Solver(dictionary_trie(dictionary), proof.rules, use_kernel=False)
    with transaction.atomic():
        for rows in _ties(state).split(", "):
            board = Board.from_rows(rows)
            solution = reference.solve_reference(board)
            if solution.score != best[1]:
                raise BoardProofError(
                    f"{rows}: the prover says {best[1]} points, the reference {solution.score}"
                )
            kind = dict(
                dictionary=dictionary,
                dictionary_hash=proof.dictionary_hash,
                space=BoardSpace.FREE,
                dice_set=None,
                rows=proof.rows,
                cols=proof.cols,
                min_length=proof.min_length,
                adjacency=proof.adjacency,
                scoring=proof.scoring,
                objective=BoardObjective.MAX_SCORE,
                parameter=0,
                board=board.share_code(),
            )
            record = BoardRecord(
                **kind,
                board_rows=board.to_rows(),
                score=solution.score,
                words=len(solution),
                value=solution.score,
                found_by=f"board proof #{proof.pk}",
                proof=proof,
            )
            try:
                with transaction.atomic():
                    record.save()
            except IntegrityError:
                BoardRecord.objects.filter(**kind).update(proof=proof)


class _ProofWatch:
    """Writes a proof's progress about once a second and notices when it was stopped."""

    def __init__(
        self,
        pk: int,
        every: float,
        should_stop: Callable[[], bool] | None,
        on_progress: Callable[[prover.Progress], None] | None,
    ) -> None:
        self.pk, self.every = pk, every
        self.outer_stop, self.outer_progress = should_stop, on_progress
        self.checked = 0.0
        self.stopped = False
        self.last_written = 0.0
        self.last_progress: prover.Progress | None = None

    def should_stop(self) -> bool:
        """Return whether the caller or the row (status "stopped") asks the proof to end;
        each look at the row also says the process is alive (``heard_at``)."""
        if self.outer_stop is not None and self.outer_stop():
            return True
        now = time.monotonic()
        if not self.stopped and now - self.checked >= self.every:
            self.checked = now
            BoardProof.objects.filter(pk=self.pk).update(heard_at=timezone.now())
            status = BoardProof.objects.values_list("status", flat=True).get(pk=self.pk)
            self.stopped = status == BoardProof.Status.STOPPED
        return self.stopped

    def progress(self, progress: prover.Progress) -> None:
        """Keep the latest progress on the row (about once a second) and pass it on."""
        self.last_progress = progress
        now = time.monotonic()
        if now - self.last_written >= PROGRESS_WRITE_EVERY_S:
            self.last_written = now
            BoardProof.objects.filter(pk=self.pk).update(progress=_progress_json(progress))
        if self.outer_progress is not None:
            self.outer_progress(progress)


def _progress_json(
    progress: prover.Progress | None, state: prover.ProofState | None = None
) -> dict[str, Any]:
    """Return progress as the row stores it (with the best board so far once it is over)."""
    out: dict[str, Any] = {}
    if progress is not None:
        out = {
            "done": progress.done,
            "total": progress.total,
            "boards_covered": progress.boards_covered,
            "boards_total": progress.boards_total,
            "target": progress.target,
            "elapsed": round(progress.elapsed, 2),
            "rate": round(progress.rate, 1),
            "left_seconds": round(progress.left_seconds, 1)
            if progress.left_seconds is not None
            else None,
        }
    if state is not None:
        best = state.best
        out.update(
            done=len(state.done),
            total=state.total,
            elapsed=round(state.wall_seconds, 2),
            best_board=best[0] if best else None,
            best_score=best[1] if best else None,
        )
    return out
