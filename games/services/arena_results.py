"""An arena round's results, shaped for thousands of players (docs/arena.md).

At time-up round_end scores the round as any room's (no striking: the arena's settings count
every word) and hands the table here. Each player's own part (their words, each marked when
nobody else found it, their score, rank and percentile) becomes one ArenaEntry row; the round
keeps what everyone shares: the top 10 (points only), the solution with how many found each
word (not who), and how many played. A player's results are then those two read together
(`arena_results_personal`): no client ever downloads everyone's words.
"""

from __future__ import annotations

from typing import Any

from django.db.models import JSONField, Value

from games.arena import standing_of
from games.daily import percentile_of
from games.models import ArenaEntry, Round

TOP = 10  # players in a round's top list, live and at the end


def arena_results_split(*, round_id: int, results: dict[str, Any]) -> dict[str, Any]:
    """Store each player's own results of an arena round (ArenaEntry) and return the part
    the round keeps (inside round_end's transaction)."""
    table: list[dict[str, Any]] = results["players"]  # best first
    scores = [row["score"] for row in table]
    standings = {score: standing_of(score, scores) for score in set(scores)}
    finders = {w["word"]: len(w["found_by"]) for w in results["solution"]}
    ArenaEntry.objects.bulk_create(
        ArenaEntry(
            round_id=round_id,
            player_id=row["id"],
            nickname=row["nickname"],
            score=row["score"],
            rank=standings[row["score"]][0],
            below=standings[row["score"]][1],
            players=len(table),
            # As an expression: Django's UNNEST insert on PostgreSQL would escape every
            # entry's JSON into one array literal (half of a 500-player round's end).
            words=Value(
                [{**w, "only_me": finders.get(w["word"], 0) == 1} for w in row["words"]],
                output_field=JSONField(),
            ),
        )
        for row in table
    )
    top = [
        {**row, "words": [], "rank": standings[row["score"]][0], "found": len(row["words"])}
        for row in table[:TOP]
    ]
    solution = [
        {**{k: v for k, v in w.items() if k != "found_by"}, "found_count": len(w["found_by"])}
        for w in results["solution"]
    ]
    return {**results, "players": top, "solution": solution, "arena": {"players": len(table)}}


def arena_results_personal(rnd: Round, seat_id: int) -> dict[str, Any]:
    """Return a finished arena round's results as one player sees them: the shared part, with
    their own words, rank and percentile, and the words only they found."""
    shared: dict[str, Any] = rnd.results or {}
    entry = ArenaEntry.objects.filter(round=rnd, player_id=seat_id).first()
    mine = arena_results_mine(shared, entry, seat_id)
    own = {w["word"] for w in entry.words} if entry is not None else set()
    solution = [
        {**w, "found_by": [seat_id] if w["word"] in own else []} for w in shared.get("solution", [])
    ]
    return {**shared, "players": mine["players"], "solution": solution, "arena": mine["arena"]}


def arena_results_mine(
    shared: dict[str, Any], entry: ArenaEntry | None, seat_id: int
) -> dict[str, Any]:
    """Return one player's own part of a finished arena round: the top list with their row in
    it (their words too) and `arena`, their score, rank, percentile and the words only they
    found. With the round's shared part (its `solution` marked `found_by` from their words)
    it makes their results; the socket sends the two apart (games.arena_delivery)."""
    arena: dict[str, Any] = {**shared.get("arena", {}), "played": entry is not None}
    players = list(shared.get("players", []))
    if entry is not None:
        row = {
            "id": seat_id, "nickname": entry.nickname, "score": entry.score, "rank": entry.rank,
            "found": len(entry.words), "words": entry.words,
        }  # fmt: skip
        players = [p for p in players if p["id"] != seat_id]
        players.append(row)
        players.sort(key=lambda p: (-p["score"], p["id"] != seat_id, p["nickname"]))
        arena.update(
            score=entry.score,
            rank=entry.rank,
            percentile=percentile_of(below=entry.below, players=entry.players),
            only_me=sorted(w["word"] for w in entry.words if w["only_me"]),
        )
    return {"id": seat_id, "players": players, "arena": arena}
