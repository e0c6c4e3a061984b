"""A player's record: every finished round their seats played, read from what the rounds
stored (their results), never kept as a second copy.

A round counts for a player when one of their seats is in its results, the table of every
player at the end (a player who found nothing scored 0 and still played); a round the
player played from two devices' seats before joining them in one account counts once, with
the better of the two. Words are the
ones the results list for that seat; a struck word (found by another player too) counts as
found, for no points. The daily board's rounds and figures (streak, percentile) join this
record when it comes: a `kind` of their own in `Record.rounds_by_kind`. Arena rounds come
from each player's own entry (ArenaEntry), not the round's table, which keeps its top 10.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.daily.rules import DAILY_GAMES
from games.models import ArenaEntry, Player, PlayerIdentity, Room, Round

ROOM = "room"
SOLO = "solo"
DAILY = "daily"
ARENA = "arena"
KINDS = {ROOM: "In rooms", SOLO: "Solo", DAILY: "Daily boards", ARENA: "In the arena"}


@dataclass(frozen=True)
class PastRound:
    """One round a player played, as their record lists it."""

    round_id: int
    room_code: str
    number: int
    kind: str
    finished_at: datetime
    seat_id: int
    nickname: str
    score: int
    words: int
    rank: int  # 1 for the best score (ties share a rank)
    players: int
    daily: str = ""  # a daily attempt's game and day, "Daily 4×4, 4 December 2026"

    @property
    def title(self) -> str:
        """Return what the record calls the round: its kind, and for a room its code and
        round (a solo game and a daily attempt are one room each, played by one)."""
        if self.kind == DAILY:
            return self.daily
        if self.kind == SOLO:
            return f"Solo, round {self.number}"
        if self.kind == ARENA:
            return f"Arena, round {self.number}"
        return f"Room {self.room_code}, round {self.number}"


@dataclass(frozen=True)
class WordFound:
    """A word a player found, and the round they found it in."""

    word: str
    points: int
    round: PastRound


@dataclass(frozen=True)
class Record:
    """What a player has done, over every identity that is theirs."""

    rounds: list[PastRound] = field(default_factory=list)  # newest first
    rounds_by_kind: dict[str, int] = field(default_factory=dict)
    points: int = 0
    words: int = 0
    longest: WordFound | None = None
    highest: WordFound | None = None
    best_round: PastRound | None = None


def player_record(identities: Iterable[PlayerIdentity]) -> Record:
    """Return the record of the player who holds these identities (games.identity's
    identities_of_player): one query for the seats, one for their rooms' finished rounds."""
    seats = {
        seat.pk: seat
        for seat in Player.objects.filter(identity__in=list(identities)).select_related(
            "room", "room__daily_attempt__board"
        )
    }
    if not seats:
        return Record()
    rows = (
        Round.objects.filter(
            room_id__in={seat.room_id for seat in seats.values()},
            room__is_arena=False,  # an arena round's table holds its top 10 only: see below
            status=Round.FINISHED,
            results__isnull=False,
            finished_at__isnull=False,
        )
        .order_by("-finished_at", "-id")
        .values("id", "room_id", "number", "finished_at", "results__players")
    )
    rounds: list[PastRound] = []
    words: list[tuple[str, int, PastRound]] = []
    for row in rows:
        table: list[dict[str, Any]] = row["results__players"] or []
        mine = next((p for p in table if p.get("id") in seats), None)
        if mine is None:
            continue  # the player's seat came after this round
        seat = seats[mine["id"]]
        past = PastRound(
            round_id=row["id"],
            room_code=seat.room.code,
            number=row["number"],
            kind=_kind(seat.room),
            finished_at=row["finished_at"] or datetime.min,  # the query asks for one
            seat_id=seat.pk,
            nickname=str(mine.get("nickname", seat.nickname)),
            score=int(mine["score"]),
            words=len(mine["words"]),
            rank=1 + sum(1 for p in table if p["score"] > mine["score"]),
            players=len(table),
            daily=_daily_title(seat.room),
        )
        rounds.append(past)
        words.extend((w["word"], int(w["points"]), past) for w in mine["words"])
    for past, found in _arena_rounds(seats):
        rounds.append(past)
        words.extend((w["word"], int(w["points"]), past) for w in found)
    rounds.sort(key=lambda r: (r.finished_at, r.round_id), reverse=True)
    return Record(
        rounds=rounds,
        rounds_by_kind={kind: sum(1 for r in rounds if r.kind == kind) for kind in KINDS},
        points=sum(r.score for r in rounds),
        words=len(words),
        longest=_best(words, key=lambda w: (len(w[0]), w[1])),
        highest=_best(words, key=lambda w: (w[1], len(w[0]))),
        best_round=min(
            (r for r in rounds if r.score > 0),
            key=lambda r: (-r.score, r.finished_at),
            default=None,
        ),
    )


def _kind(room: Room) -> str:
    if room.is_daily:
        return DAILY
    return SOLO if room.is_solo else ROOM


def _daily_title(room: Room) -> str:
    """Return a daily attempt's game and day ("Daily 4×4, 4 December 2026"), or ""."""
    if not room.is_daily:
        return ""
    board = room.daily_attempt.board  # read with the seats (select_related)
    game = DAILY_GAMES.get(board.game)
    return f"{game.name if game else board.game}, {board.day.day} {board.day:%B %Y}"


def _arena_rounds(seats: dict[int, Player]) -> list[tuple[PastRound, list[dict[str, Any]]]]:
    """Return the arena rounds these seats played, with the words found in each, from each
    player's own entry (games.arena.results): one query."""
    rows = (
        ArenaEntry.objects.filter(
            player_id__in=seats, round__finished_at__isnull=False
        ).values_list(
            "round_id",
            "round__number",
            "round__finished_at",
            "player_id",
            "nickname",
            "score",
            "rank",
            "players",
            "words",
        )  # fmt: skip
    )
    return [
        (
            PastRound(
                round_id=round_id,
                room_code=seats[seat_id].room.code,
                number=number,
                kind=ARENA,
                finished_at=finished_at or datetime.min,  # the query asks for one
                seat_id=seat_id,
                nickname=nickname,
                score=score,
                words=len(found),
                rank=rank,
                players=players,
            ),  # fmt: skip
            found,
        )
        for round_id, number, finished_at, seat_id, nickname, score, rank, players, words in rows
        for found in [json.loads(words)]
    ]


def _best(words: list[tuple[str, int, PastRound]], key: Any) -> WordFound | None:
    """Return the word that ranks first by `key` (larger first), the earliest found and
    then the first alphabetically among equals; None if there is none, or none scored."""
    if not words:
        return None
    word, points, past = min(
        words, key=lambda w: (tuple(-k for k in key(w)), w[2].finished_at, w[2].round_id, w[0])
    )
    if key((word, points, past))[0] <= 0:
        return None
    return WordFound(word=word, points=points, round=past)
