"""`manage.py board_stats` (seed 004's BoardStats): board-first against lexicon-first search."""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.bench.solver import best_board
from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules
from solver.engine.search import Solver


class Command(BaseCommand):
    help = (
        "Find every word on random boards with the board-first and the lexicon-first search; "
        "print the best board, its score and how long each algorithm took."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--boards", type=cli.positive_int, default=1000)
        parser.add_argument("--seed", type=int, default=12345)
        parser.add_argument("--dice", choices=sorted(DICE_SETS), default="new16")
        cli.add_dictionary_option(parser)
        cli.add_rules_options(parser, Rules())

    def handle(self, *args: Any, **options: Any) -> None:
        dictionary = cli.dictionary_from(options["dictionary"])
        solver = Solver(dictionary.trie, cli.rules_from(options))
        rng = random.Random(options["seed"])
        dice = DICE_SETS[options["dice"]]
        boards = [dice.roll(rng) for _ in range(options["boards"])]

        started = time.perf_counter()
        board_first = [solver.solve(b) for b in boards]
        board_first_s = time.perf_counter() - started
        solver.solve_lexicon_first(boards[0])  # build the word index outside the timing
        started = time.perf_counter()
        lexicon_first = [solver.solve_lexicon_first(b) for b in boards]
        lexicon_first_s = time.perf_counter() - started

        scores = [s.score for s in board_first]
        best, board = best_board(boards, scores)
        same_words = all(a.ids == b.ids for a, b in zip(board_first, lexicon_first, strict=True))
        if best_board(boards, [s.score for s in lexicon_first])[0] != best or not same_words:
            raise CommandError("the two algorithms disagree; please report this board set")
        out = self.stdout.write
        out(f"{len(boards):,} boards from seed {options['seed']} ({dice.name})")
        out(f"Highest-scoring board (#{best + 1}), score {scores[best]}:")
        out(board.to_text().rstrip())
        out(f"share code: {board.share_code()}")
        out(
            f"board-first search:   {board_first_s:8.3f} s ({len(boards) / board_first_s:,.0f} "
            "boards/s)"
        )
        out(
            f"lexicon-first search: {lexicon_first_s:8.3f} s ({len(boards) / lexicon_first_s:,.0f} "
            "boards/s)"
        )
        out(f"both algorithms found the same words on all {len(boards):,} boards")
