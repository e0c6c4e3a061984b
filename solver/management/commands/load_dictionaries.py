"""`manage.py load_dictionaries`: load the shipped data, then compile every active dictionary."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from games.room_settings import PRESETS
from solver import selectors, services
from solver.boards import board_standing, dice_set_by_slug

NOT_MIGRATED = "the database has no dictionary tables: run `manage.py migrate` first ({error})"


class Command(BaseCommand):
    help = (
        "Create the shipped dictionaries (YAWL, ENABLE2K, Everyday English) and dice sets "
        "that are missing, then compile every active dictionary once, ready for every "
        "worker. Running it again changes nothing. With --standings, also work out (or read) "
        "the standing of every preset's boards with the default dictionary, so no first "
        "round waits for it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--standings",
            action="store_true",
            help="also compute the presets' board standings that are not stored yet",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            services.shipped_data_load()
        except DatabaseError as exc:
            raise CommandError(NOT_MIGRATED.format(error=exc)) from None
        self.stdout.write(f"shipped data ready in {time.perf_counter() - started:.2f} s")
        for dictionary in selectors.dictionary_active_list():
            started = time.perf_counter()
            trie = selectors.dictionary_trie(dictionary)
            default = " (default)" if dictionary.is_default else ""
            self.stdout.write(
                f"{dictionary.slug}{default}: {len(trie):,} words, "
                f"{trie.nbytes / 2**20:.1f} MiB compiled, "
                f"ready in {time.perf_counter() - started:.2f} s"
            )
        if options["standings"]:
            self._standings()

    def _standings(self) -> None:
        """Compute or read the standing of each preset's boards with the default dictionary
        (a few seconds the first time, stored for every worker after)."""
        for name, preset in PRESETS.items():
            started = time.perf_counter()
            dictionary = selectors.dictionary_or_default(slug=preset.dictionary)
            standing = board_standing(
                dictionary=dictionary,
                dice_set=dice_set_by_slug(preset.dice),
                rows=preset.rows,
                cols=preset.cols,
                rules=preset.rules,
            )
            self.stdout.write(
                f"standing of {name} with {dictionary.slug}: {standing.samples:,} boards, "
                f"ready in {time.perf_counter() - started:.2f} s"
            )
