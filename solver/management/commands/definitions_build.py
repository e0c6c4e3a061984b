"""`manage.py definitions_build`: build the shipped glossary from Debian's WordNet files."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver.cli import BAD_INPUT
from solver.engine.definitions import SHIPPED_PATH
from solver.engine.glossary import glossary_encode
from solver.engine.wordnet import WordNetError, directory_reader, licence_of, read_wordnet

DEBIAN_WORDNET = Path("/usr/share/wordnet")  # apt-get install wordnet-base
LICENCE_NAME = "wordnet-LICENSE"


class Command(BaseCommand):
    help = (
        "Read a WordNet database (data.*, index.*, *.exc, cntlist.rev) and write the compact "
        "glossary the game ships, with WordNet's licence beside it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--wordnet",
            type=Path,
            default=DEBIAN_WORDNET,
            metavar="DIR",
            help=f"the WordNet dict/ directory (default: {DEBIAN_WORDNET}, Debian's wordnet-base)",
        )
        parser.add_argument(
            "--out",
            type=Path,
            default=SHIPPED_PATH,
            metavar="PATH",
            help="where to write the glossary (default: the shipped file)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        directory: Path = options["wordnet"]
        out: Path = options["out"]
        if not directory.is_dir():
            raise CommandError(
                f"{directory}: no such directory (apt-get install wordnet-base)",
                returncode=BAD_INPUT,
            )
        started = time.perf_counter()
        read = directory_reader(directory)
        try:
            data = read_wordnet(read)
        except WordNetError as exc:
            raise CommandError(f"{directory}: {exc}", returncode=BAD_INPUT) from None
        encoded = glossary_encode(data)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(encoded)
        licence = licence_of(read)
        if licence:
            (out.parent / LICENCE_NAME).write_text(licence, encoding="utf-8")
        self.stdout.write(
            f"{out}: {len(data.entries):,} headwords, {data.sense_count:,} senses, "
            f"{len(data.exceptions):,} irregular forms, {len(encoded) / 2**20:.2f} MiB "
            f"({time.perf_counter() - started:.1f} s)"
        )
        if licence:
            self.stdout.write(f"{out.parent / LICENCE_NAME}: WordNet's licence")
