"""Where a score stands among others (rank, percentile), and seeds keyed by the server secret:
the arithmetic the daily boards and the arena share."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable


def secret_seed(message: str, secret: str) -> int:
    """Return a seed keyed by the server secret (the daily boards', the arena's rounds')."""
    digest = hmac.new(secret.encode(), message.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2  # fits a signed 64-bit column


def rank_of(score: int, scores: Iterable[int]) -> int:
    """Return a score's rank among others (1 + how many scored more; ties share a rank)."""
    return 1 + sum(1 for other in scores if other > score)


def percentile_of(*, below: int, players: int) -> int:
    """Return the whole percentage of a board's players who scored less (the player among
    them: "better than 82% of 1,204 players")."""
    if players <= 0:
        return 0
    return (100 * below) // players


def standing_of(score: int, scores: list[int]) -> tuple[int, int]:
    """Return (rank, below) of a score among a round's scores (ties share a rank), by the
    daily board's definitions (rank_of; percentile_of turns `below` into one)."""
    return rank_of(score, scores), sum(1 for other in scores if other < score)
