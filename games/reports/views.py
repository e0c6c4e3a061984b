"""HTTP view of word reports: a seated player's refused words and reports in a finished round
(GET), and a new report (POST). Results arrive over HTTP and a player is their browser's
identity, so reports travel the same way, beside them."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods

from games import protocol
from games.identity import request_identity
from games.limits.throttle import (
    REPORTS_SENT,
    attempt_count,
    client_key,
    guard_room_guesses,
    retry_after,
)
from games.models import Room, Round
from games.reports import services as reports
from games.reports.selectors import round_reports_mine
from games.rooms.views import NO_SUCH_ROOM
from games.rounds.selectors import RoundNotSeen, round_and_seat, seated_ever
from games.rules import clock

MAX_BODY_BYTES = 2048  # a word, a kind, a round number and a reason of 200 characters fit
UNREADABLE = "The report could not be understood: send JSON with the round, word and kind."
NO_ROUND = "Say which round: ?round=N."


def _answer(status: int, data: dict[str, Any]) -> JsonResponse:
    """Return JSON that no cache keeps: it changes as the player reports and the admin acts."""
    response = JsonResponse(data, status=status)
    add_never_cache_headers(response)
    return response


def _error(status: int, code: str, message: str) -> JsonResponse:
    return _answer(status, {"error": code, "message": message})


def _round_number(value: Any) -> int | None:
    """Return a round number given as an int or digits, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    return None


def _body(request: HttpRequest) -> dict[str, Any] | None:
    """Return the posted JSON object, or None when it is too large or not an object."""
    if len(request.body) > MAX_BODY_BYTES:
        return None
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


# What each refusal of a report answers with.
STATUS_OF = {
    protocol.ROUND_RUNNING: 409,
    protocol.NOT_IN_ROOM: 403,
    reports.ALREADY_REPORTED: 409,
    reports.NO_DICTIONARY: 409,
}


@guard_room_guesses
@require_http_methods(["GET", "POST"])
def round_reports(request: HttpRequest, code: str) -> HttpResponse:
    """GET ?round=N: the player's refused words and reports in that finished round, each with
    its outcome. POST {"round", "word", "kind", "reason"}: report a word of it (rate-limited
    per address); answers 201 with the same data as GET."""
    room = Room.objects.filter(code=code.upper()).first()
    if room is None:
        return _error(404, NO_SUCH_ROOM, "There is no room with that code.")
    identity = request_identity(request)
    if not seated_ever(room, identity):  # before the rate limit counts anything
        return _error(403, protocol.NOT_IN_ROOM, "Only the players in this room report words.")
    if request.method == "GET":
        body: dict[str, Any] | None = None
        number = _round_number(request.GET.get("round"))
    else:
        key = client_key(request)
        wait = retry_after(REPORTS_SENT, key)
        if wait is not None:
            response = _error(429, protocol.RATE_LIMITED, REPORTS_SENT.refusal)
            response["Retry-After"] = str(wait)
            return response
        attempt_count(REPORTS_SENT, key)
        body = _body(request)
        if body is None:
            return _error(400, reports.BAD_REPORT, UNREADABLE)
        number = _round_number(body.get("round"))
    if number is None:
        return _error(400, reports.BAD_REPORT, NO_ROUND)
    try:
        # The seat that played the round reports from it, as games.rooms.views' results show it.
        rnd, seat = round_and_seat(room=room, number=number, identity=identity)
    except RoundNotSeen as refused:
        return _error(refused.status, refused.code, refused.message)
    if rnd.status != Round.FINISHED or rnd.results is None:
        return _error(409, protocol.ROUND_RUNNING, reports.ROUND_NOT_OVER)
    if body is None:
        return _answer(200, round_reports_mine(rnd=rnd, player=seat))
    try:
        reports.report_create(
            rnd=rnd,
            player=seat,
            word=body.get("word"),
            kind=body.get("kind"),
            reason=body.get("reason") or "",
            now=clock.now(),
        )
    except reports.ReportError as exc:
        return _error(STATUS_OF.get(exc.code, 400), exc.code, exc.message)
    return _answer(201, round_reports_mine(rnd=rnd, player=seat))
