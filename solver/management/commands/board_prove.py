"""`manage.py board_prove`: prove the best board of free faces on a small grid.

Progress goes to stderr; stdout gives the proven optimum and the proof's figures, and ends
with one JSON line. A proof checkpoints to a file (``--checkpoint``, by default under var/)
and ``--resume FILE`` continues one. Every proof is a BoardProof row (``--proof ID`` executes
a queued one, the admin's way); a complete proof marks its best boards' records proven best.
The method is in docs/board-proofs.md.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from django.core.management.base import CommandError, CommandParser

from solver import cli
from solver.boardlab.proofs import (
    BoardProofError,
    board_proof_checkpoint_dir,
    board_proof_create,
    board_proof_execute,
)
from solver.engine import prover
from solver.engine.boardsearch import default_jobs
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.models import BoardProof

INCOMPLETE = 3  # exit status of a proof stopped before its end (its checkpoint continues it)


def _fail(message: str) -> CommandError:
    return CommandError(message, returncode=cli.BAD_INPUT)


class Command(cli.DatabaseCommand):
    help = (
        "Prove the highest-scoring board of free faces on a small grid (--size 3x3) by branch "
        "and bound; the last line printed is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--size", metavar="RxC", help="e.g. 3x3 or 3x4")
        parser.add_argument("--proof", type=cli.positive_int, metavar="ID", help="a queued proof")
        parser.add_argument("--dictionary", metavar="SLUG", help="a dictionary's slug")
        parser.add_argument("--min-length", type=cli.positive_int, metavar="N", default=3)
        parser.add_argument("--scoring", choices=SCORINGS, default="classic")
        parser.add_argument("--adjacency", choices=ADJACENCIES, default="king")
        parser.add_argument(
            "--target",
            type=int,
            metavar="N",
            help="prove no board scores more than the best at or above N (default: the best "
            "stored board record of the kind)",
        )
        parser.add_argument("--buckets", metavar="AEIOU,LNRST,…", help="the letter buckets")
        parser.add_argument("--jobs", type=cli.positive_int, help="processes (default: all cores)")
        parser.add_argument("--checkpoint", metavar="FILE", help="where the proof is saved")
        parser.add_argument("--resume", metavar="FILE", help="continue the proof saved there")
        parser.add_argument("--force", action="store_true", help="allow sizes beyond 12 cells")
        parser.add_argument(
            "--classes",
            type=cli.positive_int,
            metavar="N",
            help="stop after N more top classes (to measure a rate; the checkpoint keeps them)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        proof = self._proof_of(options) if options["proof"] else self._new_proof(options)
        interrupted: list[int] = []

        def on_sigint(signum: int, frame: FrameType | None) -> None:
            interrupted.append(signum)

        start_target = proof.target
        previous = signal.signal(signal.SIGINT, on_sigint)
        bar = _ProgressBar()
        try:
            state = board_proof_execute(
                proof=proof,
                force=options["force"],
                classes=options["classes"],
                on_progress=bar.show,
                should_stop=lambda: bool(interrupted),
            )
        except (BoardProofError, prover.ProofError) as exc:
            raise _fail(str(exc)) from None
        finally:
            signal.signal(signal.SIGINT, previous)
            bar.close()
        self._print(proof, state, start_target, Path(proof.checkpoint))

    def _proof_of(self, options: dict[str, Any]) -> BoardProof:
        given = [
            f"--{name}" for name in ("size", "resume", "checkpoint", "target") if options[name]
        ]
        if given:
            raise _fail(f"--proof executes a stored proof: give no {', '.join(given)} with it")
        proof = BoardProof.objects.select_related("dictionary").filter(pk=options["proof"]).first()
        if proof is None:
            raise _fail(f"there is no board proof #{options['proof']}")
        return proof

    def _new_proof(self, options: dict[str, Any]) -> BoardProof:
        if not options["size"]:
            raise _fail("give the board's --size (e.g. 3x3), or --proof ID of a queued proof")
        rows, cols = cli.size_from(options["size"], "3x3 or 3x4")
        dictionary = cli.stored_dictionary(options["dictionary"])
        rules = Rules(options["min_length"], options["adjacency"], options["scoring"])
        resume = options["resume"]
        if resume and options["checkpoint"]:
            raise _fail("--resume FILE continues the proof saved there: give no --checkpoint")
        if resume:
            path = Path(resume)
        elif options["checkpoint"]:
            path = Path(options["checkpoint"])
        else:
            path = board_proof_checkpoint_dir() / (
                f"{rows}x{cols}-{dictionary.slug}-{rules.min_length}-{rules.adjacency}-"
                f"{rules.scoring}.json"
            )
        try:
            return board_proof_create(
                dictionary=dictionary,
                rows=rows,
                cols=cols,
                rules=rules,
                target=options["target"],
                jobs=options["jobs"] or default_jobs(),
                buckets=options["buckets"] or "",
                checkpoint=path,
                resume=bool(resume),
                force=options["force"],
                started_by="board_prove",
            )
        except BoardProofError as exc:
            raise _fail(str(exc)) from None

    def _print(
        self, proof: BoardProof, state: prover.ProofState, start_target: int, path: Path
    ) -> None:
        out = self.stdout.write
        f = state.figures
        best = state.best
        spec = state.spec
        what = f"free {spec.rows}x{spec.cols} {spec.dictionary}"
        if not state.complete:
            out(
                f"{what}: stopped with {state.total - len(state.done):,} of {state.total:,} "
                f"classes open; continue with --resume {path}"
            )
        elif best is None:
            out(f"{what}: the target is not reachable: no board scores {start_target} or more")
        else:
            if best[1] > start_target:
                out(f"found a board above the target {start_target}: the target rose to {best[1]}")
            ties = sorted({rows for rows, score in state.found if score == best[1]})
            out(f"{what}: proven best {best[1]} points: {', '.join(ties)}")
        out(
            f"classes {f.classes:,} (retired by bound {f.retired:,}), "
            f"bound evaluations {f.walks:,}, nodes visited {f.visits:,}, "
            f"boards scored {f.boards_scored:,}, "
            f"CPU {f.cpu_seconds:,.1f} s, wall {state.wall_seconds:,.1f} s"
        )
        out(
            json.dumps(
                {
                    "proof": proof.pk,
                    "size": f"{spec.rows}x{spec.cols}",
                    "dictionary": spec.dictionary,
                    "complete": state.complete,
                    "proven": state.complete and best is not None,
                    "board": best[0] if best else None,
                    "score": best[1] if best else None,
                    "target": start_target,
                    "top_classes": state.total,
                    "open": state.total - len(state.done),
                    "checkpoint": str(path),
                    **f.as_dict(),
                    "wall_seconds": round(state.wall_seconds, 2),
                }
            )
        )
        if not state.complete:
            raise CommandError("the proof is not complete", returncode=INCOMPLETE)


class _ProgressBar:
    """One line on stderr, rewritten in place on a terminal."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.shown = False
        self.last = -1.0

    def show(self, p: prover.Progress) -> None:
        if not self.tty and p.elapsed - self.last < 10 and p.done < p.total:
            return  # a log gets a line every 10 s
        self.last = p.elapsed
        share = p.done / p.total if p.total else 1.0
        filled = int(share * 20)
        left = f"{p.left_seconds / 60:,.1f} min left" if p.left_seconds is not None else ""
        line = (
            f"[{'#' * filled}{'.' * (20 - filled)}] {p.done:,}/{p.total:,} classes, "
            f"{p.total - p.done:,} open, boards {p.boards_covered / max(p.boards_total, 1):.1%}, "
            f"{p.rate:,.0f}/h, target {p.target}, {p.elapsed:,.0f} s {left}"
        )
        sys.stderr.write(("\r" + line) if self.tty else (line + "\n"))
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.tty and self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
