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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from operator import itemgetter
from typing import Any, NamedTuple

from django.db import connection

from games import protocol
from games.models import ArenaEntry, Round, sql
from games.rounds.kinds import ARENA, Ended, RoomKind
from games.rules.scoring import Ratings, missed_words
from games.rules.standings import percentile_of, standing_of
from solver.engine.commonness import commonness

TOP = 10  # players in a round's top list, live and at the end


class EntryRow(NamedTuple):
    """One player's ArenaEntry as it is inserted and as results read it back (`words` and
    `only_me` as JSON text)."""

    player_id: int
    nickname: str
    score: int
    rank: int
    below: int
    players: int
    words: str
    word_count: int
    only_me: str


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
    points). Each player's entry keeps their words as their results show them (word, path,
    points, `only_me` when nobody else found it, `struck` false, and the word's commonness),
    encoded once per distinct word and path and joined, so that a round of 2,000 players
    and 120,000 words builds no object per word, and results splice them in undecoded
    (arena_results_mine). The round keeps the top 10 without words, the solution with how
    many found each word rather than who, the words nobody found, and how many played.
    """
    rows = list(rows)
    finders = Counter(map(itemgetter(1), rows))  # a player stores a word once
    own: defaultdict[int, list[tuple[int, str, str, int]]] = defaultdict(list)
    own.update((pid, []) for pid in players)  # who found nothing played too
    for row in rows:
        own[row[0]].append(row)
    encoded: dict[str, str] = {}  # by word and path (a path's JSON starts with "[")
    listed: dict[int, str] = {}
    scores: dict[int, int] = {}
    for pid, mine in own.items():
        mine.sort(key=itemgetter(1))
        parts = []
        for _, word, path, points in mine:
            part = encoded.get(word + path)
            if part is None:
                part = encoded[word + path] = json.dumps(
                    {"word": word, "path": json.loads(path), "points": points,
                     "only_me": finders[word] == 1, "struck": False, **rated(word)}
                )  # fmt: skip
            parts.append(part)
        listed[pid] = "[" + ", ".join(parts) + "]"
        scores[pid] = sum(map(itemgetter(3), mine))
    table = sorted(own, key=lambda pid: (-scores[pid], players.get(pid, "?")))
    everyone = [scores[pid] for pid in table]
    standings = {score: standing_of(score, everyone) for score in set(everyone)}
    entries = []
    for pid in table:
        rank, below = standings[scores[pid]]
        only_me = json.dumps([word for _, word, _, _ in own[pid] if finders[word] == 1])
        nickname, score, count = players.get(pid, "?"), scores[pid], len(own[pid])
        entries.append(
            EntryRow(pid, nickname, score, rank, below, len(table), listed[pid], count, only_me)
        )
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
    """Insert a round's ArenaEntry rows. On PostgreSQL in one COPY (2,000 players' entries,
    10 KB each: 0.5 s as a batch of INSERTs, 0.15-0.2 s copied, with the words compressed by
    lz4: migration 0014); elsewhere one INSERT sent once a row, in a batch. (bulk_create
    built one statement of 16,000 parameters, which Django and psycopg took a second to
    compose and split.)"""
    fields = ("round", *EntryRow._fields)
    table = sql.table(ArenaEntry)
    columns = sql.columns(ArenaEntry, *(name.removesuffix("_id") for name in fields))
    rows = [(round_id, *entry) for entry in entries]
    with connection.cursor() as cursor:
        if sql.on_postgresql():  # psycopg 3's cursor, under Django's
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def arena_results_personal(rnd: Round, seat_id: int) -> dict[str, Any]:
    """Return a finished arena round's results as one player sees them: the shared part, with
    their own words, rank and percentile, and the words only they found."""
    shared: dict[str, Any] = rnd.results or {}
    entry = ArenaEntry.objects.filter(round=rnd, player_id=seat_id).first()
    mine = json.loads(arena_results_mine(shared, entry, seat_id))
    own = {w["word"] for p in mine["players"] if p["id"] == seat_id for w in p["words"]}
    solution = [
        {**w, "found_by": [seat_id] if w["word"] in own else []} for w in shared.get("solution", [])
    ]
    return {**shared, "players": mine["players"], "solution": solution, "arena": mine["arena"]}


def arena_results_mine(
    shared: dict[str, Any], entry: EntryRow | ArenaEntry | None, seat_id: int
) -> str:
    """Return one player's own part of a finished arena round, encoded: the top list with
    their row in it (their words too) and `arena`, their score, rank, percentile and the words
    only they found. With the round's shared part (its `solution` marked `found_by` from
    their words) it makes their results; the socket sends the two apart
    (games.arena.delivery). Their words go in as stored, never decoded: at time-up each
    worker does this for a thousand players at once."""
    arena: dict[str, Any] = {**shared.get("arena", {}), "played": entry is not None}
    players = list(shared.get("players", []))
    own: dict[str, Any] | None = None
    if entry is not None:
        own = {
            "id": seat_id, "nickname": entry.nickname, "score": entry.score, "rank": entry.rank,
            "found": entry.word_count,
        }  # fmt: skip
        players = [p for p in players if p["id"] != seat_id]
        players.append(own)
        players.sort(key=lambda p: (-p["score"], p["id"] != seat_id, p["nickname"]))
        arena.update(
            score=entry.score,
            rank=entry.rank,
            percentile=percentile_of(below=entry.below, players=entry.players),
            only_me=json.loads(entry.only_me),
        )
    words = entry.words if entry is not None else "[]"
    rows = [
        protocol.encode(p)[:-1] + ',"words":' + words + "}" if p is own else protocol.encode(p)
        for p in players
    ]
    return f'{{"id":{int(seat_id)},"players":[{",".join(rows)}],"arena":{protocol.encode(arena)}}}'


class ArenaRound(RoomKind):
    """An arena round: its players are the seats present during it; every word scores for
    whoever found it; each player's part is stored apart, and each sees only their own."""

    name = ARENA

    def results_stored(self, results: dict[str, Any]) -> dict[str, Any]:
        """Return the results whole: this kind's pages read the board's words from them."""
        return results

    def players_since(self, rnd: Round) -> datetime | None:
        return rnd.starts_at

    def finish(self, ended: Ended) -> dict[str, Any]:
        scored = arena_results_score(
            solution=ended.round.solution,
            rows=ended.rows,
            players=ended.players,
            rated=Ratings(commonness),
        )
        scored.store(ended.round.pk)
        return scored.shared  # an arena keeps no game totals: thousands of seats, none shown

    def results_seen(self, rnd: Round, seat_id: int | None) -> dict[str, Any]:
        return arena_results_personal(rnd, seat_id or 0)
