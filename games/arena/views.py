"""The arena's pages: dropping in (a nickname, once), and the arena itself (docs/arena.md)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import protocol
from games.arena import services as arena_service
from games.arena.schedule import NO_SUCH_ARENA
from games.arena.selectors import arena_by_slug, arena_seat
from games.identity import request_identity, request_identity_ensure
from games.limits.throttle import SEATS_TAKEN, guard_creations
from games.models import Arena
from games.seats.services import NICKNAME_MAX, JoinError


def _arena(slug: str) -> Arena:
    arena = arena_by_slug(slug)
    if arena is None or not arena.is_active:
        raise Http404(NO_SUCH_ARENA)
    return arena


def _join_context(request: HttpRequest, arena: Arena, error: str = "") -> dict[str, Any]:
    user = getattr(request, "user", None)
    suggested = user.get_username()[:NICKNAME_MAX] if user and user.is_authenticated else ""
    nickname = request.POST.get("nickname", suggested) if request.method == "POST" else suggested
    return {"arena": arena, "error": error, "nickname": nickname, "max": NICKNAME_MAX}


def arena_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Show the arena to a player who has dropped in before, else the nickname form."""
    arena = _arena(slug)
    seat = arena_seat(arena, request_identity(request))
    if seat is None:
        return render(request, "games/arena_join.html", _join_context(request, arena))
    client = {
        "slug": arena.slug,
        "me": seat.pk,
        "wsPath": f"/ws/arena/{arena.slug}/",
        "closeCodes": protocol.CLOSE_CODES,  # static/js/socket.js acts on them
        "roundsPath": f"/r/{arena.room.code}/rounds/",  # + N/words/WORD/definition.json
        "rows": arena.rows,
        "cols": arena.cols,
    }
    context = {"arena": arena, "player": seat, "client": client}
    return render(request, "games/arena.html", context)


@require_POST
@guard_creations(SEATS_TAKEN)
def arena_join(request: HttpRequest, slug: str) -> HttpResponse:
    """Take a seat in the arena under a nickname (kept for every round after)."""
    arena = _arena(slug)
    try:
        arena_service.arena_join(
            arena=arena,
            identity=request_identity_ensure(request),
            nickname=request.POST.get("nickname", ""),
        )
    except JoinError as exc:
        context = _join_context(request, arena, str(exc))
        return render(request, "games/arena_join.html", context, status=400)
    return redirect("arena", slug=arena.slug)
