"""The arena: its room and seats, the round its schedule calls for (stored once, by whoever
needs it first), and the live top 10 (docs/arena.md).

An arena round is a round of the arena's room: submissions, round_end, results and the
record are the rooms' own. What is the arena's: nobody starts or stops a round (the
schedule says when, games.arena.schedule), anyone may drop in, and every worker agrees on the board
because its seed follows from the arena and the round's number.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum

from games import protocol
from games.arena.results import TOP
from games.arena.schedule import ArenaSchedule, arena_seed, arena_settings
from games.models import Arena, Player, PlayerIdentity, Room, Round, Submission
from games.realtime.outbox import notice_emit
from games.rounds.selectors import round_running, rounds_due
from games.rounds.services import round_end, round_start_scheduled
from games.rules import clock
from games.rules.room_settings import RoomSettings
from games.seats.services import JoinError, nickname_clean, nickname_free
from solver.models import DiceSet

log = logging.getLogger(__name__)

TOP_EVERY = timedelta(seconds=1)  # the live top 10 goes out about this often, by one worker
TOP_SLACK = timedelta(milliseconds=100)  # ticks run about TOP_EVERY apart: let them through
SEAT_TRIES = 5  # joins racing for the same free name try again with the next one


def arena_schedule(arena: Arena) -> ArenaSchedule:
    """Return an arena's schedule as stored."""
    return ArenaSchedule(
        arena.epoch,
        timedelta(seconds=arena.play_seconds),
        timedelta(seconds=arena.results_seconds),
        arena.round_base,
    )


def arena_round_settings(arena: Arena) -> RoomSettings:
    """Return the settings the arena's next rounds play by (a dice set decides the size)."""
    rows, cols = arena.rows, arena.cols
    dice = DiceSet.objects.filter(slug=arena.dice).first()
    if dice is not None and dice.dice:
        rows, cols = dice.rows, dice.cols
    return arena_settings(
        dice=arena.dice, rows=rows, cols=cols, dictionary=arena.dictionary,
        min_length=arena.min_length, scoring=arena.scoring, adjacency=arena.adjacency,
        band=arena.band, min_words=arena.min_words, play_seconds=arena.play_seconds,
    )  # fmt: skip


def arena_room_code(slug: str) -> str:
    """Return the code of an arena's room: 'A' and the slug, which no drawn room code can be
    (those have no vowels)."""
    return ("A" + slug.upper().replace("-", "").replace("_", ""))[:12]


def arena_create(*, slug: str, name: str, now: datetime, **fields: Any) -> Arena:
    """Create an arena and its room; its schedule starts now."""
    with transaction.atomic():
        room = Room.objects.create(code=arena_room_code(slug), is_arena=True)
        arena = Arena.objects.create(slug=slug, name=name, room=room, epoch=now, **fields)
        Room.objects.filter(pk=room.pk).update(settings=arena_round_settings(arena).as_dict())
    return arena


def arena_retime(*, arena: Arena, play_seconds: int, results_seconds: int, now: datetime) -> None:
    """Give the arena new timings from its next round on (the round under way keeps its own,
    and numbering carries on). Changes `arena` in place; the caller saves it."""
    schedule = arena_schedule(Arena.objects.get(pk=arena.pk)).retimed(
        now=now, play=timedelta(seconds=play_seconds), results=timedelta(seconds=results_seconds)
    )
    arena.epoch, arena.round_base = schedule.epoch, schedule.base
    arena.play_seconds, arena.results_seconds = play_seconds, results_seconds


def arena_join(*, arena: Arena, identity: PlayerIdentity, nickname: str) -> Player:
    """Return the player's seat in the arena, creating it under a free name if new.

    No room lock and no announcement: thousands may join one arena, and its page shows no
    list of players. Two joins taking the same free name at once try the next one."""
    existing = Player.objects.filter(room=arena.room_id, identity=identity).first()
    if existing is not None:
        return existing
    name = nickname_clean(nickname)
    for _ in range(SEAT_TRIES):
        taken = set(
            Player.objects.filter(room=arena.room_id).values_list("nickname_key", flat=True)
        )
        try:
            with transaction.atomic():
                return Player.objects.create(
                    room_id=arena.room_id, identity=identity, nickname=nickname_free(name, taken)
                )
        except IntegrityError:
            mine = Player.objects.filter(room=arena.room_id, identity=identity).first()
            if mine is not None:  # the same browser joined twice at once
                return mine
    raise JoinError("Too many players are taking that name right now; try again.")


def arena_round_ensure(*, arena: Arena, now: datetime) -> Round | None:
    """Return the arena round a player arriving now is in: the one running (ended first if
    its time is up), else the one the schedule calls for, drawn and stored now if nobody
    needed it before (the round under way if it has time enough left, else the next, whose
    board appears at its scheduled start). None for an arena that is off.

    Idempotent and safe to race: the round's number is unique in the room, its seed follows
    from the arena and the number, and round_end lets one caller through."""
    running = round_running(arena.room_id)
    if running is not None and clock.RoundClock.of(running).is_due(now):
        round_end(round_id=running.id, now=now)
        running = round_running(arena.room_id)
    if running is not None:
        return running
    if not arena.is_active:
        return None
    schedule = arena_schedule(arena)
    k = schedule.next_to_play(now)
    number = schedule.number(k)
    stored = Round.objects.filter(room_id=arena.room_id, number=number).first()
    if stored is not None:
        return stored
    settings = arena_round_settings(arena)
    round_clock = clock.RoundClock(schedule.starts_at(k), schedule.ends_at(k))
    seed = arena_seed(arena.pk, number, str(django_settings.DAILY_SECRET))
    created = round_start_scheduled(
        room_id=arena.room_id, number=number, seed=seed, settings=settings,
        round_clock=round_clock, now=now,
    )  # fmt: skip
    if created is None:  # another worker stored it first: read theirs
        return Round.objects.filter(room_id=arena.room_id, number=number).first()
    log.info("arena %s: round %s drawn for %s", arena.slug, number, round_clock.starts_at)
    return created


def arena_top(round_id: int) -> tuple[list[dict[str, Any]], int]:
    """Return a round's live top (points per player, best first: [{id, nickname, points}])
    and how many players have found a word. Points only: never a word."""
    per_player = Submission.objects.filter(round_id=round_id).values("player_id")
    rows = list(
        per_player.annotate(points=Sum("points"))
        .order_by("-points", "player_id")
        .values_list("player_id", "player__nickname", "points")[:TOP]
    )
    players = per_player.distinct().count()
    top = [{"id": pid, "nickname": name, "points": points} for pid, name, points in rows]
    return top, players


def arena_top_send(*, arena: Arena, now: datetime) -> bool:
    """Send the live top of the arena's round under way to its sockets, if no worker has
    sent one in the last TOP_EVERY; return whether this call did."""
    running = round_running(arena.room_id)
    if running is None or now < running.starts_at:
        return False
    due = Q(top_sent_at__isnull=True) | Q(top_sent_at__lte=now - TOP_EVERY + TOP_SLACK)
    if not Arena.objects.filter(due, pk=arena.pk).update(top_sent_at=now):
        return False  # another worker sent it
    top, players = arena_top(running.id)
    message = protocol.arena_top(running.number, top, players, int(now.timestamp() * 1000))
    notice_emit(room_id=arena.room_id, message=message, relayed=True)
    return True


def arenas_end_due(*, now: datetime) -> int:
    """End every arena round whose time is up; return how many this call ended. The sweep
    calls this on its own, before arenas_tick stores the next round: what one service call
    emits goes out when it returns, so the round's end waited for the next board's draw."""
    due = rounds_due(now).filter(room__is_arena=True).values_list("id", flat=True)
    return sum(round_end(round_id=round_id, now=now) for round_id in due)


def arenas_tick(*, now: datetime) -> int:
    """Keep every arena someone is in on schedule (end a round that is due, store the next
    one) and send its live top; return how many arenas had someone in (the sweep calls this
    every second; with nobody in, the sweep's own round end and the next visitor suffice)."""
    present = now - clock.PRESENCE_TIMEOUT
    busy = Arena.objects.filter(
        room__players__connections__gt=0, room__players__last_seen_at__gte=present
    ).distinct()
    count = 0
    for arena in busy:
        count += 1
        try:
            arena_round_ensure(arena=arena, now=now)
            arena_top_send(arena=arena, now=now)
        except Exception:  # one arena's trouble (a band no board meets) must not stop others
            log.exception("arena %s: keeping its schedule failed", arena.slug)
    return count
