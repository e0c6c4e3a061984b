"""`manage.py definitions_coverage`: the share of words on random boards that get a definition."""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from solver import cli
from solver.definitions.coverage import coverage_measure
from solver.definitions.selectors import definition_glossaries, dictionary_language
from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules
from solver.engine.search import Solver

DEFAULT_DICTIONARIES = ["yawl", "enable2k"]


class Command(BaseCommand):
    help = (
        "Solve random boards with each dictionary and print the share of word appearances "
        "(weighted by how often a word turns up) that get a definition."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dictionary",
            action="append",
            metavar="NAME_OR_PATH",
            help="a dictionary's slug, yawl, enable2k or a word-list file; repeat for more "
            f"(default: {' and '.join(DEFAULT_DICTIONARIES)})",
        )
        parser.add_argument("--boards", type=cli.positive_int, default=1000, metavar="N")
        parser.add_argument("--dice", choices=sorted(DICE_SETS), default="new16")
        parser.add_argument("--seed", type=int, default=12345, metavar="S")
        parser.add_argument(
            "--show",
            type=int,
            default=20,
            metavar="K",
            help="list the K most frequent words without a definition (default 20)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dice = DICE_SETS[options["dice"]]
        rng = random.Random(options["seed"])
        boards = [dice.roll(rng) for _ in range(options["boards"])]
        out = self.stdout.write
        out(f"{len(boards):,} random {dice.name} boards, seed {options['seed']}")
        for name in options["dictionary"] or DEFAULT_DICTIONARIES:
            dictionary = cli.dictionary_from(name)
            glossaries = definition_glossaries(dictionary_language(name))
            found = coverage_measure(
                solver=Solver(dictionary.trie, Rules(min_length=dice.min_length)),
                boards=boards,
                glossaries=glossaries,
                undefined_shown=max(options["show"], 0),
            )
            out(
                f"{dictionary.name}: {found.weighted:.1f}% of {found.appearances:,} word "
                f"appearances get a definition ({found.distinct:.1f}% of {found.words:,} "
                f"distinct words; {found.lookup_us:.0f} µs a lookup)"
            )
            if found.undefined:
                words = ", ".join(f"{w} ({n})" for w, n in found.undefined)
                out(f"  most frequent without one: {words}")
