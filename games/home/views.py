"""The home page: creating a room (or a solo game) from its form, joining one by its code."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.arena.selectors import arenas_open
from games.identity import request_identity_ensure
from games.limits.throttle import ROOMS_CREATED, guard_creations, guard_room_guesses
from games.rooms import services as rooms
from games.rooms.forms import CreateRoomForm, JoinRoomForm, form_error, settings_choices
from games.rooms.views import join
from games.rules.room_settings import PRESETS


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
        "arenas": list(arenas_open()),  # "Play in the arena" (docs/arena.md)
    }


@guard_creations(ROOMS_CREATED)
def home(request: HttpRequest) -> HttpResponse:
    """Show the forms to create a room or join one; create one on POST. A link may fill in
    the board and settings (`/?board=CODE&dice=SLUG&rows=4&…`, as the admin's records page
    links to open a room on a board)."""
    form = CreateRoomForm(request.POST or None)
    error = ""
    if request.method == "POST" and not form.is_valid():
        error = form_error(form)
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
