"""Board searches as data: create and execute a BoardSearchRun, store and list BoardRecords.

The search itself is the engine's (solver.engine.boardsearch); this module ties it to the
database: the run row says what to search and shows how far it got, the records keep the
verified best boards of each kind and objective.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from solver.dictionaries.selectors import dictionary_trie
from solver.engine.boardsearch import (
    DEFAULT_METHOD,
    Found,
    Objective,
    Progress,
    SearchError,
    SearchLimits,
    SearchResult,
    SearchSpec,
    search,
)
from solver.engine.rules import Rules
from solver.engine.trie import Trie
from solver.models import (
    BoardObjective,
    BoardRecord,
    BoardSearchRun,
    BoardSpace,
    DiceSet,
    Dictionary,
)

STOP_CHECK_EVERY_S = 1.0  # how often a running search reads its row's status
PROGRESS_WRITE_EVERY_S = 1.0


class BoardSearchRunError(ValueError):
    """A run that cannot be executed (not queued, or asking for an impossible search)."""


@dataclass(frozen=True)
class RunKind:
    """What a run searches: the space (a dice set, or rows×cols free faces) and the rules."""

    dice_set: DiceSet | None
    rows: int
    cols: int
    rules: Rules


def board_search_spec(*, run: BoardSearchRun, method: str = DEFAULT_METHOD) -> SearchSpec:
    """Return the engine's description of the search a run row asks for."""
    rules = run.rules
    objective = Objective(run.objective, run.parameter)
    dice = None
    if run.space == BoardSpace.DICE:
        if run.dice_set is None or run.dice_set.uses_frequencies:
            raise SearchError("a dice search needs a dice set with dice, not letter frequencies")
        dice = run.dice_set.engine_dice()
    trie = dictionary_trie(run.dictionary)
    if objective.name == BoardObjective.TARGET:
        most = max((len(f) for die in dice.dice for f in die), default=1) if dice else 2
        bound = score_bound(trie, rules, run.rows * run.cols * most)
        if objective.parameter > bound:
            raise SearchError(
                f"no {run.rows}×{run.cols} board can score {objective.parameter:,} with this "
                f"dictionary and these rules: every word that fits on one scores {bound:,} "
                "together"
            )
    return SearchSpec(trie, rules, objective, dice, run.rows, run.cols, method)


def score_bound(trie: Trie, rules: Rules, letters: int) -> int:
    """Return what a board holding every dictionary word of at most ``letters`` letters would
    score: no board scores more, so a higher target is impossible."""
    lengths = Counter(trie.buffer[trie.lengths_offset : trie.lengths_offset + len(trie)])
    table = rules.score_table()
    return sum(count * table[n] for n, count in lengths.items() if n <= letters)


def board_search_run_create(
    *,
    dictionary: Dictionary,
    kind: RunKind,
    objective: str,
    parameter: int,
    seconds: int,
    seed: int,
    jobs: int,
    started_by: str = "",
) -> BoardSearchRun:
    """Return a new queued run, after checking that the search it describes can be run."""
    space = BoardSpace.DICE if kind.dice_set is not None else BoardSpace.FREE
    rows, cols = (
        (kind.dice_set.rows, kind.dice_set.cols) if kind.dice_set else (kind.rows, kind.cols)
    )
    run = BoardSearchRun(
        dictionary=dictionary,
        space=space,
        dice_set=kind.dice_set,
        rows=rows,
        cols=cols,
        min_length=kind.rules.min_length,
        adjacency=kind.rules.adjacency,
        scoring=kind.rules.scoring,
        objective=objective,
        parameter=parameter
        if objective in (BoardObjective.TARGET, BoardObjective.MOST_LONG_WORDS)
        else 0,
        seconds=seconds,
        seed=seed,
        jobs=jobs,
        started_by=started_by,
    )
    if seconds < 1 or jobs < 1:
        raise SearchError("a search needs at least one second and one job")
    board_search_spec(run=run)  # raises SearchError when the search makes no sense
    run.save()
    return run


def board_search_run_execute(
    *,
    run: BoardSearchRun,
    found_by: str = "",
    boards: int | None = None,
    goal: int | None = None,
    method: str = DEFAULT_METHOD,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    stop_check_every: float = STOP_CHECK_EVERY_S,
) -> SearchResult:
    """Run the search a queued row describes, keep its progress, store its best boards.

    The row goes queued → running → done (or failed); someone else may set it to stopped
    meanwhile, which ends the search at its next check with the best boards so far.
    ``boards`` caps the boards scored (a reproducible run); ``goal`` ends it at a value.
    """
    now = timezone.now()
    claimed = BoardSearchRun.objects.filter(pk=run.pk, status=BoardSearchRun.Status.QUEUED).update(
        status=BoardSearchRun.Status.RUNNING, started_at=now, heard_at=now
    )
    if not claimed:
        run.refresh_from_db()
        raise BoardSearchRunError(f"search #{run.pk} is {run.status}, not queued")
    try:
        spec = board_search_spec(run=run, method=method)
        limits = SearchLimits(
            seed=run.seed, jobs=run.jobs, boards=boards, seconds=run.seconds, goal=goal
        )
        watch = _RunWatch(run.pk, stop_check_every, should_stop, on_progress)
        result = search(spec, limits, should_stop=watch.should_stop, on_progress=watch.progress)
        BoardSearchRun.objects.filter(pk=run.pk).update(heard_at=timezone.now())
        board_records_store(
            run=run, found=result.found, found_by=found_by or f"board search #{run.pk}"
        )
    except Exception as exc:
        BoardSearchRun.objects.filter(pk=run.pk).update(
            status=BoardSearchRun.Status.FAILED, error=str(exc), finished_at=timezone.now()
        )
        run.refresh_from_db()
        raise
    ended = (
        BoardSearchRun.Status.STOPPED if result.reason == "stopped" else BoardSearchRun.Status.DONE
    )
    BoardSearchRun.objects.filter(pk=run.pk, status=BoardSearchRun.Status.RUNNING).update(
        status=ended
    )
    BoardSearchRun.objects.filter(pk=run.pk).update(
        finished_at=timezone.now(), progress=_progress_json(watch.last_progress, result)
    )
    run.refresh_from_db()
    return result


class _RunWatch:
    """Writes a run's progress about once a second and notices when it was stopped."""

    def __init__(
        self,
        pk: int,
        every: float,
        should_stop: Callable[[], bool] | None,
        on_progress: Callable[[Progress], None] | None,
    ) -> None:
        self.pk, self.every = pk, every
        self.outer_stop, self.outer_progress = should_stop, on_progress
        self.checked = 0.0
        self.stopped = False
        self.last_written = 0.0
        self.last_progress: Progress | None = None

    def should_stop(self) -> bool:
        """Return whether the caller or the row (status "stopped") asks the search to end.

        Each look at the row also says the process is alive (``heard_at``), whatever phase
        the search is in, so the admin tells a slow run from a dead one.
        """
        if self.outer_stop is not None and self.outer_stop():
            return True
        now = time.monotonic()
        if not self.stopped and now - self.checked >= self.every:
            self.checked = now
            BoardSearchRun.objects.filter(pk=self.pk).update(heard_at=timezone.now())
            status = BoardSearchRun.objects.values_list("status", flat=True).get(pk=self.pk)
            self.stopped = status == BoardSearchRun.Status.STOPPED
        return self.stopped

    def progress(self, progress: Progress) -> None:
        """Keep the latest progress on the row (about once a second) and pass it on."""
        self.last_progress = progress
        now = time.monotonic()
        if now - self.last_written >= PROGRESS_WRITE_EVERY_S:
            self.last_written = now
            BoardSearchRun.objects.filter(pk=self.pk).update(progress=_progress_json(progress))
        if self.outer_progress is not None:
            self.outer_progress(progress)


def _progress_json(progress: Progress | None, result: SearchResult | None = None) -> dict[str, Any]:
    """Return progress as the row stores it (with the outcome once the run is over)."""
    if progress is None:
        return {}
    out: dict[str, Any] = {
        "best_value": progress.best_value,
        "best_board": progress.best_board.to_rows(),
        "code": progress.best_board.share_code(),
        "score": progress.score,
        "words": progress.words,
        "long_words": progress.long_words,
        "boards": progress.boards,
        "boards_per_s": round(progress.boards_per_s, 1),
        "elapsed": round(progress.elapsed, 2),
    }
    if result is not None:
        out["reason"] = result.reason
        out["verified"] = True
    return out


def board_records_store(
    *, run: BoardSearchRun, found: list[Found], found_by: str
) -> list[BoardRecord]:
    """Store verified boards a run found as records; return those that were new.

    A board already recorded for the same kind and objective is kept once (the unique
    constraints decide), so storing the same result twice changes nothing.
    """
    with_parameter = (BoardObjective.TARGET, BoardObjective.MOST_LONG_WORDS)
    parameter = run.parameter if run.objective in with_parameter else 0
    content_hash = Dictionary.objects.values_list("content_hash", flat=True).get(
        pk=run.dictionary_id
    )
    created = []
    with transaction.atomic():
        for item in found:
            record = BoardRecord(
                dictionary_id=run.dictionary_id,
                dictionary_hash=content_hash,
                space=run.space,
                dice_set=run.dice_set,
                rows=run.rows,
                cols=run.cols,
                min_length=run.min_length,
                adjacency=run.adjacency,
                scoring=run.scoring,
                objective=run.objective,
                parameter=parameter,
                board=item.board.share_code(),
                board_rows=item.board.to_rows(),
                score=item.score,
                words=item.words,
                value=item.value,
                run=run,
                found_by=found_by,
                seed=run.seed,
            )
            try:
                with transaction.atomic():
                    record.save()
            except IntegrityError:
                continue
            created.append(record)
    return created


def board_records_best(
    *,
    dictionary: Dictionary,
    objective: str,
    dice_set: DiceSet | None = None,
    rows: int = 4,
    cols: int = 4,
    parameter: int | None = None,
    limit: int = 10,
) -> list[BoardRecord]:
    """Return the best records of one kind (a dice set, else free rows×cols) for an objective.

    Only records of the dictionary's current list count; the best come first (highest
    value, or lowest for min-score and target), then the oldest.
    """
    records = BoardRecord.objects.filter(
        dictionary=dictionary, dictionary_hash=dictionary.content_hash, objective=objective
    )
    if dice_set is not None:
        records = records.filter(space=BoardSpace.DICE, dice_set=dice_set)
    else:
        records = records.filter(space=BoardSpace.FREE, rows=rows, cols=cols)
    if parameter is not None:
        records = records.filter(parameter=parameter)
    lower = Objective(objective, max(parameter or 0, 1)).lower_is_better
    order = ("value" if lower else "-value", "created_at", "pk")
    return list(records.select_related("dice_set", "run").order_by(*order)[:limit])
