"""An arena round's results, shaped for thousands of players (docs/arena.md).

At time-up round_end scores the round as any room's (no striking: the arena's settings count
every word) and hands the table here. Each player's own part (their words, each marked when
nobody else found it, their score, rank and percentile) becomes one ArenaEntry row; the round
keeps what everyone shares: the top 10 (points only), the solution with how many found each
word (not who), and how many played. A player's results are then those two read together
(`arena_results_personal`): no client ever downloads everyone's words.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection

from games.arena import standing_of
from games.daily import percentile_of
from games.models import ArenaEntry, Round
from games.results import Ratings, missed_words

TOP = 10  # players in a round's top list, live and at the end


class EntryRow(NamedTuple):
    """One player's ArenaEntry as it is inserted (`words` as JSON text)."""

    player_id: int
    nickname: str
    score: int
    rank: int
    below: int
    players: int
    words: str


@dataclass(frozen=True)
class ArenaScored:
    """A scored arena round: what the round keeps and each player's entry."""

    shared: dict[str, Any]
    entries: list[EntryRow]

    def store(self, round_id: int) -> None:
        """Insert the round's entries (inside round_end's transaction)."""
        _entries_insert(round_id, self.entries)


def arena_results_score(
    *,
    solution: Sequence[Sequence[Any]],
    rows: Iterable[tuple[int, str, str, int]],
    players: dict[int, str],
    rated: Ratings,
) -> ArenaScored:
    """Score an arena round: every word scores for whoever found it (no striking).

    `rows` are the round's accepted words as stored: (player, word, path as JSON text,
    points). Each player's entry keeps their words (word, path, points, and `only_me` when
    nobody else found it), encoded once per distinct word and path and joined, so that a
    round of 2,000 players and 120,000 words builds no object per word; the word's
    commonness is the round's (in its solution) and is added back as results are read.
    The round keeps the top 10 without words, the solution with how many found each word
    rather than who, the words nobody found, and how many played.
    """
    rows = list(rows)
    finders = Counter(word for _, word, _, _ in rows)  # a player stores a word once
    encoded: dict[tuple[str, str], str] = {}
    own: dict[int, list[tuple[str, str]]] = {pid: [] for pid in players}
    scores = dict.fromkeys(players, 0)
    for pid, word, path, points in rows:
        part = encoded.get((word, path))
        if part is None:
            part = encoded[(word, path)] = json.dumps(
                {"word": word, "path": json.loads(path), "points": points,
                 "only_me": finders[word] == 1}
            )  # fmt: skip
        own.setdefault(pid, []).append((word, part))
        scores[pid] = scores.get(pid, 0) + points
    table = sorted(own, key=lambda pid: (-scores[pid], players.get(pid, "?")))
    everyone = [scores[pid] for pid in table]
    standings = {score: standing_of(score, everyone) for score in set(everyone)}
    entries = []
    for pid in table:
        rank, below = standings[scores[pid]]
        listed = "[" + ", ".join(part for _, part in sorted(own[pid])) + "]"
        nickname = players.get(pid, "?")
        entries.append(EntryRow(pid, nickname, scores[pid], rank, below, len(table), listed))
    top = [
        {"id": pid, "nickname": players.get(pid, "?"), "words": [], "score": scores[pid]}
        | {"rank": standings[scores[pid]][0], "found": len(own[pid])}
        for pid in table[:TOP]
    ]
    words = [
        {"word": word, "path": path, "points": points, **rated(word), "found_count": finders[word]}
        for word, path, points in solution
    ]
    shared = {
        "players": top,
        "solution": words,
        "missed": [w["word"] for w in missed_words(w for w in words if not w["found_count"])],
        "max_score": sum(w["points"] for w in words),
        "duplicates_cancel": False,
        "arena": {"players": len(table)},
    }
    return ArenaScored(shared, entries)


def _entries_insert(round_id: int, entries: list[EntryRow]) -> None:
    """Insert a round's ArenaEntry rows: one statement sent once a row, in a batch.
    bulk_create built one statement of 16,000 parameters at 2,000 players, which Django and
    psycopg then took a second to compose and split."""
    meta = ArenaEntry._meta
    quote = connection.ops.quote_name
    column_of = {field.name: field.column for field in meta.concrete_fields}
    fields = ("round", *EntryRow._fields)
    columns = ", ".join(quote(column_of[name.removesuffix("_id")]) for name in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})",
            [(round_id, *entry) for entry in entries],
        )


def arena_results_personal(rnd: Round, seat_id: int) -> dict[str, Any]:
    """Return a finished arena round's results as one player sees them: the shared part, with
    their own words, rank and percentile, and the words only they found."""
    shared: dict[str, Any] = rnd.results or {}
    entry = ArenaEntry.objects.filter(round=rnd, player_id=seat_id).first()
    mine = arena_results_mine(shared, entry, seat_id, solution_ratings(shared))
    own = {w["word"] for w in entry.found} if entry is not None else set()
    solution = [
        {**w, "found_by": [seat_id] if w["word"] in own else []} for w in shared.get("solution", [])
    ]
    return {**shared, "players": mine["players"], "solution": solution, "arena": mine["arena"]}


def solution_ratings(shared: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Return each word's commonness (`zipf`, `commonness`) from a finished arena round's
    solution: the round's, added to each player's words as they are read."""
    return {
        w["word"]: {"zipf": w["zipf"], "commonness": w["commonness"]}
        for w in shared.get("solution", [])
        if "zipf" in w
    }


def arena_results_mine(
    shared: dict[str, Any], entry: ArenaEntry | None, seat_id: int, ratings: dict[str, Any]
) -> dict[str, Any]:
    """Return one player's own part of a finished arena round: the top list with their row in
    it (their words too, with each word's commonness from `ratings`, solution_ratings) and
    `arena`, their score, rank, percentile and the words only they found. With the round's
    shared part (its `solution` marked `found_by` from their words) it makes their results;
    the socket sends the two apart (games.arena_delivery)."""
    arena: dict[str, Any] = {**shared.get("arena", {}), "played": entry is not None}
    players = list(shared.get("players", []))
    if entry is not None:
        words = [{**w, "struck": False, **ratings.get(w["word"], {})} for w in entry.found]
        row = {
            "id": seat_id, "nickname": entry.nickname, "score": entry.score, "rank": entry.rank,
            "found": len(words), "words": words,
        }  # fmt: skip
        players = [p for p in players if p["id"] != seat_id]
        players.append(row)
        players.sort(key=lambda p: (-p["score"], p["id"] != seat_id, p["nickname"]))
        arena.update(
            score=entry.score,
            rank=entry.rank,
            percentile=percentile_of(below=entry.below, players=entry.players),
            only_me=sorted(w["word"] for w in words if w["only_me"]),
        )
    return {"id": seat_id, "players": players, "arena": arena}
