"""Hints: how many words a player has left, per length or per first letter (counts only).

A hint is worked out on the server from the round's solution and the player's own accepted
words, stored before it is answered, and charged in the round's results (games.rules.scoring). It
never names a word or a path: the answer is a map of lengths or letters to counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any

from django.db import transaction

from games import protocol
from games.models import Hint, Player, Room, Round, Submission
from games.rules import clock
from games.rules.room_settings import stored_settings


class _RoundOver(Exception):
    """The round ended between the first look and the hint's insert."""


def hint_counts(*, kind: str, solution: Iterable[str], found: Collection[str]) -> dict[str, int]:
    """Return how many words of the solution are not in `found`, per length in letters ("3",
    "4", …, shortest first) or per first letter ("A", "B", …), leaving out zeros."""
    if kind not in protocol.HINT_KINDS:
        raise protocol.ProtocolError(protocol.BAD_HINT)
    by_length = kind == protocol.HINT_LENGTHS
    counts = Counter(str(len(word)) if by_length else word[0] for word in solution)
    counts.subtract(Counter(str(len(word)) if by_length else word[0] for word in found))
    keys = sorted((k for k, n in counts.items() if n > 0), key=lambda k: (len(k), k))
    return {key: counts[key] for key in keys}


def _words(rnd_id: int) -> list[str]:
    """Return every word of a round's solution."""
    solution = Round.objects.values_list("solution", flat=True).get(pk=rnd_id)
    return [entry[0] for entry in solution]


def _found(round_id: int, player_id: int) -> set[str]:
    """Return the words a player has had accepted in a round."""
    return set(
        Submission.objects.filter(round_id=round_id, player_id=player_id).values_list(
            "word", flat=True
        )
    )


def hint_take(*, room: Room, player: Player, kind: str, now: datetime) -> dict[str, Any]:
    """Record a hint a player asks for in the room's running round, then return its answer
    (for the asker only). Refused, with nothing stored or charged, when the round's settings
    (the room's between rounds) have hints off, when no round takes words now, or for a kind
    that does not exist."""
    if kind not in protocol.HINT_KINDS:
        raise protocol.ProtocolError(protocol.BAD_HINT)
    latest = (
        Round.objects.filter(room_id=room.id)
        .order_by("-number")
        .values_list("id", "number", "status", "settings", "starts_at", "ends_at")
        .first()
    )
    running = latest is not None and latest[2] == Round.RUNNING
    stored = latest[3] if running and latest is not None else room.settings
    settings = stored_settings(stored)
    if not settings.hints:
        raise protocol.ProtocolError(protocol.HINTS_OFF)
    if latest is None or not running:
        raise protocol.ProtocolError(protocol.ROUND_NOT_RUNNING)
    round_id, number, _, _, starts_at, ends_at = latest
    if not clock.RoundClock(starts_at, ends_at).accepts_words(now):
        raise protocol.ProtocolError(protocol.ROUND_NOT_RUNNING)
    try:
        with transaction.atomic():
            # The insert first: on SQLite it takes the write lock, so an end committed before
            # it is seen below; on PostgreSQL the row lock below makes an end wait for this
            # commit (and charge this hint) or, if the end came first, see the round finished.
            Hint.objects.create(
                round_id=round_id, player=player, kind=kind, cost=settings.hint_cost, created_at=now
            )
            still = Round.objects.select_for_update().filter(pk=round_id, status=Round.RUNNING)
            if not still.values_list("id", flat=True):
                raise _RoundOver
            taken = Hint.objects.filter(round_id=round_id, player=player).count()
    except _RoundOver:
        raise protocol.ProtocolError(protocol.ROUND_NOT_RUNNING) from None
    counts = hint_counts(kind=kind, solution=_words(round_id), found=_found(round_id, player.id))
    return protocol.hint(
        kind=kind, number=number, counts=counts, taken=taken, cost=settings.hint_cost
    )


def hints_mine(rnd: Round, player: Player) -> dict[str, Any] | None:
    """Return what a player's snapshot says of their hints in a running round: what a hint
    costs, how many they took, and the counts now for each kind they asked for; None when
    the round has hints off (the snapshot then says nothing about them)."""
    settings = stored_settings(rnd.settings)
    if not settings.hints:
        return None
    taken = list(Hint.objects.filter(round=rnd, player=player).values_list("kind", flat=True))
    counts: dict[str, dict[str, int]] = {}
    if taken:
        words, found = _words(rnd.id), _found(rnd.id, player.id)
        for kind in sorted(set(taken)):
            counts[kind] = hint_counts(kind=kind, solution=words, found=found)
    return {"cost": settings.hint_cost, "taken": len(taken), "counts": counts}
