"""`manage.py board_words_unreachable --dice SLUG`: dictionary words no roll of the dice holds."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.boardlab.boards import UnknownDiceSet, dice_set_by_slug
from solver.engine.reachability import DiceFit, unreachable_words
from solver.engine.rules import ADJACENCIES


class Command(BaseCommand):
    help = (
        "Count the words of a dictionary that appear on no board rolled from a dice set "
        "(any length), then list examples with the reason."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dice", default="new16", help="a dice set's slug (default new16)")
        cli.add_dictionary_option(parser)
        parser.add_argument("--adjacency", choices=ADJACENCIES, default="king")
        parser.add_argument(
            "--examples",
            type=int,
            default=20,
            metavar="N",
            help="how many examples to list, spread over the alphabet (default 20; 0: none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["examples"] < 0:
            raise CommandError("--examples must be 0 or more", returncode=cli.BAD_INPUT)
        try:
            dice_set = dice_set_by_slug(options["dice"])
        except UnknownDiceSet as exc:
            raise CommandError(str(exc), returncode=cli.BAD_INPUT) from None
        if dice_set.uses_frequencies:
            raise CommandError(
                f"{dice_set.name} draws letters, not dice: every word fits a large enough board",
                returncode=cli.BAD_INPUT,
            )
        dictionary = cli.dictionary_from(options["dictionary"])
        dice = dice_set.engine_dice()
        started = time.perf_counter()
        found = unreachable_words(dictionary.trie, dice, options["adjacency"])
        seconds = time.perf_counter() - started
        out = self.stdout.write
        out(
            f"{found.count:,} of {found.checked:,} words of {dictionary.name} appear on no board "
            f"rolled from {dice_set.name} ({options['adjacency']} adjacency); "
            f"checked in {seconds:.2f} s"
        )
        wanted = min(options["examples"], found.count)
        if not wanted:
            return
        fit = DiceFit(dice, options["adjacency"])
        step = found.count / wanted
        out(f"{wanted} examples, spread over the list:")
        for k in range(wanted):
            word = found.words[int(k * step)]
            out(f"  {word}: {fit.why_not(word)}")
