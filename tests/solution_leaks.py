"""Reading what a client received for anything of a round's solution: the test behind the
promise that no word or path reaches a player before the round ends (hints carry counts)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

# Where a round's words and paths live in what the server knows; none may reach a client
# before the end, except a player's own accepted words (with their paths).
SOLUTION_KEYS = frozenset({"solution", "missed", "computer", "words", "path", "paths"})


def leaks(
    value: Any, *, secret: Collection[str], own: Collection[str], where: str = ""
) -> list[str]:
    """Return every place in a frame that names a word of `secret` the player has not found
    (`own`), or holds words or paths from the solution; a dict whose `word` is one of the
    player's own may carry its path."""
    hidden = {word.upper() for word in secret} - {word.upper() for word in own}
    return _leaks(value, hidden, {word.upper() for word in own}, where)


def _leaks(value: Any, hidden: set[str], own: set[str], where: str) -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        mine = isinstance(value.get("word"), str) and value["word"].upper() in own
        for key, item in value.items():
            if key in SOLUTION_KEYS and not (mine and key == "path"):
                found.append(f"{where}.{key}")
            found += _leaks(key, hidden, own, f"{where}[key]")
            found += _leaks(item, hidden, own, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _leaks(item, hidden, own, f"{where}[{i}]")
    elif isinstance(value, str) and value.upper() in hidden:
        found.append(f"{where} = {value!r}")
    return found
