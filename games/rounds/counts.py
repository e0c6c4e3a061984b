"""The live word counts of a room's running round: how many words each player has found,
never which, sent coalesced (games.realtime.counts) as words are accepted."""

from __future__ import annotations

from collections.abc import Iterable

from games import protocol
from games.realtime.counts import Notices, count_kind
from games.realtime.outbox import count_changed, room_group
from games.rounds.selectors import rounds_running, word_counts

COUNTS_EVERY_S = 0.5  # the shortest time between two sends of one room's word counts, per worker


def word_counts_notices(room_ids: Iterable[int]) -> Notices:
    """Return (group, notice) with the current counts of each of these rooms' running round."""
    # Not an arena's: it sends a live top instead (games.arena.services.arena_top_send). Nor
    # a daily attempt's: its one player's page counts its own words as they are accepted,
    # and nobody else may watch it; in a rush these cost four Redis round trips a word, and
    # the frame back, for nothing new (docs/daily.md).
    running = list(
        rounds_running(room_ids)
        .filter(room__is_arena=False, room__is_daily=False)
        .values_list("id", "room_id", "number")
    )
    counts = word_counts(round_id for round_id, _, _ in running)
    return [
        (
            room_group(room_id),
            {"type": "room.notice", "message": protocol.word_counts(number, counts[round_id])},
        )
        for round_id, room_id, number in running
    ]


WORD_COUNTS = count_kind("word counts", COUNTS_EVERY_S, word_counts_notices)


def word_counts_changed(*, room_id: int) -> None:
    """Record that the room's word counts changed (sent, coalesced, once this commits)."""
    count_changed(kind=WORD_COUNTS.what, room_id=room_id)
