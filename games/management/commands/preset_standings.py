"""`manage.py preset_standings`: work out (or read) the standing of every preset's boards.

A game preset names its dice, grid, dictionary and rules; the standing of its boards (the
spread of scores over random rolls, solver.boardlab.boards.board_standing) ranks every round's board
in the results and sets the difficulty bands. Computing one takes a few seconds the first
time and is then stored for every worker, so `make run` calls this once, after
`load_dictionaries`, and no first round waits for it.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import CommandError
from django.db import DatabaseError

from games.rules.room_settings import PRESETS
from solver import cli
from solver.boardlab.boards import board_standing, dice_set_by_slug
from solver.dictionaries import selectors


class Command(cli.DatabaseCommand):
    help = (
        "Compute the board standing of every game preset that is not stored yet (read the "
        "others), with the preset's dictionary or the default. Run after load_dictionaries."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for name, preset in PRESETS.items():
            started = time.perf_counter()
            try:
                dictionary = selectors.dictionary_or_default(slug=preset.dictionary)
                dice_set = dice_set_by_slug(preset.dice)
            except (DatabaseError, LookupError) as exc:  # LookupError: NoDefaultDictionary too
                raise CommandError(
                    f"preset {name}: {exc} (run `manage.py load_dictionaries` first)"
                ) from None
            standing = board_standing(
                dictionary=dictionary,
                dice_set=dice_set,
                rows=preset.rows,
                cols=preset.cols,
                rules=preset.rules,
            )
            self.stdout.write(
                f"standing of {name} with {dictionary.slug}: {standing.samples:,} boards, "
                f"ready in {time.perf_counter() - started:.2f} s"
            )
