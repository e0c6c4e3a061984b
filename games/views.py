"""HTTP views: the home page, creating and joining rooms, and the room page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from games import clock
from games.bot_plans import LEVELS
from games.daily import DAILY_GAMES
from games.forms import CreateRoomForm, JoinRoomForm, settings_choices, settings_shown
from games.identity import identities_of_player, request_identity, request_identity_ensure
from games.models import DailyBoard, Player, Room, Round
from games.protocol import NOT_IN_ROOM, ROUND_RUNNING
from games.record import round_seat
from games.room_settings import PRESET_NAMES, PRESETS, stored_settings
from games.selectors import WordNotInRound, player_seat, round_find, round_word_definition
from games.services import rooms
from games.throttle import ROOMS_CREATED, SEATS_TAKEN, guard_creations, guard_room_guesses


def _seat(request: HttpRequest, room: Room) -> Player | None:
    return player_seat(room_code=room.code, identity=request_identity(request))


def _form_error(form: CreateRoomForm | JoinRoomForm) -> str:
    """Return the first problem with a posted form, in words a player understands."""
    for name, errors in form.errors.items():
        label = name.replace("_", " ")
        if not str(form.data.get(name, "")).strip():
            return "Choose a nickname." if name == "nickname" else f"Fill in the {label}."
        return f"{label.capitalize()}: {errors[0]}"
    return ""


def _home_context(
    form: CreateRoomForm, join: JoinRoomForm, error: str, prefill: dict[str, str] | None = None
) -> dict[str, Any]:
    return {
        "form": form,
        "join": join,
        "error": error,
        "choices": settings_choices(),
        "values": form.values(prefill),
        "presets": {name: preset.as_dict() for name, preset in PRESETS.items()},
    }


@guard_creations(ROOMS_CREATED)
def home(request: HttpRequest) -> HttpResponse:
    """Show the forms to create a room or join one; create one on POST. A link may fill in
    the board and settings (`/?board=CODE&dice=SLUG&rows=4&…`, as the admin's records page
    links to open a room on a board)."""
    form = CreateRoomForm(request.POST or None)
    error = ""
    if request.method == "POST" and not form.is_valid():
        error = _form_error(form)
    if request.method == "POST" and form.is_valid():
        try:
            room, _ = rooms.room_create(
                identity=request_identity_ensure(request),
                nickname=form.cleaned_data["nickname"],
                settings=form.room_settings(),
                solo=request.POST.get("solo") == "1",  # the "Play solo" button
                board=form.cleaned_data["board"],
            )
        except rooms.JoinError as exc:
            error = str(exc)
        else:
            return redirect("room", code=room.code)
    status = 400 if request.method == "POST" else 200
    prefill = {k: v for k, v in request.GET.items() if isinstance(v, str)}
    context = _home_context(form, JoinRoomForm(), error, prefill)
    return render(request, "games/home.html", context, status=status)


@guard_room_guesses
@require_POST
def join_by_code(request: HttpRequest) -> HttpResponse:
    """Join the room whose code was typed on the home page."""
    form = JoinRoomForm(request.POST)
    if form.is_valid() and form.cleaned_data["code"]:
        return join(request, form.cleaned_data["code"])
    error = "Type the room's code and a nickname."
    return render(
        request, "games/home.html", _home_context(CreateRoomForm(), form, error), status=400
    )


@guard_room_guesses
def room(request: HttpRequest, code: str) -> HttpResponse:
    """Show the room to a player who has a seat, else the form to take one."""
    found = get_object_or_404(Room, code=code.upper())
    seat = _seat(request, found)
    if seat is None:
        form = JoinRoomForm(initial={"code": found.code})
        return render(request, "games/join.html", {"room": found, "code": found.code, "form": form})
    return render(request, "games/room.html", _room_context(request, found, seat))


def _room_context(request: HttpRequest, room: Room, seat: Player) -> dict[str, Any]:
    """Return what the room page needs: the page's data for the client and the choices."""
    link = request.build_absolute_uri(reverse("room", args=[room.code]))
    daily = _daily_attempt(room)
    client = {
        "code": room.code,
        "me": seat.id,
        "wsPath": f"/ws/rooms/{room.code}/",
        "roundsPath": f"/r/{room.code}/rounds/",  # + N/words/WORD/definition.json
        "link": link,
        "presets": {name: preset.as_dict() for name, preset in PRESETS.items()},
        "presetNames": PRESET_NAMES,
        "daily": daily["url"] if daily else None,
        # Word reports (static/js/reports.js) are posted with the page's CSRF token.
        "reportsUrl": reverse("round-reports", args=[room.code]),
        "csrfToken": get_token(request),
    }
    return {
        "daily": daily,
        "room": room,
        "player": seat,
        "link": link,
        "client": client,
        "choices": settings_choices(),
        "values": settings_shown(stored_settings(room.settings).as_dict()),
        "bot_levels": [(level.name, level.label) for level in LEVELS.values()],
    }


def _daily_attempt(room: Room) -> dict[str, str] | None:
    """Return the title and page of the daily attempt played in this room, if it is one."""
    if not room.is_daily:
        return None
    board = DailyBoard.objects.filter(attempts__room=room).values_list("game", "day").first()
    if board is None or board[0] not in DAILY_GAMES:
        return None
    game, day = DAILY_GAMES[board[0]], board[1]
    return {
        "title": f"{game.name} #{game.number(day)}",
        "url": reverse("daily-day", args=[game.slug, day.isoformat()]),
    }


@guard_room_guesses
@require_POST
@guard_creations(SEATS_TAKEN)
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat in a room with a nickname."""
    found = Room.objects.filter(code=code.upper()).first()
    form = JoinRoomForm(request.POST)
    error = "There is no room with that code." if found is None else ""
    if found is not None and form.is_valid():
        try:
            rooms.player_join(
                room=found,
                identity=request_identity_ensure(request),
                nickname=form.cleaned_data["nickname"],
            )
        except rooms.JoinError as exc:
            error = str(exc)
        else:
            return redirect("room", code=found.code)
    error = error or _form_error(form) or "Choose a nickname."
    context = {"room": found, "code": code.upper(), "form": form, "error": error}
    return render(request, "games/join.html", context, status=400 if found else 404)


@guard_room_guesses
@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    """Give up this browser's seat in a room."""
    found = get_object_or_404(Room, code=code.upper())
    seat = _seat(request, found)
    if seat is not None:
        rooms.player_leave(room=found, player=seat, now=clock.now())
    return redirect("home")


# A finished round's results never change: a browser may keep them this long (seconds).
RESULTS_MAX_AGE = 24 * 60 * 60
# Why the results endpoint refuses (beside protocol.NOT_IN_ROOM and protocol.ROUND_RUNNING).
NO_SUCH_ROOM = "no_such_room"
NO_SUCH_ROUND = "no_such_round"
NOT_IN_ROUND = "not_in_round"
# An admin may replace a definitions source: a browser keeps a word's definition this long (s).
DEFINITION_MAX_AGE = 60 * 60
MAX_WORD_SHOWN = 40  # of a word the error message repeats


def _json_error(status: int, code: str, message: str) -> JsonResponse:
    """Return an error a script can act on: a code, and words a player understands."""
    return JsonResponse({"error": code, "message": message}, status=status)


def _finished_round(request: HttpRequest, code: str, number: int) -> Round | JsonResponse:
    """Return a finished round this browser's player may see (seated in its room, or having
    played it: their record opens it again after they left), else the error to send."""
    found = Room.objects.filter(code=code.upper()).first()
    if found is None:
        return _json_error(404, NO_SUCH_ROOM, "There is no room with that code.")
    identity = request_identity(request)
    identities = identities_of_player(identity) if identity is not None else []
    if not Player.objects.filter(room=found, identity__in=identities).exists():
        return _json_error(403, NOT_IN_ROOM, "Only the players in this room see its results.")
    rnd = round_find(found, number)
    if rnd is None:
        return _json_error(404, NO_SUCH_ROUND, f"This room has no round {number}.")
    if round_seat(rnd, identities) is None:
        return _json_error(403, NOT_IN_ROOM, "Only the players in this room see its results.")
    if rnd.status != Round.FINISHED or rnd.results is None or rnd.finished_at is None:
        return _json_error(409, ROUND_RUNNING, "The round is still being played.")
    return rnd


@guard_room_guesses
@gzip_page
@require_safe
def round_results(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """Send a finished round's results to a browser seated in its room, or to a player who
    played that round (their record opens it again, even after they left the room). The
    socket only announces them: they can be far larger than a websocket frame may be."""
    rnd = _finished_round(request, code, number)
    if isinstance(rnd, JsonResponse):
        return rnd
    assert rnd.finished_at is not None  # a finished round has its time
    etag = f'"results-{rnd.pk}-{clock.millis(rnd.finished_at)}"'
    response = get_conditional_response(request, etag=etag) or JsonResponse(rnd.results)
    response["ETag"] = etag
    patch_cache_control(response, private=True, max_age=RESULTS_MAX_AGE)
    patch_vary_headers(response, ["Cookie"])
    return response


@guard_room_guesses
@require_safe
def word_definition(request: HttpRequest, code: str, number: int, word: str) -> HttpResponse:
    """Send the definition of one word of a finished round (found, struck or missed) to a
    browser seated in its room: `definition` is null when there is none. Asked for word by
    word when a player opens one, never while the round runs (docs/protocol.md says why)."""
    rnd = _finished_round(request, code, number)
    if isinstance(rnd, JsonResponse):
        return rnd
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
