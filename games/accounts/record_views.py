"""A player's record page, and a past round's results opened from it."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games.accounts.record import KINDS, player_record
from games.identity import identities_of_player, request_identity
from games.limits.throttle import guard_room_guesses
from games.models import Room, Round
from games.rounds.selectors import results_url, round_seat

ROUNDS_PER_PAGE = 25


@require_safe
def record(request: HttpRequest) -> HttpResponse:
    """Show the player's record: totals, best words and round, and every past round."""
    identity = request_identity(request)
    found = player_record(identities_of_player(identity) if identity is not None else [])
    page = Paginator(found.rounds, ROUNDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "record": found,
        "kinds": [(label, found.rounds_by_kind.get(kind, 0)) for kind, label in KINDS.items()],
        "page": page,
    }
    return render(request, "games/record.html", context)


@guard_room_guesses
@require_safe
def past_round(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """Show a finished round's results page again (the board, everyone's words, the solution
    with paths) to a player who played it, drawn by the room page's own results module."""
    room = get_object_or_404(Room, code=code.upper())
    rnd = get_object_or_404(Round, room=room, number=number, status=Round.FINISHED)
    identity = request_identity(request)
    seat = round_seat(rnd, identities_of_player(identity)) if identity is not None else None
    if seat is None:
        raise Http404("Only the players of this round see it again.")
    client = {
        "resultsUrl": results_url(room.code, rnd.number),
        "roundsPath": f"/r/{room.code}/rounds/",  # + N/words/WORD/definition.json
        "me": seat.pk,
        "reportsUrl": reverse("round-reports", args=[room.code]),
        "csrfToken": get_token(request),
    }
    context = {"room": room, "round": rnd, "client": client}
    return render(request, "games/past_round.html", context)
