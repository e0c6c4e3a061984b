"""Options and input shared by the solver's management commands."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection

from solver.dictionaries.loading import (
    DEFAULT_DICTIONARY,
    DictionaryNotFound,
    LoadedDictionary,
    load_dictionary,
)
from solver.dictionaries.selectors import NoDefaultDictionary, dictionary_default
from solver.engine.board import Board, BoardError
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.engine.trie import TrieFormatError
from solver.engine.wordlist import WordListError
from solver.models import Dictionary

BAD_INPUT = 2  # exit status for anything wrong with what the user gave us
NOT_MIGRATED = (
    "The database is not set up yet: run `make run`, or run `manage.py migrate` first "
    "(then `manage.py load_dictionaries`)."
)
_SIZE = re.compile(r"^(\d+)[x×](\d+)$")


def database_ready() -> bool:
    """Return whether the database has the table of every installed model (it was migrated)."""
    try:
        existing = set(connection.introspection.table_names())
    except DatabaseError:  # no database at all (a PostgreSQL that does not exist)
        return False
    wanted = connection.introspection.django_table_names(only_existing=False)
    return set(wanted) <= existing


class DatabaseCommand(BaseCommand):
    """A command that reads or writes the database: run before the database is set up, it
    says what to run, in one line, and exits 2 (rather than a traceback)."""

    def execute(self, *args: Any, **options: Any) -> Any:
        if not database_ready():
            raise CommandError(NOT_MIGRATED, returncode=BAD_INPUT)
        return super().execute(*args, **options)


def positive_int(text: str) -> int:
    """Parse a whole number of at least 1 for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def add_dictionary_option(parser: argparse.ArgumentParser) -> None:
    """Add --dictionary NAME_OR_PATH (default: the site's default dictionary)."""
    parser.add_argument(
        "--dictionary",
        default=None,
        metavar="NAME_OR_PATH",
        help="a dictionary's slug in the database, yawl, enable2k or a word-list file "
        f"(default: the database's default dictionary, else {DEFAULT_DICTIONARY})",
    )


def add_rules_options(parser: argparse.ArgumentParser, defaults: Rules) -> None:
    """Add --min-length, --scoring and --adjacency with the given defaults."""
    parser.add_argument("--min-length", type=positive_int, default=defaults.min_length, metavar="N")
    parser.add_argument("--scoring", choices=SCORINGS, default=defaults.scoring)
    parser.add_argument("--adjacency", choices=ADJACENCIES, default=defaults.adjacency)


def rules_from(options: dict[str, object]) -> Rules:
    """Return the rules named by parsed options."""
    return Rules(
        min_length=int(str(options["min_length"])),
        adjacency=options["adjacency"],  # type: ignore[arg-type]
        scoring=options["scoring"],  # type: ignore[arg-type]
    )


def dictionary_from(name_or_path: str | None) -> LoadedDictionary:
    """Return the dictionary named on the command line, reporting skipped words on stderr.

    A name is looked up as a database slug first, then as a shipped list, then as a path.
    """
    try:
        loaded = load_dictionary(name_or_path)
    except (DictionaryNotFound, WordListError, TrieFormatError) as exc:
        raise CommandError(str(exc), returncode=BAD_INPUT) from None
    except OSError as exc:
        raise CommandError(f"{name_or_path}: {exc.strerror or exc}", returncode=BAD_INPUT) from None
    if loaded.skipped_report:
        print(f"{loaded.name}: {loaded.skipped_report}", file=sys.stderr)
    return loaded


def looks_like_path(argument: str) -> bool:
    """Return whether a board argument was meant as a file name rather than rows."""
    return bool(re.search(r"\.\w+$", argument)) or argument.startswith(("/", ".", "~"))


def board_from(argument: str) -> Board:
    """Return the board in a file, or written as rows or a share code on the command line."""
    path = Path(argument)
    try:
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                raise CommandError(
                    f"{path}: cannot read the board ({exc})", returncode=BAD_INPUT
                ) from None
            return Board.from_text(text, str(path))
        if looks_like_path(argument):
            raise CommandError(f"{argument}: no such board file", returncode=BAD_INPUT)
        if not argument.strip():
            raise CommandError("the board is empty", returncode=BAD_INPUT)
        return Board.parse(argument, "board")
    except BoardError as exc:
        raise CommandError(str(exc), returncode=BAD_INPUT) from None


def size_from(text: str, examples: str) -> tuple[int, int]:
    """Return the rows and columns of a --size like 4x4 (or 4×4); `examples` name good ones."""
    match = _SIZE.match(text.strip().lower())
    if not match:
        raise CommandError(f"--size {text!r} is not a size like {examples}", returncode=BAD_INPUT)
    return int(match[1]), int(match[2])


def stored_dictionary(slug: str | None) -> Dictionary:
    """Return the stored dictionary of a slug (the default one without), or a clear error."""
    if slug is None:
        try:
            return dictionary_default()
        except NoDefaultDictionary as exc:
            raise CommandError(str(exc), returncode=BAD_INPUT) from None
    found = Dictionary.objects.filter(slug=slug).first()
    if found is None:
        known = ", ".join(Dictionary.objects.values_list("slug", flat=True))
        raise CommandError(
            f"unknown dictionary {slug!r}: use one of {known or 'none (load them)'}",
            returncode=BAD_INPUT,
        )
    return found
