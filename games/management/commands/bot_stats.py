"""`manage.py bot_stats`: what each computer-player level finds on random boards."""

from __future__ import annotations

import json
import random
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bots.plans import LEVELS, bot_plan
from solver import cli
from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules
from solver.engine.search import Solver


class Command(BaseCommand):
    help = "Average words and points each bot level finds in a 3-minute round on random boards."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--boards", type=cli.positive_int, default=100)
        parser.add_argument("--seed", type=int, default=12345)
        parser.add_argument("--seconds", type=cli.positive_int, default=180)
        parser.add_argument("--dice", choices=sorted(DICE_SETS), default="new16")
        cli.add_dictionary_option(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        dictionary = cli.dictionary_from(options["dictionary"])
        dice = DICE_SETS[options["dice"]]
        rules = Rules(min_length=dice.min_length)
        solver = Solver(dictionary.trie, rules)
        rng = random.Random(options["seed"])
        totals: dict[str, list[tuple[int, int]]] = {level: [] for level in LEVELS}
        board_words, board_points = [], []
        for n in range(options["boards"]):
            solution = solver.solve(dice.roll(rng))
            board_words.append(len(solution))
            board_points.append(solution.score)
            for level in LEVELS:
                plan = bot_plan(
                    words=solution.words, level=level, seed=f"{n}", duration=options["seconds"]
                )
                totals[level].append((len(plan), sum(rules.score(w) for _, w in plan)))
        out = self.stdout.write
        out(f"{options['boards']} random {dice.name} boards, {options['seconds']} s rounds: "
            f"{statistics.mean(board_words):.1f} words and {statistics.mean(board_points):.1f} "
            "points on a board on average")  # fmt: skip
        figures: dict[str, Any] = {}
        for level, found in totals.items():
            words = statistics.mean(w for w, _ in found)
            points = statistics.mean(p for _, p in found)
            figures[level] = {"words": round(words, 1), "points": round(points, 1)}
            out(f"{level:<9} {words:6.1f} words {points:7.1f} points per round")
        out(json.dumps(figures))
