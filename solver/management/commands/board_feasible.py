"""`manage.py board_feasible BOARD --dice SLUG`: can these dice roll this board, and how."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.boardlab.boards import UnknownDiceSet, board_feasible, dice_set_by_slug
from solver.engine.faces import display_face

NOT_FEASIBLE = 1  # exit status when the board cannot be rolled (2 is bad input)


class Command(BaseCommand):
    help = (
        "Say whether a dice set can roll a board: exit 0 and which die goes where, exit 1 and "
        "why not, exit 2 for bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "board", help="rows like PERS/LATG/SINE/TERS, a share code or a board file"
        )
        parser.add_argument("--dice", default="new16", help="a dice set's slug (default new16)")

    def handle(self, *args: Any, **options: Any) -> None:
        board = cli.board_from(options["board"])
        try:
            dice_set = dice_set_by_slug(options["dice"])
        except UnknownDiceSet as exc:
            raise CommandError(str(exc), returncode=cli.BAD_INPUT) from None
        answer = board_feasible(board=board, dice_set=dice_set)
        out = self.stdout.write
        if not answer.ok:
            out(f"{board.to_rows()} cannot be rolled from {dice_set.name}: {answer.reason}")
            sys.exit(NOT_FEASIBLE)
        if dice_set.uses_frequencies:
            out(f"{board.to_rows()} can be drawn from {dice_set.name}: it has every face")
            return
        out(f"{board.to_rows()} can be rolled from {dice_set.name}:")
        for place in answer.assignment:
            die = "".join(
                f if len(f) == 1 else f"[{display_face(f)}]" for f in dice_set.dice[place.die]
            )
            row, col = divmod(place.cell, board.cols)
            out(
                f"  die {place.die + 1:>2} {die:<14} → row {row + 1}, column {col + 1}: "
                f"{display_face(place.face)}"
            )
