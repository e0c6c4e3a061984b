"""HTTP views of the daily boards: the daily games, a day's page (start, result, share text,
solution, leaderboard) and starting an attempt, which is then played in its solo room."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from games.daily.rules import (
    DAILY_EPOCH,
    DAILY_GAMES,
    HELD_NOTE,
    UNRANKED_NETWORK,
    DailyError,
    DailyGame,
    daily_day,
    daily_game,
    daily_summary,
    share_text,
    utc_day,
)
from games.daily.scores import HELD
from games.daily.selectors import (
    attempt_row,
    daily_board_of,
    leaderboard_page,
    player_attempts,
    player_streaks,
    score_standing,
)
from games.daily.services import daily_attempt_start, unranked_by_network
from games.identity import request_identity, request_identity_ensure
from games.limits.throttle import DAILY_STARTS, client_key, guard_creations
from games.models import DailyAttempt
from games.rounds.selectors import board_data
from games.rules import clock
from games.seats.services import JoinError
from solver.engine.board import Board

PAST_DAYS_LISTED = 14
NICKNAME_MAX = 24


def _error(request: HttpRequest, message: str, status: int = 404) -> HttpResponse:
    return render(request, "games/daily_error.html", {"message": message}, status=status)


@require_safe
def daily_home(request: HttpRequest) -> HttpResponse:
    """List the daily games: today's boards, the player's results and streaks, past days."""
    today = utc_day(clock.now())
    identity = request_identity(request)
    games = []
    for game in DAILY_GAMES.values():
        attempts = player_attempts(identity, game, today)
        current, best = player_streaks(identity, game, today)
        games.append(
            {
                **daily_summary(game, today),
                "attempt": attempts[0] if attempts else None,
                "streak": current,
                "best": best,
                "past": _past_days(today),
            }
        )
    return render(request, "games/daily_home.html", {"games": games, "today": today})


def _past_days(today: date) -> list[date]:
    return [
        today - timedelta(days=n)
        for n in range(1, PAST_DAYS_LISTED + 1)
        if today - timedelta(days=n) >= DAILY_EPOCH
    ]


@require_safe
def daily_today(request: HttpRequest, game: str) -> HttpResponse:
    """Send the player to today's board of a daily game."""
    try:
        found = daily_game(game)
    except DailyError as exc:
        return _error(request, str(exc))
    return redirect("daily-day", game=found.slug, day=utc_day(clock.now()).isoformat())


@require_safe
def daily_day_page(request: HttpRequest, game: str, day: str) -> HttpResponse:
    """Show a day's board page: start or continue, the result with its share text and
    solution once played, and the leaderboard (?page=N)."""
    try:
        found = daily_game(game)
        on = daily_day(day, now=clock.now())
    except DailyError as exc:
        return _error(request, str(exc))
    page_text = request.GET.get("page", "1")
    page = int(page_text) if page_text.isdigit() else 0
    try:
        context = _day_context(request, found, on, page)
    except DailyError as exc:
        return _error(request, str(exc))
    return render(request, "games/daily_day.html", context)


def _day_context(
    request: HttpRequest, game: DailyGame, day: date, page: int, error: str = ""
) -> dict[str, Any]:
    """Return what a day's page shows (DailyError for a leaderboard page out of range)."""
    now = clock.now()
    today = utc_day(now)
    identity = request_identity(request)
    attempts = player_attempts(identity, game, day)
    attempt = attempts[0] if attempts else None
    board = daily_board_of(game, day)
    board_page = leaderboard_page(board.pk, page) if board is not None else None
    if board is None and page != 1:
        raise DailyError(f"There is no page {page} of this leaderboard: it has 1.")
    counted = attempt is not None and attempt.ranked and not attempt.review
    mine = attempt_row(attempt) if counted and attempt is not None else None
    current, best = player_streaks(identity, game, today)
    context: dict[str, Any] = {
        "game": daily_summary(game, day),
        "ranked_day": day == today,
        "attempt": attempt,
        "played": attempt is not None and attempt.finished_at is not None,
        "counted": counted,
        "review_note": _review_note(attempt),
        "unranked_note": UNRANKED_NETWORK.format(game=game.name)
        if attempt is not None and unranked_by_network(attempt, day=day, today=today)
        else "",
        "running": attempt is not None and attempt.finished_at is None,
        "board_page": board_page,
        "mine": mine,
        "mine_shown": board_page is not None
        and mine is not None
        and any(row.attempt_id == mine.attempt_id for row in board_page.rows),
        "streak": current,
        "best": best,
        "error": error,
        "nickname": attempt.nickname if attempt else "",
        "nickname_max": NICKNAME_MAX,
    }
    if attempt is not None and attempt.finished_at is not None:
        context.update(_result(game, day, attempt))
    return context


def _review_note(attempt: DailyAttempt | None) -> str:
    """Return what the page says of an attempt an admin must look at, or has."""
    if attempt is None or not attempt.ranked or not attempt.review:
        return ""
    if attempt.review == HELD:
        return HELD_NOTE.format(reason=attempt.review_reason)
    return "An admin kept this attempt off the leaderboard."


def _result(game: DailyGame, day: date, attempt: DailyAttempt) -> dict[str, Any]:
    """Return a finished attempt's result: standing, share text, board and solution."""
    rnd = attempt.room.rounds.order_by("number").first()
    results = rnd.results if rnd is not None and rnd.results else {}
    seat = attempt.room.host_id
    row = next((p for p in results.get("players", []) if p["id"] == seat), None)
    words = [w["word"] for w in row["words"]] if row else []
    standing = score_standing(attempt.board_id, attempt.score)
    # An unranked replay is measured against the ranked players without being one of them.
    players = standing.players
    text = share_text(
        game=game, day=day, score=attempt.score, words=words, below=standing.below,
        players=players, ranked=attempt.ranked,
    )  # fmt: skip
    found = set(words)
    solution = [
        {**w, "found": w["word"] in found, "cells": _cells(w["path"], rnd.board if rnd else "")}
        for w in results.get("solution", [])
    ]
    return {
        "standing": standing,
        "share_text": text,
        "words_found": sorted(row["words"], key=lambda w: (-w["points"], w["word"])) if row else [],
        "solution": sorted(solution, key=lambda w: (-w["points"], w["word"])),
        "board": board_data(rnd.board) if rnd is not None else None,
        "max_score": rnd.max_score if rnd is not None else 0,
        "room_url": reverse("room", args=[attempt.room.code]),
    }


def _cells(path: list[int], board_code: str) -> str:
    """Return a path as players read it: row and column of each die (A1 is top left)."""
    cols = Board.from_share_code(board_code).cols
    return " → ".join(f"{chr(ord('A') + cell // cols)}{cell % cols + 1}" for cell in path)


@require_POST
@guard_creations(DAILY_STARTS)
def daily_start(request: HttpRequest, game: str, day: str) -> HttpResponse:
    """Start this player's attempt at a day's board (or continue it) and open its room."""
    try:
        found = daily_game(game)
        on = daily_day(day, now=clock.now())
    except DailyError as exc:
        return _error(request, str(exc))
    nickname = request.POST.get("nickname", "")
    try:
        attempt = daily_attempt_start(
            identity=request_identity_ensure(request),
            game=found,
            day_text=day,
            nickname=nickname,
            now=clock.now(),
            address=client_key(request),
        )
    except (DailyError, JoinError) as exc:
        status = 409 if isinstance(exc, DailyError) else 400
        try:
            context = _day_context(request, found, on, 1, error=str(exc))
        except DailyError:
            context = {"error": str(exc)}
        return render(request, "games/daily_day.html", context, status=status)
    if unranked_by_network(attempt, day=on, today=utc_day(clock.now())):
        messages.info(request, UNRANKED_NETWORK.format(game=found.name))
    return redirect("room", code=attempt.room.code)
