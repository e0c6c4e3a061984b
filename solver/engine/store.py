"""Compiled dictionaries on disk: built once per word list, then memory-mapped by every process."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from solver.engine.trie import FORMAT_VERSION, Trie, TrieFormatError, build_trie
from solver.engine.wordlist import WordList, read_word_list

log = logging.getLogger(__name__)


def file_digest(path: Path) -> str:
    """Return the SHA-256 of a file's bytes: the key of the trie compiled from it."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class TrieStore:
    """A directory of compiled dictionaries, each named by the hash of its word list."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path_for(self, key: str) -> Path:
        """Return where the trie with this key is (or will be) stored."""
        return self.directory / f"{key}.v{FORMAT_VERSION}.trie"

    def load_or_build(self, key: str, words: Callable[[], WordList]) -> tuple[Trie, dict[str, str]]:
        """Return the trie for key, building and saving it from words() the first time.

        Also returns the notes recorded when it was built (for example skipped words), so a
        report is never lost because the trie came from the cache.
        """
        path = self.path_for(key)
        try:
            trie = Trie.load(path)
            return trie, self._read_notes(path)
        except FileNotFoundError:
            pass
        except (TrieFormatError, ValueError, OSError) as exc:
            log.warning("rebuilding damaged compiled dictionary %s: %s", path, exc)
        word_list = words()
        self.directory.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, build_trie(word_list))
        notes = {"words": str(len(word_list.words)), "skipped": word_list.skipped_report()}
        _atomic_write(path.with_suffix(".json"), json.dumps(notes).encode())
        return Trie.load(path), notes

    def load_file(self, source: Path) -> tuple[Trie, dict[str, str]]:
        """Return the compiled form of a word-list file (plain or gzip)."""
        return self.load_or_build(file_digest(source), lambda: read_word_list(source))

    @staticmethod
    def _read_notes(path: Path) -> dict[str, str]:
        try:
            notes = json.loads(path.with_suffix(".json").read_text())
        except (OSError, ValueError):
            return {}
        return notes if isinstance(notes, dict) else {}


def _atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old one or the whole new one, never a part."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; workers may run as other users
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
