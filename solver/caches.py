"""Per-process caches, each registered with the function that empties it, so that one call
empties them all: a test starts from nothing, as a newly started worker does.

A cache here only ever holds a copy of what the database or the disk holds (a round's fixed
facts, a compiled dictionary, a board standing): emptying one costs a reread, never data.
Each module registers its own as it is imported.
"""

from __future__ import annotations

from collections.abc import Callable

_CLEARS: dict[str, Callable[[], object]] = {}


def cache_register(name: str, clear: Callable[[], object]) -> None:
    """Make a cache known by its name, with the function that empties it."""
    _CLEARS[name] = clear


def caches_clear(*names: str) -> None:
    """Empty the caches named, or every one. A cache not registered yet is empty: the module
    that keeps it has not been imported in this process."""
    for name in names or tuple(_CLEARS):
        clear = _CLEARS.get(name)
        if clear is not None:
            clear()


def caches_registered() -> list[str]:
    """Return the names of the caches registered so far, sorted."""
    return sorted(_CLEARS)
