"""Computer players in rooms: adding them, and playing their planned words on time."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import lru_cache

from games.bots.plans import LEVELS, Plan, bot_plan
from games.models import Player, Room, Round, Submission
from games.rounds.selectors import rounds_running
from games.rounds.submissions import submission_create
from games.rules.room_settings import stored_settings
from games.seats.services import RoomFull, host_check, seat_create
from solver.caches import cache_register
from solver.dictionaries import selectors as solver_selectors
from solver.models import Dictionary

log = logging.getLogger(__name__)
MAX_BOTS = 8


class BotError(ValueError):
    """A computer player that cannot be added; the message says why."""


NOT_HERE = "No computer player joins a daily board or the arena: each is played on your own."


def bot_add(*, room: Room, by: Player, level: str, dictionary: str = "") -> Player:
    """Seat a computer player of a level in the room (host only)."""
    host_check(room=room, player=by)
    if room.is_daily or room.is_arena:  # ranked play: a computer's words are not the player's
        raise BotError(NOT_HERE)
    if level not in LEVELS:
        raise BotError(f"level must be one of {', '.join(LEVELS)}")
    known = None
    if dictionary:
        known = Dictionary.objects.filter(slug=dictionary, is_active=True).first()
        if known is None:
            raise BotError(f"there is no active dictionary '{dictionary}'")
    seated = Player.objects.filter(room=room, removed_at__isnull=True).exclude(bot_level="")
    if seated.count() >= MAX_BOTS:
        raise BotError(f"a room has at most {MAX_BOTS} computer players")
    try:
        return seat_create(
            room=room,
            nickname=f"Computer ({LEVELS[level].label.lower()})",
            bot_level=level,
            bot_dictionary=known,
            connections=1,
        )
    except RoomFull as exc:
        raise BotError(str(exc)) from None


@lru_cache(maxsize=1024)
def _plan(round_id: int, seed: int, bot_id: int, level: str, dictionary_id: int | None) -> Plan:
    """Return a bot's plan for a round (the same in every process, so computed once each)."""
    rnd = Round.objects.get(pk=round_id)
    settings = stored_settings(rnd.settings)
    words = [word for word, _, _ in rnd.solution]
    known = None
    if dictionary_id is not None:
        dictionary = Dictionary.objects.filter(pk=dictionary_id).first()
        if dictionary is not None:
            trie = solver_selectors.dictionary_trie(dictionary)
            known = trie.__contains__
    return bot_plan(
        words=words,
        level=level,
        seed=f"{seed}-{bot_id}",
        duration=settings.duration or None,
        **({"known": known} if known else {}),
    )


def bots_play(*, now: datetime) -> int:
    """Submit every bot word whose time has come in running rounds; return how many (the
    submissions record the changed word counts, which the runner delivers)."""
    # Two queries a tick however many rounds run: the bots seated in rooms with a started
    # round, then those rounds. (A query per running round cost thousands a second with a
    # daily rush's solo rooms, none of which has a bot.)
    running = rounds_running().filter(starts_at__lte=now)
    seated: dict[int, list[tuple[int, str, int | None]]] = {}
    bots = (
        Player.objects.filter(removed_at__isnull=True, room_id__in=running.values("room_id"))
        .exclude(bot_level="")
        .order_by("room_id", "id")
    )
    for room_id, *bot in bots.values_list("room_id", "id", "bot_level", "bot_dictionary_id"):
        seated.setdefault(room_id, []).append(tuple(bot))  # type: ignore[arg-type]
    played = 0
    if not seated:
        return played
    for round_id, seed, room_id, starts_at in running.filter(room_id__in=seated).values_list(
        "id", "seed", "room_id", "starts_at"
    ):
        for bot_id, level, dictionary_id in seated[room_id]:
            played += _bot_turn(
                round_id, seed, room_id, starts_at, now, bot_id, level, dictionary_id
            )
    return played


def _bot_turn(
    round_id: int,
    seed: int,
    room_id: int,
    starts_at: datetime,
    now: datetime,
    bot_id: int,
    level: str,
    dictionary_id: int | None,
) -> int:
    """Submit one bot's due words that no process has submitted yet."""
    elapsed = (now - starts_at).total_seconds()
    due = [
        (n, word)
        for n, (at, word) in enumerate(_plan(round_id, seed, bot_id, level, dictionary_id))
        if at <= elapsed
    ]
    if not due:
        return 0
    done = set(
        Submission.objects.filter(round_id=round_id, player_id=bot_id).values_list(
            "client_id", flat=True
        )
    )
    played = 0
    for n, word in due:
        client_id = f"bot-{n}"
        if client_id in done:
            continue
        answer = submission_create(
            player_id=bot_id, room_id=room_id, client_id=client_id, word=word, path=None, now=now
        )
        played += bool(answer["accepted"])
    return played


cache_register("bots' plans", _plan.cache_clear)
