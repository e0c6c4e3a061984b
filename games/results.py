"""Scoring a finished round: strike shared words, total each player, annotate the solution."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Found:
    """One accepted word of one player."""

    player_id: int
    word: str
    path: list[int]
    points: int


def round_results(
    *,
    solution: Sequence[Sequence[Any]],
    found: Iterable[Found],
    players: dict[int, str],
    cancel_duplicates: bool,
) -> dict[str, Any]:
    """Return the results of a round.

    A word found by two or more players is struck from every list and scores for nobody
    when duplicates cancel (the Hasbro rule); every other word scores its points.
    """
    found = list(found)
    finders: dict[str, list[int]] = defaultdict(list)
    for f in found:
        finders[f.word].append(f.player_id)
    per_player: dict[int, list[dict[str, Any]]] = {pid: [] for pid in players}
    for f in found:
        struck = cancel_duplicates and len(finders[f.word]) > 1
        per_player.setdefault(f.player_id, []).append(
            {"word": f.word, "path": f.path, "points": 0 if struck else f.points, "struck": struck}
        )
    table = [
        {
            "id": pid,
            "nickname": players.get(pid, "?"),
            "words": sorted(words, key=lambda w: w["word"]),
            "score": sum(w["points"] for w in words),
        }
        for pid, words in per_player.items()
    ]
    table.sort(key=lambda row: (-row["score"], row["nickname"]))
    words = [
        {"word": word, "path": path, "points": points, "found_by": sorted(finders.get(word, []))}
        for word, path, points in solution
    ]
    return {
        "players": table,
        "solution": words,
        "missed": [w["word"] for w in words if not w["found_by"]],
        "max_score": sum(w["points"] for w in words),
        "duplicates_cancel": cancel_duplicates,
    }
