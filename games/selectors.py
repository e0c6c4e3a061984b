"""Selectors: reading game state for clients (snapshots, catch-up events, word counts)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Count
from django.urls import reverse

from games import clock, protocol
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


# Room for the `server_time` every frame gets as it is sent (the consumer's send_json).
STAMP_BYTES = 64


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
        "results_url": None,
    }
    if current is not None:
        snapshot["round"] = round_public(current, now)
        if current.status == Round.RUNNING:
            snapshot["round"]["my_words"] = my_words(current, player)
            snapshot["round"]["counts"] = word_counts(current)
        else:  # the results themselves come over HTTP: they may be far larger than a frame
            snapshot["results_url"] = results_url(room.code, current.number)
    return snapshot


def room_snapshot_frames(
    room: Room, player: Player, now: datetime, max_bytes: int | None = None
) -> list[dict[str, Any]]:
    """Return a player's snapshot as frames that fit the frame limit (settings'
    WEBSOCKET_MAX_FRAME_BYTES unless max_bytes is given) once stamped and sent.

    A snapshot that fits goes whole. Otherwise its two long lists, the players (up to the
    room's cap) and the player's words in a running round (thousands, on a big board), go
    in `snapshot_more` frames after it, each filled up to the budget; the client adds them
    to what the snapshot drew. Every other part is bounded by the settings' limits.
    """
    limit = django_settings.WEBSOCKET_MAX_FRAME_BYTES if max_bytes is None else max_bytes
    max_bytes = limit - STAMP_BYTES
    snapshot = room_snapshot(room, player, now)
    if _size(snapshot) <= max_bytes:
        return [snapshot]
    players, words = snapshot["players"], []
    head = {**snapshot, "players": []}
    if snapshot["round"] is not None and "my_words" in snapshot["round"]:
        words = snapshot["round"]["my_words"]
        head["round"] = {**snapshot["round"], "my_words": []}
    frames = [head]
    part = _snapshot_more(snapshot["seq"])
    used = _size(part)
    for key, items in (("players", players), ("my_words", words)):
        for item in items:
            cost = _size(item) + 1  # and a comma
            if used + cost > max_bytes and (part["players"] or part["my_words"]):
                frames.append(part)
                part = _snapshot_more(snapshot["seq"])
                used = _size(part)
            part[key].append(item)
            used += cost
    if part["players"] or part["my_words"]:
        frames.append(part)
    return frames


def _snapshot_more(seq: int) -> dict[str, Any]:
    return {"type": "snapshot_more", "seq": seq, "players": [], "my_words": []}


def _size(message: dict[str, Any]) -> int:
    """Return the bytes of a message as sent."""
    return len(protocol.dump(message).encode())


def results_url(code: str, number: int) -> str:
    """Return where a seated browser fetches a finished round's results (over HTTP)."""
    return reverse("round-results", kwargs={"code": code, "number": number})


def round_ended_data(rnd: Round, code: str, now: datetime) -> dict[str, Any]:
    """Return what the round_ended event says: the round, and where its results are."""
    return {"round": round_public(rnd, now), "results_url": results_url(code, rnd.number)}


def round_find(room: Room, number: int) -> Round | None:
    """Return a room's round by its number, if it has one."""
    return Round.objects.filter(room=room, number=number).first()


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
        {
            "type": "event",
            "seq": e["seq"],
            "event": e["type"],
            "data": _stored_data(room, e["type"], e["payload"]),
        }
        for e in events
    ]


def _stored_data(room: Room, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Return a stored event's data as sent now: a round_ended stored while it still
    carried the results (far larger than a frame may be) becomes the announcement."""
    if kind == "round_ended" and "results" in data:
        number = data["results"]["round"]["number"]
        return {"round": data["results"]["round"], "results_url": results_url(room.code, number)}
    return data


def round_running(room_id: int) -> Round | None:
    """Return the room's running round, if there is one."""
    return Round.objects.filter(room_id=room_id, status=Round.RUNNING).first()
