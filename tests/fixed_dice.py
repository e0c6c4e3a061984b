"""A dice set for tests that need words: four one-faced dice on a 2×2 board.

A round draws its board from a random seed, and now and then a random board holds too few
words for a test (0.9% of new16 boards have fewer than two with the algs4 list), so a test
that needs words must not start its rounds on one. Dice with one face each always show the
same letters, and on a 2×2 board with king adjacency every die touches every other, so however
the dice are shuffled the board spells the same words. It is data only (a DiceSet row, no test
hook in the product), so it works in daphne workers the tests start as well as in-process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIXED_DICE_SLUG = "test-fixed-2x2"
FIXED_FACES = ("S", "I", "T", "E")
FIXED_DICE: dict[str, Any] = {
    "slug": FIXED_DICE_SLUG,
    "name": "Test dice: S I T E, one face each (2×2)",
    "rows": 2,
    "cols": 2,
    "dice": [[face] for face in FIXED_FACES],
    "min_length": 3,
    "scoring": "classic",
}
# A custom room's settings that play on these dice (the dice decide the board size).
FIXED_ROOM: dict[str, Any] = {"preset": "custom", "dice": FIXED_DICE_SLUG, "min_length": 3}
# What the board holds: tests/data/dictionaries/dictionary-algs4.txt, the games tests' list.
FIXED_WORDS_ALGS4 = frozenset({"ITS", "SET", "SIT", "SITE", "TIE", "TIES"})


def fixed_dice_create() -> Any:
    """Create the fixed dice set in the current database (once) and return it."""
    from solver.models import DiceSet

    dice, created = DiceSet.objects.get_or_create(slug=FIXED_DICE_SLUG, defaults=FIXED_DICE)
    if created:
        dice.full_clean()
    return dice


def words_needed(solution: Sequence[Sequence[Any]], needed: int, board: str = "") -> list[str]:
    """Return the first `needed` words of a round's solution; fail loudly when it has fewer.

    Tests call this in their setup: a board that stops holding the words a test needs (a
    changed list, another seed) then fails here, naming the board, instead of flaking later.
    """
    words = [str(entry[0]) for entry in solution]
    assert len(words) >= needed, (
        f"board {board or '?'} holds {len(words)} words {words}; the test needs {needed}"
    )
    return words[:needed]
