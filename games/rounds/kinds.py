"""Kinds of room and how their rounds finish: a room of friends' (solo games included), a
daily attempt's and an arena's. round_end does what every round's end does (the one
conditional UPDATE, the words read, the board's standing, the results stored, the
announcement); the room's kind scores the round, stores what that kind keeps besides, says
what one seat sees of the results and what the room's page adds.

The kinds of the features above this one (the daily boards, the arena) register themselves
when the app is ready (games.apps), so this module imports none of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import Player, Room, Round, sql
from games.rules.room_settings import RoomSettings
from games.rules.scoring import Found, results_compact, results_full, round_results
from solver.engine.commonness import commonness

Row = tuple[int, str, str, int]  # an accepted word: player, word, path as JSON text, points
ROOM, DAILY, ARENA = "room", "daily", "arena"


@dataclass(frozen=True)
class Ended:
    """A round its end has just finished, with what scoring it reads."""

    round: Round  # with its room
    settings: RoomSettings
    seated: list[tuple[int, str, int]]  # each seat's id, nickname and game total before
    rows: list[Row]
    hints: dict[int, int]  # hints taken, by player id
    now: datetime

    @property
    def players(self) -> dict[int, str]:
        """Return each player's nickname by id."""
        return {pid: name for pid, name, _ in self.seated}


class RoomKind:
    """A room of friends, solo games included: shared words struck (if the settings say so),
    points added to each seat's game total; the base of the other kinds."""

    name = ROOM

    def players_since(self, rnd: Round) -> datetime | None:
        """Return since when a seat must have been seen to play the round (None: every seat
        in the room plays it)."""
        return None

    def finish(self, ended: Ended) -> dict[str, Any]:
        """Score the round and store what this kind keeps besides its results; return the
        results (round_end adds what every round's results say, then stores them)."""
        results = round_results(
            solution=ended.round.solution,
            found=_found(ended.rows),
            players=ended.players,
            cancel_duplicates=ended.settings.duplicates == "cancel",
            commonness=commonness,
            computer_takes_rest=ended.round.room.is_solo,
            hints_taken=ended.hints,
            hint_cost=ended.settings.hint_cost,
        )
        _totals_add({row["id"]: row["score"] for row in results["players"] if row["score"]})
        before = {pid: total for pid, _, total in ended.seated}  # only round ends change them,
        for row in results["players"]:  # and a room ends one round at a time
            row["total"] = before.get(row["id"], 0) + row["score"]
        return results

    def results_stored(self, results: dict[str, Any]) -> dict[str, Any]:
        """Return the results as this kind stores them: a room of friends' round that nobody
        found a word in without the board's words again (results_compact)."""
        return results_compact(results)

    def results_seen(self, rnd: Round, seat_id: int | None) -> dict[str, Any]:
        """Return a finished round's results as one seat (None: a spectator) sees them."""
        return results_full(rnd.results or {}, rnd.solution, commonness)

    def board_label(self, rnd: Round) -> str:
        """Return what the results call the round's board: the host's if they gave it."""
        return "The host's board" if rnd.given else "The board"

    def page_extra(self, room: Room) -> dict[str, str] | None:
        """Return what the room's page says of the room beyond its settings (a daily
        attempt: the day's title and page), or None."""
        return None


_KINDS: dict[str, RoomKind] = {ROOM: RoomKind()}


def room_kind_register(kind: RoomKind) -> None:
    """Make a kind of room known (once, as the app gets ready)."""
    _KINDS[kind.name] = kind


def room_kind(room: Room) -> RoomKind:
    """Return a room's kind."""
    name = ARENA if room.is_arena else DAILY if room.is_daily else ROOM
    return _KINDS[name]


def _found(rows: list[Row]) -> list[Found]:
    """Return accepted words as Found, each distinct path decoded once."""
    paths: dict[str, list[int]] = {}
    found = []
    for pid, word, text, points in rows:
        path = paths.get(text)
        if path is None:
            path = paths[text] = json.loads(text)
        found.append(Found(pid, word, path, points))
    return found


def _totals_add(scored: dict[int, int]) -> None:
    """Add each player's points of a round to their total in the room: one statement sent
    many times in a batch (an UPDATE with a CASE per player cost 0.4 s to build at 2,000)."""
    if not scored:
        return
    total, key = sql.column(Player, "total_score"), sql.column(Player, "id")
    sql.execute_many(
        f"UPDATE {sql.table(Player)} SET {total} = {total} + %s WHERE {key} = %s",
        [(points, pid) for pid, points in scored.items()],
    )
