"""`manage.py load_dictionaries`: compile the shipped dictionaries once, ready for every worker."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from solver import cli
from solver.dictionaries import SHIPPED


class Command(BaseCommand):
    help = "Compile the shipped dictionaries (YAWL, ENABLE2K); does nothing if they are ready."

    def handle(self, *args: Any, **options: Any) -> None:
        for name in SHIPPED:
            started = time.perf_counter()
            loaded = cli.dictionary_from(name)
            self.stdout.write(
                f"{name}: {len(loaded.trie):,} words, "
                f"{loaded.trie.nbytes / 2**20:.1f} MiB compiled, "
                f"ready in {time.perf_counter() - started:.2f} s"
            )
