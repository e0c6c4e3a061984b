"""`manage.py board_search`: search for the best board of a kind, show it, store it.

Progress goes to stderr; stdout ends with one JSON line (board, code, score, words, value)
so scripts can read it. ``--run ID`` executes a queued BoardSearchRun (the admin's way).
"""

from __future__ import annotations

import json
import random
import signal
import sys
from types import FrameType
from typing import Any

from django.core.management.base import CommandError, CommandParser

from solver import cli
from solver.boardlab import runs as boardlab
from solver.engine.boardsearch import (
    DEFAULT_METHOD,
    MAX_SEARCH_CELLS,
    METHODS,
    OBJECTIVES,
    Progress,
    SearchError,
    SearchResult,
    default_jobs,
)
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.models import BoardSearchRun, DiceSet

DEFAULT_LONG_LENGTH = 8  # the length from which a classic word scores 11


def _fail(message: str) -> CommandError:
    return CommandError(message, returncode=cli.BAD_INPUT)


class Command(cli.DatabaseCommand):
    help = (
        "Search for the best board of a dice set (--dice) or a size (--size) for an objective; "
        "the last line printed is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        where = parser.add_argument_group("what to search")
        where.add_argument("--dice", metavar="SLUG", help="a dice set, e.g. new16")
        where.add_argument("--size", metavar="RxC", help="free faces on a board of this size")
        where.add_argument("--run", type=cli.positive_int, metavar="ID", help="a queued search")
        where.add_argument("--objective", choices=OBJECTIVES, default="max-score")
        where.add_argument("--target", type=int, metavar="N", help="the exact score to reach")
        where.add_argument(
            "--long-length",
            type=cli.positive_int,
            default=DEFAULT_LONG_LENGTH,
            metavar="L",
            help=f"letters of a long word (default {DEFAULT_LONG_LENGTH})",
        )
        where.add_argument("--dictionary", metavar="SLUG", help="a dictionary's slug")
        where.add_argument("--min-length", type=cli.positive_int, metavar="N")
        where.add_argument("--scoring", choices=SCORINGS)
        where.add_argument("--adjacency", choices=ADJACENCIES)
        how = parser.add_argument_group("how long, and how")
        how.add_argument("--seconds", type=cli.positive_int, default=60)
        how.add_argument("--boards", type=cli.positive_int, help="stop after scoring this many")
        how.add_argument("--goal", type=int, help="stop once a board's value reaches this")
        how.add_argument("--seed", type=int, help="the run's seed (default: a random one)")
        how.add_argument("--jobs", type=cli.positive_int, help="processes (default: all cores)")
        how.add_argument("--method", choices=METHODS, default=DEFAULT_METHOD)
        how.add_argument("--keep", type=cli.positive_int, default=5, help="best boards to show")

    def handle(self, *args: Any, **options: Any) -> None:
        run = self._run_of(options) if options["run"] else self._new_run(options)
        found_by = f"board_search --seed {run.seed}"
        interrupted = []

        def on_sigint(signum: int, frame: FrameType | None) -> None:
            interrupted.append(signum)

        previous = signal.signal(signal.SIGINT, on_sigint)
        bar = _ProgressBar(run)
        try:
            result = boardlab.board_search_run_execute(
                run=run,
                found_by=found_by,
                boards=options["boards"],
                goal=options["goal"],
                method=options["method"],
                should_stop=lambda: bool(interrupted),
                on_progress=bar.show,
            )
        except (SearchError, boardlab.BoardSearchRunError) as exc:
            raise _fail(str(exc)) from None
        finally:
            signal.signal(signal.SIGINT, previous)
            bar.close()
        self._print(run, result, options["keep"])

    # Input -----------------------------------------------------------------------------

    def _run_of(self, options: dict[str, Any]) -> BoardSearchRun:
        if options["dice"] or options["size"]:
            raise _fail("--run executes a stored search: give no --dice or --size with it")
        run = BoardSearchRun.objects.select_related("dictionary", "dice_set").filter(
            pk=options["run"]
        )
        if not run.exists():
            raise _fail(f"there is no board search #{options['run']}")
        return run.get()

    def _new_run(self, options: dict[str, Any]) -> BoardSearchRun:
        if options["dice"] and options["size"]:
            raise _fail("give --dice or --size, not both")
        if not options["dice"] and not options["size"]:
            raise _fail("give --dice SLUG (rolls of a dice set) or --size RxC (free faces)")
        objective = options["objective"]
        parameter = options["long_length"] if objective == "most-long-words" else 0
        if objective == "target":
            if options["target"] is None:
                raise _fail("--objective target needs --target N, the score to reach")
            if options["target"] < 0:
                raise _fail(f"no board scores {options['target']}: a target is 0 or more")
            parameter = options["target"]
        elif options["target"] is not None:
            raise _fail("--target goes with --objective target")
        dice_set, rows, cols = self._space(options)
        defaults = Rules(dice_set.min_length, "king", dice_set.scoring) if dice_set else Rules()  # type: ignore[arg-type]
        try:
            rules = Rules(
                options["min_length"] or defaults.min_length,
                options["adjacency"] or defaults.adjacency,
                options["scoring"] or defaults.scoring,
            )
            return boardlab.board_search_run_create(
                dictionary=cli.stored_dictionary(options["dictionary"]),
                kind=boardlab.RunKind(dice_set, rows, cols, rules),
                objective=objective,
                parameter=parameter,
                seconds=options["seconds"],
                seed=options["seed"] if options["seed"] is not None else random.getrandbits(32),
                jobs=options["jobs"] or default_jobs(),
                started_by="board_search command",
            )
        except (SearchError, ValueError) as exc:
            raise _fail(str(exc)) from None

    def _space(self, options: dict[str, Any]) -> tuple[DiceSet | None, int, int]:
        if options["dice"]:
            dice_set = DiceSet.objects.filter(slug=options["dice"], is_active=True).first()
            if dice_set is None or dice_set.uses_frequencies:
                known = ", ".join(
                    d.slug for d in DiceSet.objects.filter(is_active=True) if not d.uses_frequencies
                )
                raise _fail(f"unknown dice set {options['dice']!r}: use one of {known or 'none'}")
            return dice_set, dice_set.rows, dice_set.cols
        rows, cols = cli.size_from(options["size"], "4x4 or 5x5")
        if rows < 1 or cols < 1:
            raise _fail(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
        if rows * cols > MAX_SEARCH_CELLS:
            raise _fail(f"a searched board has at most {MAX_SEARCH_CELLS} cells, not {rows}x{cols}")
        return None, rows, cols

    # Output ----------------------------------------------------------------------------

    def _print(self, run: BoardSearchRun, result: SearchResult, keep: int) -> None:
        out = self.stdout.write
        what = f"{run.dice_set.slug} dice" if run.dice_set else f"free {run.rows}x{run.cols}"
        out(
            f"search #{run.pk}: {run.objective} over {what}, {run.dictionary.slug}, "
            f"seed {run.seed}, "
            f"{result.boards:,} boards in {result.elapsed:.1f} s "
            f"({result.boards / max(result.elapsed, 1e-9):,.0f}/s), ended by {result.reason}"
        )
        for rank, item in enumerate(result.found[:keep], 1):
            out(
                f"{rank:2}. {item.board.to_rows():<30} {item.board.share_code():<32} "
                f"score {item.score:>6}  words {item.words:>5}  value {item.value}"
            )
        best = result.best
        out(
            json.dumps(
                {
                    "board": best.board.to_rows(),
                    "code": best.board.share_code(),
                    "score": best.score,
                    "words": best.words,
                    "long_words": best.long_words,
                    "value": best.value,
                    "objective": run.objective,
                    "parameter": run.parameter,
                    "seed": run.seed,
                    "boards": result.boards,
                    "seconds": round(result.elapsed, 2),
                    "reason": result.reason,
                    "run": run.pk,
                    "status": run.status,
                    "verified": True,
                }
            )
        )


class _ProgressBar:
    """One line on stderr, rewritten in place on a terminal: best so far and boards/s."""

    def __init__(self, run: BoardSearchRun) -> None:
        self.seconds = run.seconds
        self.tty = sys.stderr.isatty()
        self.shown = False

    def show(self, progress: Progress) -> None:
        """Draw the bar for the latest progress."""
        done = min(progress.elapsed / self.seconds, 1.0)
        filled = int(done * 20)
        line = (
            f"[{'#' * filled}{'.' * (20 - filled)}] {progress.elapsed:6.1f}s  "
            f"best {progress.best_value} ({progress.score} points, {progress.words} words) "
            f"{progress.best_board.to_rows()}  {progress.boards_per_s:,.0f} boards/s"
        )
        sys.stderr.write(("\r" + line) if self.tty else (line + "\n"))
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        """End the bar's line."""
        if self.tty and self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
