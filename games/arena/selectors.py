"""Reading the arena: the arenas on offer, a player's seat in one, and the snapshot its
socket sends (docs/arena.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Min, QuerySet

from games import protocol
from games.arena.services import arena_schedule
from games.chat.selectors import chat_recent
from games.models import Arena, Player, PlayerIdentity, Round
from games.rooms.selectors import snapshot_frames
from games.rounds.selectors import my_words, results_url, round_public
from games.rules import clock


def arenas_open() -> QuerySet[Arena]:
    """Return the arenas being played, in their order on the home page."""
    return Arena.objects.filter(is_active=True).select_related("room")


def arena_by_slug(slug: str) -> Arena | None:
    """Return the arena of a slug (with its room), if there is one."""
    return Arena.objects.select_related("room").filter(slug=slug).first()


def arena_next_due(now: datetime) -> float | None:
    """Return the seconds until the next running arena round is due to end (its grace
    included), or None when none will be: the sweep wakes then, not up to a tick later, so
    results come as soon as the round may end. Rounds already due are the tick's."""
    ends_at = Round.objects.filter(
        room__is_arena=True, status=Round.RUNNING, ends_at__gt=now - clock.GRACE
    ).aggregate(first=Min("ends_at"))["first"]
    if ends_at is None:
        return None
    return (ends_at + clock.GRACE - now).total_seconds()


def arena_seat(arena: Arena, identity: PlayerIdentity | None) -> Player | None:
    """Return the seat a player identity holds in an arena, if it has one."""
    if identity is None:
        return None
    return Player.objects.filter(room_id=arena.room_id, identity=identity).first()


def arena_public(arena: Arena, now: datetime) -> dict[str, Any]:
    """Return what every visitor may know about an arena: its name and its schedule."""
    schedule = arena_schedule(arena)
    return {
        "slug": arena.slug,
        "name": arena.name,
        "active": arena.is_active,
        "play_ms": arena.play_seconds * 1000,
        "results_ms": arena.results_seconds * 1000,
        "next_starts_at": clock.millis(schedule.starts_at(schedule.next_to_play(now))),
    }


def arena_snapshot(arena: Arena, player: Player, now: datetime) -> dict[str, Any]:
    """Return what an arena socket needs to draw the arena from scratch: the arena, the
    player, the latest round (with the player's words while it runs), the latest finished
    round with where its results are, and the latest CHAT_SHOWN lines of chat (bounded
    however many play). Never the other players or their words."""
    room = arena.room
    room.refresh_from_db(fields=["seq"])
    rounds = Round.objects.filter(room_id=room.pk).order_by("-number")
    current = rounds.defer("results", "solution").first()
    finished = rounds.filter(status=Round.FINISHED).defer("results", "solution").first()
    snapshot: dict[str, Any] = {
        "type": protocol.ARENA_SNAPSHOT,
        "seq": room.seq,
        "arena": arena_public(arena, now),
        "me": player.id,
        "nickname": player.nickname,
        "round": None,
        # The latest finished round, whose results show until the next round's board does.
        "last_round": None if finished is None else round_public(finished, now),
        "results_url": None if finished is None else results_url(room.code, finished.number),
        "chat": chat_recent(room),
    }
    if current is not None:
        snapshot["round"] = round_public(current, now)
        if current.status == Round.RUNNING:
            snapshot["round"]["my_words"] = my_words(current, player)
    return snapshot


def arena_snapshot_frames(
    arena: Arena, player: Player, now: datetime, max_bytes: int | None = None
) -> list[dict[str, Any]]:
    """Return the arena snapshot as frames that fit (its words and chat continue in
    `snapshot_more` frames when the whole would not; max_bytes as snapshot_frames)."""
    return snapshot_frames(arena_snapshot(arena, player, now), max_bytes)
