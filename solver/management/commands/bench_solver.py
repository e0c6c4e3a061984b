"""`manage.py bench_solver`: kernel versus pure-Python reference on the same random boards."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.bench import run_bench
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
        }))  # fmt: skip
        if result.mismatches:
            raise CommandError(
                f"the kernel and the reference disagree on {result.mismatches} boards"
            )
