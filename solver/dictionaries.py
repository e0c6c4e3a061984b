"""The one place games and commands get a compiled dictionary from, cached per process."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from solver.engine.store import TrieStore
from solver.engine.trie import Trie

SHIPPED_DIR = Path(__file__).resolve().parent / "data" / "dictionaries"
SHIPPED = {"yawl": SHIPPED_DIR / "yawl.txt.gz", "enable2k": SHIPPED_DIR / "enable2k.txt.gz"}
DEFAULT_DICTIONARY = "yawl"


class DictionaryNotFound(LookupError):
    """A dictionary name that is neither shipped nor a readable file."""


@dataclass(frozen=True)
class LoadedDictionary:
    """A compiled dictionary and what is known about where it came from."""

    name: str
    trie: Trie
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def skipped_report(self) -> str:
        """Return the lines about words skipped when the list was compiled ('' if none)."""
        return self.notes.get("skipped", "")


_cache: dict[tuple[str, int, int], LoadedDictionary] = {}
_lock = threading.Lock()


def trie_store() -> TrieStore:
    """Return the store of compiled dictionaries configured for this site."""
    return TrieStore(Path(settings.BOGGLE_CACHE_DIR))


def resolve_source(name_or_path: str) -> Path:
    """Return the word-list file for a shipped dictionary's name or a path."""
    if name_or_path.lower() in SHIPPED:
        return SHIPPED[name_or_path.lower()]
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    names = ", ".join(sorted(SHIPPED))
    raise DictionaryNotFound(
        f"unknown dictionary {name_or_path!r}: use one of {names} or the path of a word-list file"
    )


def load_dictionary(name_or_path: str = DEFAULT_DICTIONARY) -> LoadedDictionary:
    """Return the compiled dictionary for a name or file, compiling it on first use."""
    source = resolve_source(name_or_path)
    stat = source.stat()
    key = (str(source.resolve()), stat.st_mtime_ns, stat.st_size)
    with _lock:
        if key not in _cache:
            trie, notes = trie_store().load_file(source)
            _cache[key] = LoadedDictionary(name_or_path, trie, notes)
        return _cache[key]
