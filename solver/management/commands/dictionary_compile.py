"""`manage.py dictionary_compile --dictionary ID`: compile a dictionary's current list into
the shared store of compiled lists, so that the workers map it from disk when a game needs it.
The admin starts it in a process of its own after a large list changes (a 1.5-million-word
list takes seconds of CPU and hundreds of MiB to compile: no web worker should)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver.dictionaries.selectors import dictionary_trie
from solver.models import Dictionary


class Command(BaseCommand):
    help = "Compile a dictionary's current word list into the shared store of compiled lists."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dictionary", type=int, required=True, help="the dictionary's id")

    def handle(self, *args: Any, **options: Any) -> None:
        dictionary = Dictionary.objects.filter(pk=options["dictionary"]).first()
        if dictionary is None:
            raise CommandError(f"There is no dictionary with id {options['dictionary']}.")
        started = time.perf_counter()
        trie = dictionary_trie(dictionary)
        self.stdout.write(
            f"{dictionary.slug}: {dictionary.word_count:,} words compiled "
            f"({trie.nbytes / 2**20:.1f} MiB) in {time.perf_counter() - started:.1f} s"
        )
