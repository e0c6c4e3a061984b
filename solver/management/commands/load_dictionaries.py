"""`manage.py load_dictionaries`: load the shipped data, then compile every active dictionary."""

from __future__ import annotations

import time
from typing import Any

from solver.cli import DatabaseCommand
from solver.dictionaries import selectors, services


class Command(DatabaseCommand):
    help = (
        "Create the shipped dictionaries (YAWL, ENABLE2K, Everyday English) and dice sets "
        "that are missing, then compile every active dictionary once, ready for every "
        "worker. Running it again changes nothing. (`manage.py preset_standings` then works "
        "out the game presets' board standings.)"
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        services.shipped_data_load()
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
