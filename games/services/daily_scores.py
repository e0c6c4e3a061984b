"""A daily attempt's score, recorded once its round is scored (called by round_end)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import DailyAttempt, Room


def daily_attempt_finish(*, room_id: int, results: dict[str, Any], now: datetime) -> None:
    """Record the score and word count of the attempt played in this room, from its round's
    results (inside round_end's transaction: the leaderboard counts it from then on)."""
    seat_id = Room.objects.values_list("host_id", flat=True).get(pk=room_id)
    row = next((p for p in results["players"] if p["id"] == seat_id), None)
    score, words = (row["score"], len(row["words"])) if row is not None else (0, 0)
    DailyAttempt.objects.filter(room_id=room_id, finished_at__isnull=True).update(
        score=score, words=words, finished_at=now
    )
