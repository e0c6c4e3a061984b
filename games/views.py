"""HTTP views: the home page, creating and joining rooms, and the room page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import clock
from games.forms import CreateRoomForm, JoinRoomForm
from games.models import Player, Room
from games.room_settings import PRESET_NAMES
from games.services import rooms


def _session_key(request: HttpRequest) -> str:
    """Return the browser's session key, creating the session if it has none yet."""
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _seat(request: HttpRequest, room: Room) -> Player | None:
    key = request.session.session_key
    if not key:
        return None
    return Player.objects.filter(room=room, session_key=key, removed_at__isnull=True).first()


def home(request: HttpRequest) -> HttpResponse:
    """Show the forms to create a room or join one; create one on POST."""
    form = CreateRoomForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            room, _ = rooms.room_create(
                session_key=_session_key(request),
                nickname=form.cleaned_data["nickname"],
                settings=form.room_settings(),
            )
        except rooms.JoinError as exc:
            error = str(exc)
        else:
            return redirect("room", code=room.code)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "join": JoinRoomForm(), "error": error, "presets": PRESET_NAMES}
    return render(request, "games/home.html", context, status=status)


@require_POST
def join_by_code(request: HttpRequest) -> HttpResponse:
    """Join the room whose code was typed on the home page."""
    form = JoinRoomForm(request.POST)
    if form.is_valid() and form.cleaned_data["code"]:
        return join(request, form.cleaned_data["code"])
    return render(
        request,
        "games/home.html",
        {"form": CreateRoomForm(), "join": form, "error": "Type the room's code and a nickname."},
        status=400,
    )


def room(request: HttpRequest, code: str) -> HttpResponse:
    """Show the room to a player who has a seat, else the form to take one."""
    found = get_object_or_404(Room, code=code.upper())
    seat = _seat(request, found)
    if seat is None:
        return render(request, "games/join.html", {"room": found, "form": JoinRoomForm()})
    return render(request, "games/room.html", {"room": found, "player": seat})


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat in a room with a nickname."""
    found = Room.objects.filter(code=code.upper()).first()
    form = JoinRoomForm(request.POST)
    error = "There is no room with that code." if found is None else ""
    if found is not None and form.is_valid():
        try:
            rooms.player_join(
                room=found,
                session_key=_session_key(request),
                nickname=form.cleaned_data["nickname"],
            )
        except rooms.JoinError as exc:
            error = str(exc)
        else:
            return redirect("room", code=found.code)
    error = error or "Choose a nickname."
    return render(
        request, "games/join.html", {"room": found, "form": form, "error": error}, status=400
    )


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    """Give up this browser's seat in a room."""
    found = get_object_or_404(Room, code=code.upper())
    seat = _seat(request, found)
    if seat is not None:
        rooms.player_leave(room=found, player=seat, now=clock.now())
    return redirect("home")
