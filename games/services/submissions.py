"""Submissions: judging one word, storing it, and only then answering."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from django.db import IntegrityError, transaction

from games import clock, protocol
from games.models import Player, Round, Submission
from games.room_settings import stored_settings
from games.services.events import event_emit
from games.services.rounds import round_end
from solver import selectors as solver_selectors
from solver.engine import paths
from solver.engine.board import Board


@lru_cache(maxsize=256)
def _solution(round_id: int) -> dict[str, tuple[list[int], int]]:
    """Return a round's solution as word -> (path, points); rounds never change it."""
    rnd = Round.objects.only("solution").get(pk=round_id)
    return {word: (path, points) for word, path, points in rnd.solution}


@lru_cache(maxsize=64)
def _board(code: str) -> Board:
    return Board.from_share_code(code)


def _in_dictionary(rnd: Round, word: str) -> bool:
    """Return whether word is in the list the round started with (today's if that is gone)."""
    dictionary = rnd.dictionary or solver_selectors.dictionary_default()
    try:
        trie = solver_selectors.dictionary_trie(dictionary, content_hash=rnd.dictionary_hash)
    except solver_selectors.DictionaryVersionGone:
        trie = solver_selectors.dictionary_trie(dictionary)
    return word in trie


def _judge(
    rnd: Round, word: str | None, path: tuple[int, ...] | None
) -> tuple[str, str | None, Any]:
    """Return (word, rejection or None, path) for a submission, without storing anything."""
    settings = stored_settings(rnd.settings)
    board = _board(rnd.board)
    if path is not None:
        spelled = paths.spell(board, [c for c in path if 0 <= c < board.size])
        word = (word or spelled).upper()
        problem = paths.path_problem(board, path, word, settings.adjacency)  # type: ignore[arg-type]
    else:
        word, problem = (word or "").upper(), None
    if problem is not None:
        return word, protocol.BAD_PATH, None
    if len(word) < settings.min_length:
        return word, protocol.TOO_SHORT, None
    solution = _solution(rnd.id)
    if word not in solution:
        reason = protocol.NOT_ON_BOARD if _in_dictionary(rnd, word) else protocol.NOT_A_WORD
        return word, reason, None
    return word, None, list(path) if path is not None else solution[word][0]


def submission_create(
    *,
    player: Player,
    client_id: str,
    word: str | None,
    path: tuple[int, ...] | None,
    now: datetime,
) -> dict[str, Any]:
    """Judge a submission, store it if accepted, and return the answer for its sender.

    A retry with the same client id gets the first answer again and counts nothing twice.
    """
    rnd = Round.objects.filter(room_id=player.room_id).order_by("-number").first()
    if rnd is None:
        return protocol.submit_result(
            client_id, word or "", accepted=False, reason=protocol.ROUND_NOT_RUNNING
        )
    earlier = Submission.objects.filter(round=rnd, player=player, client_id=client_id).first()
    if earlier is not None:
        return protocol.submit_result(
            client_id, earlier.word, accepted=True, points=earlier.points, path=earlier.path
        )
    if rnd.status != Round.RUNNING or not clock.accepts_words(rnd.starts_at, rnd.ends_at, now):
        if rnd.status == Round.RUNNING and clock.round_is_due(rnd.ends_at, now):
            round_end(round_id=rnd.id, now=now)  # a late submission is one of the triggers
        return protocol.submit_result(
            client_id, word or "", accepted=False, reason=protocol.ROUND_NOT_RUNNING
        )
    word, reason, cells = _judge(rnd, word, path)
    if reason is None and Submission.objects.filter(round=rnd, player=player, word=word).exists():
        reason = protocol.ALREADY_FOUND
    if reason is not None:
        return protocol.submit_result(client_id, word, accepted=False, reason=reason)
    points = _solution(rnd.id)[word][1]
    try:
        with transaction.atomic():
            Submission.objects.create(
                round=rnd, player=player, word=word, path=cells, points=points, client_id=client_id
            )
            count = Submission.objects.filter(round=rnd, player=player).count()
            event_emit(
                room_id=player.room_id,
                kind="word_count",
                data={"round": rnd.number, "player_id": player.id, "count": count},
            )
    except IntegrityError:  # the same word (or client id) from another tab, at the same moment
        return submission_create(player=player, client_id=client_id, word=word, path=path, now=now)
    return protocol.submit_result(client_id, word, accepted=True, points=points, path=cells)
