"""Selectors: reading game state for clients (snapshots, catch-up events, word counts)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count

from games import clock
from games.models import Player, Room, RoomEvent, Round, Submission
from games.room_settings import PRESET_NAMES, stored_settings
from solver.engine.board import Board


def player_data(player: Player, room: Room) -> dict[str, Any]:
    """Return what every client may know about a player."""
    return {
        "id": player.id,
        "nickname": player.nickname,
        "connected": player.connections > 0,
        "is_host": room.host_id == player.id,
        "total": player.total_score,
        "bot": player.bot_level or None,
        "joined_at": clock.millis(player.joined_at),
    }


def board_data(board_code: str) -> dict[str, Any]:
    """Return a board as clients draw it: size and faces row by row ('' is a blank)."""
    board = Board.from_share_code(board_code)
    return {"rows": board.rows, "cols": board.cols, "faces": list(board.faces), "code": board_code}


def round_public(rnd: Round, now: datetime) -> dict[str, Any]:
    """Return a round as the room sees it; the board only once it has started."""
    settings = stored_settings(rnd.settings)
    data: dict[str, Any] = {
        "number": rnd.number,
        "status": rnd.status,
        "starts_at": clock.millis(rnd.starts_at),
        "ends_at": clock.millis(rnd.ends_at),
        "rows": settings.rows,
        "cols": settings.cols,
        "min_length": settings.min_length,
        "adjacency": settings.adjacency,
        "scoring": settings.scoring,
    }
    if now >= rnd.starts_at or rnd.status == Round.FINISHED:
        data["board"] = board_data(rnd.board)
    return data


def word_counts(rnd: Round) -> dict[str, int]:
    """Return how many words each player has found in a round (never which)."""
    rows = Submission.objects.filter(round=rnd).values("player_id").annotate(n=Count("id"))
    return {str(row["player_id"]): row["n"] for row in rows}


def my_words(rnd: Round, player: Player) -> list[dict[str, Any]]:
    """Return a player's accepted words in a round, in the order found."""
    return [
        {"word": s.word, "points": s.points, "path": s.path, "client_id": s.client_id}
        for s in Submission.objects.filter(round=rnd, player=player).order_by("id")
    ]


def room_snapshot(room: Room, player: Player, now: datetime) -> dict[str, Any]:
    """Return the full state one player needs to draw the room from scratch."""
    room.refresh_from_db()
    settings = room.settings
    players = Player.objects.filter(room=room, removed_at__isnull=True).order_by("joined_at", "id")
    current = Round.objects.filter(room=room).order_by("-number").first()
    snapshot: dict[str, Any] = {
        "type": "snapshot",
        "seq": room.seq,
        "room": {
            "code": room.code,
            "settings": settings,
            "preset_name": PRESET_NAMES.get(settings.get("preset", ""), "Custom"),
            "host_id": room.host_id,
            "solo": room.is_solo,
        },
        "me": player.id,
        "players": [player_data(p, room) for p in players],
        "round": None,
        "results": None,
    }
    if current is not None:
        snapshot["round"] = round_public(current, now)
        if current.status == Round.RUNNING:
            snapshot["round"]["my_words"] = my_words(current, player)
            snapshot["round"]["counts"] = word_counts(current)
        else:
            snapshot["results"] = current.results
    return snapshot


def events_since(room: Room, last_seq: int) -> list[dict[str, Any]] | None:
    """Return the room events after last_seq, or None if some are no longer kept."""
    room.refresh_from_db()
    if last_seq >= room.seq:
        return []
    events = list(
        RoomEvent.objects.filter(room=room, seq__gt=last_seq)
        .order_by("seq")
        .values("seq", "type", "payload")
    )
    if not events or events[0]["seq"] != last_seq + 1:
        return None
    return [
        {"type": "event", "seq": e["seq"], "event": e["type"], "data": e["payload"]} for e in events
    ]


def round_running(room_id: int) -> Round | None:
    """Return the room's running round, if there is one."""
    return Round.objects.filter(room_id=room_id, status=Round.RUNNING).first()
