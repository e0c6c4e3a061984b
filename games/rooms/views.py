"""HTTP views of a room: joining and leaving it, its page (a player's or a spectator's), and
a finished round's results and words' definitions."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from games import protocol
from games.bots.plans import LEVELS
from games.identity import request_identity, request_identity_ensure
from games.limits.throttle import SEATS_TAKEN, guard_creations, guard_room_guesses
from games.models import Player, Room, Round
from games.protocol import ROUND_RUNNING
from games.realtime.runner import service_run_sync
from games.rooms import selectors as rooms_selectors
from games.rooms import services as rooms
from games.rooms.forms import (
    JoinRoomForm,
    form_error,
    settings_choices,
    settings_shown,
)
from games.rounds.kinds import room_kind
from games.rounds.selectors import (
    NO_SUCH_ROUND,
    RoundNotSeen,
    WordNotInRound,
    round_and_seat,
    round_find,
    round_word_definition,
)
from games.rules import clock
from games.rules.room_settings import PRESET_NAMES, PRESETS, stored_settings
from games.seats import services as seats
from games.seats.selectors import player_seat


def _seat(request: HttpRequest, room: Room) -> Player | None:
    return player_seat(room_code=room.code, identity=request_identity(request))


@guard_room_guesses
def room(request: HttpRequest, code: str) -> HttpResponse:
    """Show the room to a player who has a seat, else the form to take one."""
    found = get_object_or_404(Room, code=code.upper())
    if found.is_arena:  # played on the arena's own page
        return redirect("arena", slug=found.arena.slug)
    seat = _seat(request, found)
    if seat is None:
        form = JoinRoomForm(initial={"code": found.code})
        return render(request, "games/join.html", {"room": found, "code": found.code, "form": form})
    return render(request, "games/room.html", _room_context(request, found, seat))


@guard_room_guesses
@require_safe
def room_watch(request: HttpRequest, code: str) -> HttpResponse:
    """Show the room to a spectator: no seat, no word before the results, nothing to change."""
    found = rooms_selectors.room_watchable(code)
    if found is None:
        raise Http404("There is no room with that code to watch.")
    return render(request, "games/room.html", _room_context(request, found, None))


def _room_context(request: HttpRequest, room: Room, seat: Player | None) -> dict[str, Any]:
    """Return what the room page needs: the page's data for the client and the choices (for
    a spectator, with no seat: the watch socket and the watch links)."""
    link = request.build_absolute_uri(reverse("room", args=[room.code]))
    watch = "watch/" if seat is None else ""
    daily = room_kind(room).page_extra(room)
    client = {
        "code": room.code,
        "me": seat.id if seat is not None else None,
        "spectator": seat is None,
        "wsPath": f"/ws/rooms/{room.code}/{watch}",
        "closeCodes": protocol.CLOSE_CODES,  # static/js/socket.js acts on them
        "roundsPath": f"/r/{room.code}/{watch}rounds/",  # + N/words/WORD/definition.json
        "link": link,
        "presets": {name: preset.as_dict() for name, preset in PRESETS.items()},
        "presetNames": PRESET_NAMES,
        "daily": daily["url"] if daily else None,
        # Word reports (static/js/reports.js) are posted with the page's CSRF token.
        "reportsUrl": reverse("round-reports", args=[room.code]) if seat is not None else None,
        "csrfToken": get_token(request),
    }
    return {
        "daily": daily,
        "room": room,
        "player": seat,
        "spectator": seat is None,
        "link": link,
        "watch_link": request.build_absolute_uri(reverse("room-watch", args=[room.code])),
        "client": client,
        "choices": settings_choices(),
        "values": settings_shown(stored_settings(room.settings).as_dict()),
        "bot_levels": [(level.name, level.label) for level in LEVELS.values()],
    }


@guard_room_guesses
@require_POST
@guard_creations(SEATS_TAKEN)
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat in a room with a nickname."""
    found = Room.objects.filter(code=code.upper()).first()
    if found is not None and found.is_arena:  # seats there are taken on the arena's page
        return redirect("arena", slug=found.arena.slug)
    form = JoinRoomForm(request.POST)
    error = "There is no room with that code." if found is None else ""
    if found is not None and form.is_valid():
        asked = form.cleaned_data["nickname"]
        try:
            _, renamed = rooms.player_join_told(
                room=found, identity=request_identity_ensure(request), nickname=asked
            )
        except rooms.JoinError as exc:
            error = str(exc)
        else:
            if renamed:
                messages.info(request, renamed)
            return redirect("room", code=found.code)
    error = error or form_error(form) or "Choose a nickname."
    context = {"room": found, "code": code.upper(), "form": form, "error": error}
    return render(request, "games/join.html", context, status=400 if found else 404)


@guard_room_guesses
@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    """Give up this browser's seat in a room."""
    found = get_object_or_404(Room, code=code.upper())
    seat = _seat(request, found)
    if seat is not None:
        # Through the runner, so the others see the seat empty now, not at the next event.
        service_run_sync(lambda: seats.player_leave(room=found, player=seat, now=clock.now()))
    return redirect("home")


# A finished round's results never change: a browser may keep them this long (seconds).
RESULTS_MAX_AGE = 24 * 60 * 60
# Why the results endpoint refuses (beside protocol.NOT_IN_ROOM and protocol.ROUND_RUNNING).
NO_SUCH_ROOM = "no_such_room"
NOT_IN_ROUND = "not_in_round"
# An admin may replace a definitions source: a browser keeps a word's definition this long (s).
DEFINITION_MAX_AGE = 60 * 60
MAX_WORD_SHOWN = 40  # of a word the error message repeats


def _json_error(status: int, code: str, message: str) -> JsonResponse:
    """Return an error a script can act on: a code, and words a player understands."""
    return JsonResponse({"error": code, "message": message}, status=status)


def _finished_round(
    request: HttpRequest, code: str, number: int, watching: bool = False
) -> tuple[Round, Player | None] | JsonResponse:
    """Return a finished round this browser's player may see and the seat they see it through
    (games.rounds.selectors.round_and_seat says who may), or, `watching`, a finished round of a room
    its watch link shows (no seat); else the error to send."""
    if watching:
        found = rooms_selectors.room_watchable(code)
    else:
        found = Room.objects.filter(code=code.upper()).first()
    if found is None:
        return _json_error(404, NO_SUCH_ROOM, "There is no room with that code.")
    seat: Player | None = None
    if watching:
        rnd = round_find(found, number)
        if rnd is None:
            return _json_error(404, NO_SUCH_ROUND, f"This room has no round {number}.")
    else:
        try:
            rnd, seat = round_and_seat(
                room=found, number=number, identity=request_identity(request)
            )
        except RoundNotSeen as refused:
            return _json_error(refused.status, refused.code, refused.message)
    if rnd.status != Round.FINISHED or rnd.results is None or rnd.finished_at is None:
        return _json_error(409, ROUND_RUNNING, "The round is still being played.")
    return rnd, seat


@guard_room_guesses
@gzip_page
@require_safe
def round_results(
    request: HttpRequest, code: str, number: int, watching: bool = False
) -> HttpResponse:
    """Send a finished round's results to a browser seated in its room, or to a player who
    played that round (their record opens it again, even after they left the room), or,
    `watching`, to a spectator. The socket only announces them: they can be far larger than
    a websocket frame may be."""
    found = _finished_round(request, code, number, watching)
    if isinstance(found, JsonResponse):
        return found
    rnd, seat = found
    assert rnd.finished_at is not None  # a finished round has its time
    # An arena player's own results, never everyone's words (docs/arena.md).
    payload = room_kind(rnd.room).results_seen(rnd, seat.pk if seat is not None else None)
    etag = f'"results-{rnd.pk}-{clock.millis(rnd.finished_at)}"'
    response = get_conditional_response(request, etag=etag) or JsonResponse(payload)
    response["ETag"] = etag
    patch_cache_control(response, private=True, max_age=RESULTS_MAX_AGE)
    patch_vary_headers(response, ["Cookie"])
    return response


@guard_room_guesses
@require_safe
def word_definition(
    request: HttpRequest, code: str, number: int, word: str, watching: bool = False
) -> HttpResponse:
    """Send the definition of one word of a finished round (found, struck or missed) to a
    browser seated in its room (or, `watching`, a spectator): `definition` is null when there
    is none. Asked for word by word when a player opens one, never while the round runs
    (docs/protocol.md says why)."""
    found = _finished_round(request, code, number, watching)
    if isinstance(found, JsonResponse):
        return found
    rnd, _seat = found
    try:
        definition = round_word_definition(rnd, word)
    except WordNotInRound:
        return _json_error(
            404, NOT_IN_ROUND, f"“{word[:MAX_WORD_SHOWN]}” is not a word of round {number}."
        )
    response = JsonResponse(
        {
            "word": word.upper(),
            "definition": None if definition is None else definition.as_dict(),
            "summary": None if definition is None else definition.summary(),
        }
    )
    patch_cache_control(response, private=True, max_age=DEFINITION_MAX_AGE)
    patch_vary_headers(response, ["Cookie"])
    return response
