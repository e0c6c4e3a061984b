"""Reading rounds: the running ones and their timing, a round as the room sees it, the words
found and their counts, a finished round and the seat through which a browser sees it."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, QuerySet
from django.urls import reverse

from games import protocol
from games.identity import identities_of_player
from games.models import Player, PlayerIdentity, Room, Round, Submission
from games.rules import clock
from games.rules.room_settings import stored_settings
from solver.definitions.selectors import SHIPPED_LANGUAGE, word_define
from solver.engine.board import Board
from solver.engine.definitions import Definition


def board_data(board_code: str) -> dict[str, Any]:
    """Return a board as clients draw it: size and faces row by row ('' is a blank)."""
    board = Board.from_share_code(board_code)
    return {"rows": board.rows, "cols": board.cols, "faces": list(board.faces), "code": board_code}


def round_public(rnd: Round, now: datetime) -> dict[str, Any]:
    """Return a round as the room sees it; the board only once it has started."""
    settings = stored_settings(rnd.settings)
    round_clock = clock.RoundClock.of(rnd)
    data: dict[str, Any] = {
        "number": rnd.number,
        "status": rnd.status,
        "starts_at": clock.millis(round_clock.starts_at),
        "ends_at": clock.millis(round_clock.ends_at),
        "grace_ms": round(round_clock.grace.total_seconds() * 1000),
        "rows": settings.rows,
        "cols": settings.cols,
        "min_length": settings.min_length,
        "adjacency": settings.adjacency,
        "scoring": settings.scoring,
    }
    if now >= rnd.starts_at or rnd.status == Round.FINISHED:
        data["board"] = board_data(rnd.board)
    return data


def word_counts(round_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Return, for each of these rounds, how many words each player (by id) has found in it
    (never which); one query however many rounds."""
    counts: dict[int, dict[str, int]] = {round_id: {} for round_id in round_ids}
    rows = (
        Submission.objects.filter(round_id__in=counts)
        .values("round_id", "player_id")
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts[row["round_id"]][str(row["player_id"])] = row["n"]
    return counts


_WORD_SKIPPED = ("id", "round", "player", "created_at")  # a word as a client gets it


def my_words(rnd: Round, player: Player) -> list[dict[str, Any]]:
    """Return a player's accepted words in a round, in the order found (each as the client
    draws it: word, points, path, client id)."""
    fields = [f.attname for f in Submission._meta.concrete_fields if f.name not in _WORD_SKIPPED]
    found = Submission.objects.filter(round_id=rnd.pk, player_id=player.pk).order_by("id")
    return list(found.values(*fields))


# Not the solution nor the results (thousands of words on a big board), which a snapshot
# never sends: every socket's arrival reads the room's latest round.
_ROUND_DEFERRED = ("solution", "results")


def round_latest(room_id: int, *, only: tuple[str, ...] = ()) -> Round | None:
    """Return a room's latest round, without its solution and results (or with the fields in
    `only` alone; the others are read if used)."""
    latest = Round.objects.filter(room_id=room_id).order_by("-number")
    latest = latest.only(*only) if only else latest.defer(*_ROUND_DEFERRED)
    return latest.first()


def results_url(code: str, number: int, watching: bool = False) -> str:
    """Return where a seated browser (or, watching, a spectator's) fetches a finished round's
    results (over HTTP)."""
    name = "watch-results" if watching else "round-results"
    return reverse(name, kwargs={"code": code, "number": number})


def round_ended_data(rnd: Round, code: str, now: datetime) -> dict[str, Any]:
    """Return what the round_ended event says: the round, and where its results are."""
    return {"round": round_public(rnd, now), "results_url": results_url(code, rnd.number)}


def round_find(room: Room, number: int) -> Round | None:
    """Return a room's round by its number, if it has one."""
    return Round.objects.filter(room=room, number=number).first()


NO_SUCH_ROUND = "no_such_round"


class RoundNotSeen(Exception):
    """Why a browser's player may not open a round: an HTTP status, a code of the protocol
    and words a player understands."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# A player who logged out (in another tab, say) plays as a new anonymous player from then on:
# the round they played logged in is the account's, and opens again once they log back in.
NOT_SEEN = (
    "Only the players in this room see its results. If you played it logged in and have "
    "logged out since (in another tab, perhaps), log in again: it is in your record."
)


def seated_ever(room: Room, identity: PlayerIdentity | None) -> bool:
    """Return whether the browser's player (any of their identities) ever sat in the room."""
    if identity is None:
        return False
    return Player.objects.filter(room=room, identity__in=identities_of_player(identity)).exists()


def round_and_seat(
    *, room: Room, number: int, identity: PlayerIdentity | None
) -> tuple[Round, Player]:
    """Return a round of the room and the seat through which this browser's player sees it:
    the seat (of any identity of the player's, games.identity.identities_of_player) that
    played it, even one since given up, so the record opens it again after they left; else
    their seat in the room. Raise RoundNotSeen for a player never seated there, a round the
    room does not have, or one they have no seat for. Whether it is over is the caller's."""
    if not seated_ever(room, identity):
        raise RoundNotSeen(403, protocol.NOT_IN_ROOM, NOT_SEEN)
    identities = list(identities_of_player(identity)) if identity is not None else []
    rnd = round_find(room, number)
    if rnd is None:
        raise RoundNotSeen(404, NO_SUCH_ROUND, f"This room has no round {number}.")
    seat = round_seat(rnd, identities)
    if seat is None:
        raise RoundNotSeen(403, protocol.NOT_IN_ROOM, NOT_SEEN)
    return rnd, seat


def round_seat(rnd: Round, identities: Iterable[PlayerIdentity]) -> Player | None:
    """Return the seat through which a player may see a round's results: the one of their
    seats that played it (even one they have since given up), else their seat in the room."""
    seats = list(Player.objects.filter(room_id=rnd.room_id, identity__in=list(identities)))
    played = {p.get("id") for p in (rnd.results or {}).get("players", [])}
    for seat in seats:
        if seat.pk in played:
            return seat
    return next((seat for seat in seats if seat.removed_at is None), None)


class WordNotInRound(LookupError):
    """A word asked about that the round's board does not hold."""


def round_word_definition(rnd: Round, word: str) -> Definition | None:
    """Return the definition of a word of a round (in its solution, or a player's word in its
    results), in the language of the round's dictionary; raise WordNotInRound for any other."""
    word = word.upper()
    words = {w for w, _, _ in rnd.solution}
    for row in (rnd.results or {}).get("players", []):
        words.update(w["word"] for w in row["words"])
    if word not in words:
        raise WordNotInRound(word)
    language = rnd.dictionary.language if rnd.dictionary is not None else SHIPPED_LANGUAGE
    return word_define(word=word, language=language)


def rounds_running(room_ids: Iterable[int] | None = None) -> QuerySet[Round]:
    """Return the running rounds (of these rooms only, if given)."""
    running = Round.objects.filter(status=Round.RUNNING)
    return running if room_ids is None else running.filter(room_id__in=list(room_ids))


def round_running(room_id: int) -> Round | None:
    """Return the room's running round, if there is one, without its solution and results
    (read only if asked for): the callers want its clock, and every socket arriving in an
    arena asks, a thousand at once at a round's start."""
    return rounds_running([room_id]).defer("solution", "results").first()


@dataclass(frozen=True)
class RoundTiming:
    """What a socket's timers need of the running round: a few fields, not the Round with its
    solution (each socket's timers hold it for the whole round: 30 KiB a socket, measured)."""

    id: int
    number: int
    board: str  # the share code
    starts_at: datetime
    ends_at: datetime | None
    # When it was read (monotonic seconds): of two reads of one round whose clock was moved
    # between them, the later read is the one to follow, whichever arrives last.
    read_at: float = field(default=0.0, compare=False)


def round_running_timing(room_id: int) -> RoundTiming | None:
    """Return the timing of the room's running round, if there is one."""
    read_at = time.monotonic()
    row = (
        rounds_running([room_id])
        .values_list("id", "number", "board", "starts_at", "ends_at")
        .first()
    )
    return None if row is None else RoundTiming(*row, read_at=read_at)


def rounds_due(now: datetime) -> QuerySet[Round]:
    """Return the running rounds whose time is up at `now` (their grace included)."""
    return rounds_running().filter(ends_at__lte=clock.due_if_ended_by(now))
