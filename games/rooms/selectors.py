"""Selectors: reading game state (seats, running rounds, snapshots, catch-up events, counts)."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings as django_settings

from games import protocol
from games.chat.selectors import chat_recent
from games.models import Player, Room, RoomEvent, Round
from games.rounds.hints import hints_mine
from games.rounds.selectors import (
    RoundTiming,
    my_words,
    results_url,
    round_latest,
    round_public,
    word_counts,
)
from games.rules.room_settings import PRESET_NAMES
from games.seats.selectors import player_data, room_players, spectators_watching

# Room for the `server_time` every frame gets as it is sent (the consumer's send_json).
STAMP_BYTES = 64


def room_snapshot(room: Room, player: Player | None, now: datetime) -> dict[str, Any]:
    """Return the full state one player (or, with None, a spectator: no words of anyone's
    before the results) needs to draw the room from scratch; `room` as read just now."""
    return _room_snapshot(room, player, now)[0]


def _room_snapshot(
    room: Room, player: Player | None, now: datetime
) -> tuple[dict[str, Any], Round | None]:
    """Return room_snapshot's snapshot, and the room's current round it was drawn from."""
    settings = room.settings
    players = room_players(room.pk)
    current = round_latest(room.pk)
    snapshot: dict[str, Any] = {
        "type": protocol.SNAPSHOT,
        "seq": room.seq,
        "room": {
            "code": room.code,
            "settings": settings,
            "preset_name": PRESET_NAMES.get(settings.get("preset", ""), "Custom"),
            "host_id": room.host_id,
            "solo": room.is_solo,
            "board_given": bool(room.next_board),  # that one is kept, never the board itself
        },
        "me": player.id if player is not None else None,
        "players": [player_data(p, room) for p in players],
        "round": None,
        "results_url": None,
        "chat": [] if room.is_solo else chat_recent(room),  # a solo room has no chat
        # A daily attempt or the arena cannot be watched (spectators.room_watchable).
        "spectators": 0
        if room.is_daily or room.is_arena
        else spectators_watching([room.id], now)[room.id],
    }
    if current is not None:
        snapshot["round"] = round_public(current, now)
        if current.status == Round.RUNNING:
            running = snapshot["round"]
            if player is None:
                running["counts"] = word_counts([current.id])[current.id]
            else:
                running["my_words"] = mine = my_words(current, player)
                # Alone in the room (a daily attempt, a solo round), the counts are the
                # player's own: clients show the counts of the seats listed, no others.
                alone = [p.id for p in players] == [player.id]
                running["counts"] = (
                    {str(player.id): len(mine)} if alone else word_counts([current.id])[current.id]
                )
                hints = hints_mine(current, player)
                if hints is not None:  # a round with hints off says nothing about them
                    running["hints"] = hints
        else:  # the results themselves come over HTTP: they may be far larger than a frame
            snapshot["results_url"] = results_url(room.code, current.number, player is None)
    return snapshot, current


def room_catch_up(
    room: Room, player: Player | None, now: datetime
) -> tuple[list[dict[str, Any]], RoundTiming | None]:
    """Return a socket's snapshot of the room (`room` as read just now) as frames that fit,
    and the timing of the room's running round, read with it rather than again (every
    socket's arrival reads both)."""
    read_at = time.monotonic()
    snapshot, current = _room_snapshot(room, player, now)
    timing = None
    if current is not None and current.status == Round.RUNNING:
        timing = RoundTiming(
            current.id, current.number, current.board, current.starts_at, current.ends_at,
            read_at=read_at,
        )  # fmt: skip
    return snapshot_frames(snapshot), timing


def snapshot_frames(snapshot: dict[str, Any], max_bytes: int | None = None) -> list[dict[str, Any]]:
    """Return a snapshot (a room's or an arena's) as frames that fit the frame limit
    (settings' WEBSOCKET_MAX_FRAME_BYTES unless max_bytes is given) once stamped and sent.

    A snapshot that fits goes whole. Otherwise its long lists, the players (up to the
    room's cap), the player's words in a running round (thousands, on a big board) and the
    chat (CHAT_SHOWN lines), go in `snapshot_more` frames after it, each filled up to the
    budget; the client adds them to what the snapshot drew. Every other part is bounded by
    the settings' limits.
    """
    limit = django_settings.WEBSOCKET_MAX_FRAME_BYTES if max_bytes is None else max_bytes
    max_bytes = limit - STAMP_BYTES
    if protocol.size(snapshot) <= max_bytes:
        return [snapshot]
    players, words, chat = snapshot.get("players", []), [], snapshot["chat"]
    head = {**snapshot, "chat": []}
    if "players" in snapshot:
        head["players"] = []
    if snapshot["round"] is not None and "my_words" in snapshot["round"]:
        words = snapshot["round"]["my_words"]
        head["round"] = {**snapshot["round"], "my_words": []}
    frames = [head]
    part = _snapshot_more(snapshot["seq"])
    used = protocol.size(part)
    for key, items in (("players", players), ("my_words", words), ("chat", chat)):
        for item in items:
            cost = protocol.size(item) + 1  # and a comma
            if used + cost > max_bytes and (part["players"] or part["my_words"] or part["chat"]):
                frames.append(part)
                part = _snapshot_more(snapshot["seq"])
                used = protocol.size(part)
            part[key].append(item)
            used += cost
    if part["players"] or part["my_words"] or part["chat"]:
        frames.append(part)
    return frames


def _snapshot_more(seq: int) -> dict[str, Any]:
    return {"type": protocol.SNAPSHOT_MORE, "seq": seq, "players": [], "my_words": [], "chat": []}


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
        protocol.event(e["seq"], e["type"], _stored_data(room, e["type"], e["payload"]))
        for e in events
    ]


def _stored_data(room: Room, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Return a stored event's data as sent now: a round_ended stored while it still
    carried the results (far larger than a frame may be) becomes the announcement."""
    if kind == protocol.ROUND_ENDED and "results" in data:
        number = data["results"]["round"]["number"]
        return {"round": data["results"]["round"], "results_url": results_url(room.code, number)}
    return data


def room_watchable(code: str) -> Room | None:
    """Return the open room of this code a spectator may watch: not a daily attempt, whose
    board and results would show a player the day's words before they play it, nor an
    arena's room (anyone may drop into the arena itself; its page and socket are its own)."""
    return Room.objects.filter(
        code=code.upper(), closed_at__isnull=True, is_daily=False, is_arena=False
    ).first()
