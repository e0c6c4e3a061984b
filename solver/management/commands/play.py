"""`manage.py play`: the terminal Boggle game of seed 003, reading the board from stdin."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.definitions.selectors import dictionary_language, word_define
from solver.engine.board import BoardError
from solver.engine.rules import SEED_003
from solver.engine.search import Solver
from solver.terminal_game import TerminalGame, read_board


class Command(BaseCommand):
    help = (
        "Play Boggle in the terminal: give N and N rows on standard input, then guess words "
        "one per line; ??? ends your turn and the computer takes every remaining word. "
        "Then `define WORD` prints what a word means."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_dictionary_option(parser)
        cli.add_rules_options(parser, SEED_003)

    def handle(self, *args: Any, **options: Any) -> None:
        lines = iter(sys.stdin.readline, "")
        try:
            board = read_board(lines)
        except BoardError as exc:
            raise CommandError(str(exc), returncode=cli.BAD_INPUT) from None
        dictionary = cli.dictionary_from(options["dictionary"])
        solver = Solver(dictionary.trie, cli.rules_from(options))
        language = dictionary_language(options["dictionary"])
        game = TerminalGame(
            board, solver, sys.stdout, lambda word: word_define(word=word, language=language)
        )
        game.play(lines)
