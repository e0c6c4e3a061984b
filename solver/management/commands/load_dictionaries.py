"""`manage.py load_dictionaries`: load the shipped data, then compile every active dictionary."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from solver.dictionaries import selectors, services

NOT_MIGRATED = "the database has no dictionary tables: run `manage.py migrate` first ({error})"


class Command(BaseCommand):
    help = (
        "Create the shipped dictionaries (YAWL, ENABLE2K, Everyday English) and dice sets "
        "that are missing, then compile every active dictionary once, ready for every "
        "worker. Running it again changes nothing. (`manage.py preset_standings` then works "
        "out the game presets' board standings.)"
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
