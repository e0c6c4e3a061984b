"""The per-process cache of compiled dictionaries, and how a process notices a changed list.

A dictionary's compiled trie is named by its content hash. Each process keeps the tries it
uses in memory (memory-mapped from the shared store on disk) and re-reads a dictionary's
current hash at most every ``recheck_seconds``: a change made in the admin reaches every
worker that quickly, with one small query per dictionary, and no restart.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from solver.engine.store import TrieStore
from solver.engine.trie import Trie
from solver.engine.wordlist import WordList

RECHECK_SECONDS = 2.0
CAPACITY = 8  # tries kept mapped per process; older versions are reloaded from disk if asked


class DictionaryVersionGone(LookupError):
    """A version of a dictionary that is neither compiled on disk nor its current list."""


class _Moved(Exception):
    """The list changed between reading its hash and reading its words."""

    def __init__(self, word_list: WordList) -> None:
        self.word_list = word_list


class TrieCache:
    """Compiled tries by content hash, and each dictionary's last known hash."""

    def __init__(
        self,
        store: Callable[[], TrieStore],
        current_hash: Callable[[int], str],
        word_list: Callable[[int], WordList],
        *,
        recheck_seconds: float = RECHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        capacity: int = CAPACITY,
    ) -> None:
        self._store = store
        self._current_hash = current_hash
        self._word_list = word_list
        self.recheck_seconds = recheck_seconds
        self.clock = clock
        self.capacity = capacity
        self._tries: OrderedDict[str, Trie] = OrderedDict()
        self._checked: dict[int, tuple[str, float]] = {}
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()

    def clear(self) -> None:
        """Forget every trie and every known hash (tests; a process never needs it)."""
        with self._lock:
            self._tries.clear()
            self._checked.clear()

    def current_hash(self, pk: int, seen_hash: str) -> str:
        """Return a dictionary's content hash, read from the database at most every few seconds.

        A caller holding a row with another hash than the one remembered is proof of a
        change, so that reads the database at once.
        """
        now = self.clock()
        with self._lock:
            known = self._checked.get(pk)
        if known and known[0] == seen_hash and now - known[1] < self.recheck_seconds:
            return known[0]
        fresh = self._current_hash(pk)
        with self._lock:
            self._checked[pk] = (fresh, now)
        return fresh

    def trie(self, pk: int, seen_hash: str, content_hash: str | None = None) -> Trie:
        """Return the compiled list of a dictionary: its current one, or the version named."""
        wanted = content_hash or self.current_hash(pk, seen_hash)
        with self._lock:
            if wanted in self._tries:
                self._tries.move_to_end(wanted)
                return self._tries[wanted]
        with self._build_lock:
            trie, wanted = self._load(pk, wanted, exact=content_hash is not None)
        with self._lock:
            self._tries[wanted] = trie
            self._tries.move_to_end(wanted)
            while len(self._tries) > self.capacity:
                self._tries.popitem(last=False)
        return trie

    def _load(self, pk: int, wanted: str, *, exact: bool) -> tuple[Trie, str]:
        """Return the trie for a hash from disk, building it from the current list if needed."""

        def build() -> WordList:
            word_list = self._word_list(pk)
            if word_list.digest != wanted:
                raise _Moved(word_list)
            return word_list

        store = self._store()
        try:
            return store.load_or_build(wanted, build)[0], wanted
        except _Moved as moved:
            if exact:
                raise DictionaryVersionGone(
                    f"version {wanted[:12]} of dictionary {pk} is no longer available"
                ) from None
            word_list = moved.word_list
        with self._lock:
            self._checked[pk] = (word_list.digest, self.clock())
        return store.load_or_build(word_list.digest, lambda: word_list)[0], word_list.digest


def trie_store() -> TrieStore:
    """Return the store of compiled dictionaries shared by the processes of this host."""
    return TrieStore(Path(settings.BOGGLE_CACHE_DIR))
