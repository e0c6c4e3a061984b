"""`manage.py bench_solver`: kernel versus pure-Python reference on the same random boards, and
the kernel against its frozen predecessor (and optionally boggle-zoo) on ENABLE2K and YAWL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.bench.kernels import RaceReport, ZooBoggle, run_races
from solver.bench.solver import run_bench
from solver.engine.dice import DICE_SETS


class Command(BaseCommand):
    help = "Benchmark the solver; the last line printed is one JSON object with the figures."

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_dictionary_option(parser)
        parser.add_argument("--dice", choices=sorted(DICE_SETS), default="new16")
        parser.add_argument("--boards", type=cli.positive_int, default=20000)
        parser.add_argument("--seed", type=int, default=12345)
        parser.add_argument(
            "--reference-boards",
            type=cli.positive_int,
            default=500,
            help="how many of the boards the slow pure-Python reference solves (default 500)",
        )
        parser.add_argument("--repeats", type=cli.positive_int, default=5)
        parser.add_argument(
            "--race-dictionaries",
            default="enable2k,yawl",
            help="dictionaries on which the old and new kernels race, comma-separated "
            "(default enable2k,yawl; '' to skip the race)",
        )
        parser.add_argument(
            "--race-boards",
            type=cli.positive_int,
            default=20000,
            help="4×4 boards per race (5×5 races use a quarter as many; default 20000)",
        )
        parser.add_argument(
            "--zoo",
            type=Path,
            help="a built boggle-zoo (popcount-trie) folder with cpp_boggle and <dictionary>.bin, "
            "to race as well (README.md says how to build it)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        loaded = cli.dictionary_from(options["dictionary"])
        dice = DICE_SETS[options["dice"]]
        boards = options["boards"]
        try:
            result = run_bench(
                loaded.words,
                loaded.compiled,
                dice,
                boards,
                options["seed"],
                min(options["reference_boards"], boards),
                options["repeats"],
            )
            report = self.race(options)
        except RuntimeError as exc:
            raise CommandError(str(exc)) from None
        out = self.stdout.write
        out(
            f"dictionary      {loaded.name}: {len(loaded.trie):,} words, "
            f"{loaded.trie.node_count:,} trie nodes"
        )
        out(
            f"build           {result.dictionary_build_s * 1000:9.1f} ms (read, normalise, compile)"
        )
        out(f"load            {result.dictionary_load_s * 1000:9.3f} ms (mapped, checked; median)")
        out(f"size            {result.dictionary_bytes / 2**20:9.2f} MiB in memory")
        out(f"boards          {boards:,} random {dice.name} boards, seed {options['seed']}")
        out(
            f"kernel          {result.kernel_boards_per_s:9,.0f} boards/s "
            f"(median of {options['repeats']} runs)"
        )
        out(
            f"reference       {result.reference_boards_per_s:9,.0f} boards/s "
            f"(pure Python, first {result.reference_boards:,} boards)"
        )
        out(f"ratio           {result.ratio:9.1f}×")
        out(
            f"agreement       {result.reference_boards - result.mismatches:,} of "
            f"{result.reference_boards:,} boards give the same words"
        )
        out(
            f"per board       {result.words_per_board:9.1f} words, "
            f"{result.points_per_board:.1f} points"
        )
        out(f"10×10 board     {result.big_board_ms:9.3f} ms (median of 50 letter-frequency boards)")
        self.print_races(report, options)
        out(json.dumps({
            "kernel_boards_per_s": round(result.kernel_boards_per_s, 1),
            "reference_boards_per_s": round(result.reference_boards_per_s, 1),
            "ratio": round(result.ratio, 2),
            "dictionary_build_s": round(result.dictionary_build_s, 4),
            "dictionary_load_s": round(result.dictionary_load_s, 6),
            "dictionary_bytes": result.dictionary_bytes,
            "words_per_board": round(result.words_per_board, 2),
            "points_per_board": round(result.points_per_board, 2),
            "big_board_ms": round(result.big_board_ms, 4),
            "mismatches": result.mismatches,
            "boards": boards,
            "races": [
                {
                    "dictionary": r.dictionary,
                    "dice": r.dice,
                    "boards": r.boards,
                    "old_boards_per_s": round(r.old_boards_per_s, 1),
                    "new_boards_per_s": round(r.new_boards_per_s, 1),
                    "ratio": round(r.ratio, 3),
                    "batch_boards_per_s": round(r.batch_boards_per_s, 1),
                    "batch_ratio": round(r.batch_ratio, 3),
                    "zoo_boards_per_s": r.zoo_boards_per_s and round(r.zoo_boards_per_s, 1),
                }
                for r in report.races
            ],
            "batch_overhead_us": report.overhead and round(report.overhead.batch_us, 4),
            "solve_call_overhead_us": (
                report.overhead and round(report.overhead.solve_call_us, 4)
            ),
        }))  # fmt: skip
        if result.mismatches:
            raise CommandError(
                f"the kernel and the reference disagree on {result.mismatches} boards"
            )

    def race(self, options: dict[str, Any]) -> RaceReport:
        """Race the old kernel, the new one, the batch path (and boggle-zoo) on each dictionary."""
        names = [name.strip() for name in options["race_dictionaries"].split(",") if name.strip()]
        tries = [(name, cli.dictionary_from(name).trie) for name in names]
        zoo = ZooBoggle(options["zoo"]) if options["zoo"] else None
        return run_races(tries, options["race_boards"], options["seed"], options["repeats"], zoo)

    def print_races(self, report: RaceReport, options: dict[str, Any]) -> None:
        """Print old against new kernel, batch path and boggle-zoo, per dictionary and size."""
        races, overhead = report.races, report.overhead
        if not races:
            return
        out = self.stdout.write
        out("")
        out(
            "kernel race     boards/s, CPU time of this process, median of "
            f"{options['repeats']}; same rolled boards, classic rules (3+ letters)"
        )
        out(
            f"  {'dictionary':<10} {'dice':<9} {'boards':>7} {'old':>9} {'new':>9} {'new/old':>8}"
            f" {'batch':>9} {'batch/old':>9} {'zoo':>9} {'new/zoo':>8} {'batch/zoo':>9}"
        )
        for r in races:
            zoo = (
                f" {r.zoo_boards_per_s:9,.0f} {r.new_boards_per_s / r.zoo_boards_per_s:7.2f}×"
                f" {r.batch_boards_per_s / r.zoo_boards_per_s:8.2f}×"
                if r.zoo_boards_per_s
                else f" {'-':>9} {'-':>8} {'-':>9}"
            )
            out(
                f"  {r.dictionary:<10} {r.dice:<9} {r.boards:>7,} {r.old_boards_per_s:9,.0f}"
                f" {r.new_boards_per_s:9,.0f} {r.ratio:7.2f}× {r.batch_boards_per_s:9,.0f}"
                f" {r.batch_ratio:8.2f}×{zoo}"
            )
        out("  old = the kernel frozen at f30852c, new = this kernel: one solve() call a board;")
        out("  batch = BatchScorer.score, all boards in one call; zoo = boggle-zoo (--zoo)")
        if overhead:
            out(
                f"per-board cost  {overhead.batch_us:9.3f} µs in the batch path, "
                f"{overhead.solve_call_us:.3f} µs a solve_ids call "
                "(all-blank 4×4 boards: no search, only the per-board work)"
            )
