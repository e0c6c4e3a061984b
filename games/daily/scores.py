"""A daily board's score histogram (DailyScore), kept as ranked attempts finish or go, and an
attempt's score, recorded once its round is scored (the daily attempt's room kind)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.urls import reverse

from games.daily.rules import DAILY_GAMES, HOLD_FAST_WORDS, review_reason
from games.models import DailyAttempt, DailyBoard, DailyScore, Room, Round, Submission, sql
from games.rounds.kinds import DAILY, Ended, RoomKind

log = logging.getLogger(__name__)
HELD, REJECTED = "held", "rejected"  # DailyAttempt.review


def daily_score_count(*, board_id: int, score: int, change: int) -> None:
    """Add `change` players to a board's count of a score (one row per score)."""

    def counted() -> int:
        return DailyScore.objects.filter(board_id=board_id, score=score).update(
            players=F("players") + change
        )

    if counted():
        return
    try:
        with transaction.atomic():
            DailyScore.objects.create(board_id=board_id, score=score, players=change)
    except IntegrityError:  # another finish of the same score created it first
        counted()


def daily_attempt_finish(
    *,
    room_id: int,
    seat_id: int | None,
    results: dict[str, Any],
    now: datetime,
    rnd: Round | None = None,
) -> None:
    """Record the score and word count of the attempt played in this room by its one seat
    (the room's host), from its round's results, and count a ranked one on its board (inside
    round_end's transaction: the leaderboard counts it from then on), unless its play was
    beyond a person's (games.daily.rules.review_reason): then it waits for an admin."""
    row = next((p for p in results["players"] if p["id"] == seat_id), None)
    score, words = (row["score"], len(row["words"])) if row is not None else (0, 0)
    a = {f: sql.column(DailyAttempt, f) for f in ("score", "words", "finished_at", "room", "board")}
    at = DailyAttempt._meta.get_field("finished_at").get_db_prep_value(now, connection)
    finished = sql.rows(  # one statement: finished once, and what it was
        f"UPDATE {sql.table(DailyAttempt)} SET {a['score']} = %s, {a['words']} = %s, "
        f"{a['finished_at']} = %s WHERE {a['room']} = %s AND {a['finished_at']} IS NULL "
        f"RETURNING {a['board']}, {sql.column(DailyAttempt, 'ranked')}",
        [score, words, at, room_id],
    )
    if not finished or not finished[0][1]:
        return  # finished before, or unranked: nothing to count
    reason = _review_reason(rnd, seat_id, words) if rnd is not None else ""
    if reason:
        DailyAttempt.objects.filter(room_id=room_id).update(review=HELD, review_reason=reason)
        log.warning("daily attempt in room %s held for review: %s", room_id, reason)
        return
    daily_score_count(board_id=finished[0][0], score=score, change=1)  # the board counts it


def _review_reason(rnd: Round, seat_id: int | None, words: int) -> str:
    """Return why the round's play needs an admin's look ("" if it does not): read the
    times of its accepted words only when there are enough of them to matter."""
    found_at: list[float] = []
    if words >= HOLD_FAST_WORDS and seat_id is not None:
        found_at = [
            (at - rnd.starts_at).total_seconds()
            for at in Submission.objects.filter(round_id=rnd.pk, player_id=seat_id).values_list(
                "created_at", flat=True
            )
        ]
    return review_reason(found=words, board_words=len(rnd.solution), found_at=found_at)


def attempt_review(*, attempt_id: int, rank: bool) -> str:
    """An admin's verdict on an attempt held for review: rank it (its score joins the
    board's leaderboard) or keep it off (it stays the player's one ranked attempt, so they
    cannot play the day again ranked). Return what was done, for the admin's message."""
    with transaction.atomic():
        attempt = DailyAttempt.objects.select_for_update().filter(pk=attempt_id).first()
        if attempt is None or attempt.review != HELD:
            return "That attempt is not waiting for review (another admin may have decided)."
        if rank:
            attempt.review = ""
            daily_score_count(board_id=attempt.board_id, score=attempt.score, change=1)
        else:
            attempt.review = REJECTED
        attempt.save(update_fields=["review"])
    if rank:
        return f"{attempt.nickname}'s {attempt.score} points are on the leaderboard now."
    return f"{attempt.nickname}'s attempt stays off the leaderboard."


def attempt_deleted(sender: type[DailyAttempt], instance: DailyAttempt, **kwargs: Any) -> None:
    """Take a deleted ranked attempt (an account deleted with its rooms) off its board."""
    if instance.ranked and instance.finished_at is not None and not instance.review:
        daily_score_count(board_id=instance.board_id, score=instance.score, change=-1)


class DailyRound(RoomKind):
    """A daily attempt's round: scored as a solo round (nothing struck: one player), whose
    score then joins the day's leaderboard."""

    name = DAILY

    def results_stored(self, results: dict[str, Any]) -> dict[str, Any]:
        """Return the results whole: this kind's pages read the board's words from them."""
        return results

    def board_label(self, rnd: Round) -> str:
        """Return what the results call the board: everyone's board of the day."""
        return "The day's board"

    def finish(self, ended: Ended) -> dict[str, Any]:
        results = super().finish(ended)
        room = ended.round.room
        daily_attempt_finish(
            room_id=room.pk, seat_id=room.host_id, results=results, now=ended.now, rnd=ended.round
        )
        return results

    def page_extra(self, room: Room) -> dict[str, str] | None:
        board = DailyBoard.objects.filter(attempts__room=room).values_list("game", "day").first()
        if board is None or board[0] not in DAILY_GAMES:
            return None
        game, day = DAILY_GAMES[board[0]], board[1]
        return {
            "title": f"{game.name} #{game.number(day)}",
            "url": reverse("daily-day", args=[game.slug, day.isoformat()]),
        }
