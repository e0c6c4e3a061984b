"""Finding a dictionary by name for the commands: a database slug, a shipped list or a file.

Games use ``solver.dictionaries.selectors.dictionary_trie`` on a Dictionary row; this module adds
the shipped files and any word-list file, for commands that run without (or before) a database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DatabaseError

from solver.dictionaries import selectors
from solver.dictionaries.tries import trie_store
from solver.engine.store import file_digest
from solver.engine.trie import Trie
from solver.engine.wordlist import WordList, read_word_list
from solver.models import Dictionary

log = logging.getLogger(__name__)

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "data" / "dictionaries"
SHIPPED = {"yawl": SHIPPED_DIR / "yawl.txt.gz", "enable2k": SHIPPED_DIR / "enable2k.txt.gz"}
DEFAULT_DICTIONARY = (
    "yawl"  # the shipped list that is the default, with no database or in a new one
)


class DictionaryNotFound(LookupError):
    """A dictionary name that is neither a database slug, shipped, nor a readable file."""


@dataclass(frozen=True)
class LoadedDictionary:
    """A compiled dictionary, where it is stored, and how to read its list again."""

    name: str
    trie: Trie
    compiled: Path
    words: Callable[[], WordList]
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def skipped_report(self) -> str:
        """Return the lines about words skipped when the list was compiled ('' if none)."""
        return self.notes.get("skipped", "")


_cache: dict[tuple[str, int, int], LoadedDictionary] = {}
_lock = threading.Lock()


def resolve_source(name_or_path: str) -> Path:
    """Return the word-list file for a shipped dictionary's name or a path."""
    if name_or_path.lower() in SHIPPED:
        return SHIPPED[name_or_path.lower()]
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    names = ", ".join(sorted(SHIPPED))
    raise DictionaryNotFound(
        f"unknown dictionary {name_or_path!r}: use a dictionary's slug, one of {names} "
        "or the path of a word-list file"
    )


def load_dictionary(name_or_path: str | None = None) -> LoadedDictionary:
    """Return the compiled dictionary for a database slug, a shipped name or a file.

    Without a name: the database's default dictionary, or YAWL when there is no database.
    """
    from_database = _load_from_database(name_or_path)
    if from_database is not None:
        return from_database
    source = resolve_source(name_or_path or DEFAULT_DICTIONARY)
    stat = source.stat()
    key = (str(source.resolve()), stat.st_mtime_ns, stat.st_size)
    with _lock:
        if key not in _cache:
            store = trie_store()
            digest = file_digest(source)
            trie, notes = store.load_or_build(digest, lambda: read_word_list(source))
            _cache[key] = LoadedDictionary(
                name_or_path or DEFAULT_DICTIONARY,
                trie,
                store.path_for(digest),
                lambda: read_word_list(source),
                notes,
            )
        return _cache[key]


def _load_from_database(slug: str | None) -> LoadedDictionary | None:
    """Return a dictionary of the database by slug (or the default), or None if there is none."""

    try:
        if slug is None:
            row = Dictionary.objects.filter(is_default=True).first()
        else:
            row = Dictionary.objects.filter(slug=slug).first()
    except DatabaseError as exc:  # not migrated, or no database: the files still work
        log.debug("no dictionaries in the database (%s)", exc)
        return None
    if row is None:
        return None
    trie = selectors.dictionary_trie(row)
    return LoadedDictionary(
        row.slug,
        trie,
        Path(trie.source),
        lambda: selectors.dictionary_word_list(row),
        {"words": str(len(trie))},
    )
