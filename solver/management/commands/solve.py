"""`manage.py solve BOARD`: every word on a board, then its score (the seed-000 client)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from solver import cli
from solver.engine.rules import Rules
from solver.engine.search import Solver


class Command(BaseCommand):
    help = "Print every valid word on a board in sorted order, then 'Score = N'."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("board", help="a board file, or rows like ATEE/APYO/TINU/EDSE")
        cli.add_dictionary_option(parser)
        cli.add_rules_options(parser, Rules())

    def handle(self, *args: Any, **options: Any) -> None:
        board = cli.board_from(options["board"])
        dictionary = cli.dictionary_from(options["dictionary"])
        solution = Solver(dictionary.trie, cli.rules_from(options)).solve(board)
        lines = [*solution.words, f"Score = {solution.score}"]
        self.stdout.write("\n".join(lines))
