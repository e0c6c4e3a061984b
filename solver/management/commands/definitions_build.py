"""`manage.py definitions_build`: build the shipped glossaries from Debian's WordNet and GCIDE
files (WordNet 3.0 first, then what GCIDE adds to it)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver.cli import BAD_INPUT
from solver.dictionaries.loading import SHIPPED as SHIPPED_WORD_LISTS
from solver.engine.definitions import GCIDE_PATH, SHIPPED_PATH
from solver.engine.gcide import GcideError, gcide_prune, read_gcide
from solver.engine.glossary import Glossary, GlossaryData, glossary_encode, glossary_text
from solver.engine.wordlist import WordListError, read_word_list
from solver.engine.wordnet import WordNetError, directory_reader, licence_of, read_wordnet

DEBIAN_WORDNET = Path("/usr/share/wordnet")  # apt-get install wordnet-base
DEBIAN_GCIDE = Path("/usr/share/dictd")  # apt-get install dict-gcide
DEBIAN_GCIDE_COPYRIGHT = Path("/usr/share/doc/dict-gcide/copyright")
DEBIAN_GPL = Path("/usr/share/common-licenses/GPL-2")
LICENCE_NAME = "wordnet-LICENSE"
GCIDE_LICENCE_NAME = "gcide-LICENSE"
SOURCES = ("wordnet", "gcide")


class Command(BaseCommand):
    help = (
        "Read WordNet (data.*, index.*, *.exc, cntlist.rev) and GCIDE (gcide.index, "
        "gcide.dict.dz) and write the compact glossaries the game ships, licences beside them."
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
            "--gcide",
            type=Path,
            default=DEBIAN_GCIDE,
            metavar="DIR",
            help=f"the directory of gcide.index and gcide.dict.dz (default: {DEBIAN_GCIDE}, "
            "Debian's dict-gcide)",
        )
        parser.add_argument(
            "--gcide-licence",
            type=Path,
            default=DEBIAN_GCIDE_COPYRIGHT,
            metavar="FILE",
            help=f"GCIDE's copyright notice (default: {DEBIAN_GCIDE_COPYRIGHT})",
        )
        parser.add_argument(
            "--words",
            type=Path,
            action="append",
            metavar="PATH",
            help="keep GCIDE's headwords this word list holds; repeat for more "
            "(default: the shipped YAWL and ENABLE2K)",
        )
        parser.add_argument(
            "--out",
            type=Path,
            default=SHIPPED_PATH,
            metavar="PATH",
            help="where to write the WordNet glossary (default: the shipped file)",
        )
        parser.add_argument(
            "--gcide-out",
            type=Path,
            default=GCIDE_PATH,
            metavar="PATH",
            help="where to write the GCIDE glossary (default: the shipped file)",
        )
        parser.add_argument(
            "--only",
            choices=SOURCES,
            help="build one source only (GCIDE alone reads the WordNet glossary at --out)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        only = options["only"]
        wordnet_text: bytes | None = None
        if only in (None, "wordnet"):
            wordnet_text = self._wordnet(options["wordnet"], options["out"])
        if only in (None, "gcide"):
            if wordnet_text is not None:
                before = Glossary.from_text(wordnet_text)
            else:
                before = self._read_glossary(options["out"])
            self._gcide(options, before)

    @staticmethod
    def _directory(directory: Path, package: str) -> None:
        if not directory.is_dir():
            raise CommandError(
                f"{directory}: no such directory (apt-get install {package})",
                returncode=BAD_INPUT,
            )

    @staticmethod
    def _read_glossary(path: Path) -> Glossary:
        try:
            return Glossary(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise CommandError(
                f"{path}: cannot read the WordNet glossary GCIDE is layered after ({exc})",
                returncode=BAD_INPUT,
            ) from None

    def _write(self, out: Path, data: GlossaryData, started: float, name: str) -> None:
        encoded = glossary_encode(data)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(encoded)
        self.stdout.write(
            f"{out}: {len(data.entries):,} headwords, {data.sense_count:,} senses, "
            f"{len(data.exceptions):,} irregular forms, {len(encoded) / 2**20:.2f} MiB "
            f"({name}, {time.perf_counter() - started:.1f} s)"
        )

    def _wordnet(self, directory: Path, out: Path) -> bytes:
        self._directory(directory, "wordnet-base")
        started = time.perf_counter()
        read = directory_reader(directory)
        try:
            data = read_wordnet(read)
        except WordNetError as exc:
            raise CommandError(f"{directory}: {exc}", returncode=BAD_INPUT) from None
        self._write(out, data, started, "WordNet")
        licence = licence_of(read)
        if licence:
            (out.parent / LICENCE_NAME).write_text(licence, encoding="utf-8")
            self.stdout.write(f"{out.parent / LICENCE_NAME}: WordNet's licence")
        return glossary_text(data)

    def _gcide(self, options: dict[str, Any], before: Glossary) -> None:
        directory: Path = options["gcide"]
        out: Path = options["gcide_out"]
        self._directory(directory, "dict-gcide")
        started = time.perf_counter()
        keep: set[str] = set()
        for path in options["words"] or list(SHIPPED_WORD_LISTS.values()):
            try:
                keep.update(word.lower() for word in read_word_list(path).words)
            except (OSError, WordListError) as exc:
                raise CommandError(f"{path}: {exc}", returncode=BAD_INPUT) from None
        try:
            data = read_gcide(directory_reader(directory))
        except GcideError as exc:
            raise CommandError(f"{directory}: {exc}", returncode=BAD_INPUT) from None
        self._write(out, gcide_prune(data, keep=keep, before=before), started, "GCIDE")
        licence_path: Path = options["gcide_licence"]
        if licence_path.is_file():
            licence = licence_path.read_text(encoding="utf-8")
            if DEBIAN_GPL.is_file():
                licence += "\n\n" + "=" * 72 + "\n\n" + DEBIAN_GPL.read_text(encoding="utf-8")
            (out.parent / GCIDE_LICENCE_NAME).write_text(licence, encoding="utf-8")
            self.stdout.write(f"{out.parent / GCIDE_LICENCE_NAME}: GCIDE's licence")
