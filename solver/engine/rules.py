"""Rules as one value: minimum length, adjacency and scoring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Adjacency = Literal["king", "rook"]
Scoring = Literal["classic", "linear"]

ADJACENCIES: tuple[Adjacency, ...] = ("king", "rook")
SCORINGS: tuple[Scoring, ...] = ("classic", "linear")

# Points by number of letters (Qu counts two); index 8 stands for 8 and longer.
_CLASSIC = (0, 0, 0, 1, 1, 2, 3, 5, 11)
# Word lengths are stored in one byte, so a table of 256 covers every word.
SCORE_TABLE_SIZE = 256


def points_for_length(letters: int, scoring: Scoring) -> int:
    """Return the points a word of this many letters scores, before any minimum."""
    if scoring == "classic":
        return _CLASSIC[min(letters, 8)]
    return max(letters - 3, 0)


@dataclass(frozen=True, slots=True)
class Rules:
    """How words are formed and scored on a board."""

    min_length: int = 3
    adjacency: Adjacency = "king"
    scoring: Scoring = "classic"

    def __post_init__(self) -> None:
        if not isinstance(self.min_length, int) or self.min_length < 1:
            raise ValueError(
                f"minimum word length must be a positive integer, not {self.min_length!r}"
            )
        if self.adjacency not in ADJACENCIES:
            raise ValueError(
                f"adjacency must be one of {', '.join(ADJACENCIES)}, not {self.adjacency!r}"
            )
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {self.scoring!r}")

    def score(self, word: str) -> int:
        """Return the points for a word (0 if it is shorter than the minimum)."""
        letters = len(word)
        return points_for_length(letters, self.scoring) if letters >= self.min_length else 0

    def score_table(self) -> tuple[int, ...]:
        """Return points by letter count, for every length a dictionary word can have."""
        return tuple(
            points_for_length(n, self.scoring) if n >= self.min_length else 0
            for n in range(SCORE_TABLE_SIZE)
        )


CLASSIC = Rules()
SEED_003 = Rules(min_length=4, scoring="linear")
