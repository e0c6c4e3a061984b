"""The daily board: drawing a day's board once, starting (or resuming) a player's attempt at
it, and moving attempts with an identity into an account at login.

An attempt is a solo room with one round on the day's board: the room's socket, word checks,
clock and scoring are the rooms' own (games.rounds.services and submissions). Only the day's
board, the one-ranked-attempt rule and the leaderboard are the daily board's.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction

from games.daily.rules import DRAW_BUDGET_S, DailyError, DailyGame, daily_day, daily_seed, utc_day
from games.daily.scores import daily_score_count
from games.identity import identities_of_player
from games.models import DailyAttempt, DailyBoard, Player, PlayerIdentity, Room, Round
from games.rooms import services as rooms
from games.rounds import services as rounds
from games.rules.room_settings import RoomSettings, SettingsError, settings_from
from solver.boardlab.boards import board_draw
from solver.caches import cache_register
from solver.dictionaries import selectors as solver_selectors
from solver.engine.board import Board
from solver.engine.search import Solver
from solver.models import DiceSet, Dictionary

log = logging.getLogger(__name__)

ALREADY_PLAYED = (
    "You have already played today's {game}: one ranked attempt a day. Your result and the "
    "leaderboard are below; tomorrow's board opens at midnight UTC."
)


def daily_secret() -> str:
    """Return the server secret the daily boards are derived from (settings.DAILY_SECRET)."""
    return str(django_settings.DAILY_SECRET)


def daily_board_get(*, game: DailyGame, day: date) -> DailyBoard:
    """Return the day's board of a game, drawing and storing it on first use.

    The seed follows from the date and the server's secret, so every worker draws the same
    board; the first to store it wins (a unique row per game and day), and everyone reads that
    row from then on, after a restart too.
    """
    stored = DailyBoard.objects.filter(game=game.slug, day=day).first()
    if stored is not None:
        return stored if stored.solution or not stored.words else _solution_store(stored, game)
    settings = game.settings
    dictionary = solver_selectors.dictionary_or_default(slug=settings.dictionary)
    seed = daily_seed(game, day, daily_secret())
    drawn = board_draw(
        dictionary=dictionary,
        dice_set=DiceSet.objects.get(slug=settings.dice),
        rows=settings.rows,
        cols=settings.cols,
        rules=settings.rules,
        rng=random.Random(seed),
        band=game.band,
        min_words=game.min_words,
        budget_s=DRAW_BUDGET_S,
    )
    try:
        with transaction.atomic():
            return DailyBoard.objects.create(
                game=game.slug,
                day=day,
                board=drawn.board.share_code(),
                seed=seed,
                dictionary=dictionary,
                dictionary_hash=dictionary.content_hash,
                words=len(drawn.solution),
                max_score=drawn.solution.score,
                solution=rounds.solution_rows(drawn.solution),
            )
    except IntegrityError:  # another worker stored it first: the same board, read it
        return DailyBoard.objects.get(game=game.slug, day=day)


def _solution_store(board: DailyBoard, game: DailyGame) -> DailyBoard:
    """Solve a board stored before boards kept their solution, and keep it (every worker
    computes the same rows, so a race only stores the same thing twice)."""
    if board.dictionary is None or board.dictionary.content_hash != board.dictionary_hash:
        return board  # its list changed since: each attempt's round solves it afresh
    trie = solver_selectors.dictionary_trie(board.dictionary, content_hash=board.dictionary_hash)
    solution = Solver(trie, game.settings.rules).solve(Board.from_share_code(board.board))
    board.solution = rounds.solution_rows(solution)
    DailyBoard.objects.filter(pk=board.pk).update(solution=board.solution)
    return board


def player_key(identity: PlayerIdentity) -> str:
    """Return who counts as one player for the one-ranked-attempt rule: the account, or the
    anonymous identity alone (as games.identity.identities_of_player groups them)."""
    return f"u{identity.user_id}" if identity.user_id else f"i{identity.pk}"


def daily_attempt_start(
    *,
    identity: PlayerIdentity,
    game: DailyGame,
    day_text: str,
    nickname: str,
    now: datetime,
    address: str = "",
) -> DailyAttempt:
    """Start a player's attempt at a day's board, or return the one they have not finished
    (same room, same clock). Today's first attempt is ranked; a past day's are not. A second
    attempt at today's board raises DailyError; so do a day not out yet and a bad name.

    A player without an account is one cookie, and a fresh cookie is free: so among players
    without one, only the first from a network (`address`, as games.limits.throttle keys
    addresses) plays a day's board ranked; the others play it unranked (the page says so),
    and an account ranks wherever it plays."""
    day = daily_day(day_text, now=now)
    ranked = day == utc_day(now)
    had = _attempts_of_day(identity, game, day)
    unfinished = next((a for a in had if a.finished_at is None), None)
    if unfinished is not None:
        return unfinished
    if ranked and any(a.ranked for a in had):
        raise DailyError(ALREADY_PLAYED.format(game=game.name))
    if ranked and not identity.user_id and address:
        ranked = not _network_ranked(game, day, address)
    kit = _start_kit(game, day)
    try:
        with transaction.atomic():
            if kit is not None:
                return _attempt_create_fast(
                    identity=identity, kit=kit, nickname=nickname, ranked=ranked, now=now,
                    address=address,
                )  # fmt: skip
            return _attempt_create(
                identity=identity, game=game, board=daily_board_get(game=game, day=day),
                nickname=nickname, ranked=ranked, now=now, address=address,
            )  # fmt: skip
    except IntegrityError:  # this player's other tab started it a moment ago
        _kits.pop((game.slug, day), None)  # (or the board the kit holds is gone: read again)
        attempt = DailyAttempt.objects.filter(
            board__game=game.slug, board__day=day, ranked=True,
            identity__in=identities_of_player(identity),
        ).first()  # fmt: skip
        if attempt is None or attempt.finished_at is not None:
            raise DailyError(ALREADY_PLAYED.format(game=game.name)) from None
        return attempt


def unranked_by_network(attempt: DailyAttempt, *, day: date, today: date) -> bool:
    """Return whether an attempt at a day's board plays unranked because another player
    without an account ranked from its network first (daily_attempt_start's rule), the one
    reason the player cannot see for themselves."""
    return (
        day == today
        and not attempt.ranked
        and bool(attempt.address_key)
        and attempt.player_key.startswith("i")  # no account: an account ranks anywhere
    )


def _network_ranked(game: DailyGame, day: date, address: str) -> bool:
    """Return whether a player without an account already plays this board ranked from
    this network."""
    return DailyAttempt.objects.filter(
        board__game=game.slug, board__day=day, ranked=True, address_key=address,
        identity__user__isnull=True,
    ).exists()  # fmt: skip


def _attempts_of_day(identity: PlayerIdentity, game: DailyGame, day: date) -> list[DailyAttempt]:
    """Return a player's attempts at a day's board, the latest first."""
    attempts = DailyAttempt.objects.filter(board__game=game.slug, board__day=day)
    if identity.user_id is None:  # an anonymous identity is its player's only one
        attempts = attempts.filter(identity_id=identity.pk)
    else:  # an account's: its identities as identities_of_player finds them
        attempts = attempts.filter(identity__in=identities_of_player(identity))
    return list(attempts.order_by("-started_at"))


def _attempt_create(
    *, identity: PlayerIdentity, game: DailyGame, board: DailyBoard, nickname: str,
    ranked: bool, now: datetime, address: str,
) -> DailyAttempt:  # fmt: skip
    """Open the attempt's solo room on the day's board and start its round now."""
    # Played with the dictionary the board was drawn with (the site's default when the game's
    # own is not installed).
    dictionary = board.dictionary.slug if board.dictionary is not None else ""
    room, seat = rooms.room_create(
        identity=identity,
        nickname=nickname,
        settings={**game.settings.as_dict(), "dictionary": dictionary},
        solo=True,
        board=board.board,
        board_drawn=True,
        daily=True,
    )
    solved = _solved(board)
    rnd = rounds.round_start(
        room=room, player=seat, now=now, solved=solved if board.solution else None
    )
    return _attempt_store(
        board=board, identity=identity, room=room, seat=seat, rnd=rnd, ranked=ranked,
        address=address,
    )  # fmt: skip


def _solved(board: DailyBoard) -> rounds.Solved:
    """Return the day's board as solved when it was drawn, for a round to copy."""
    return rounds.Solved(
        board=board.board,
        dictionary_hash=board.dictionary_hash,
        words=board.solution,
        max_score=board.max_score,
    )


def _attempt_store(
    *, board: DailyBoard, identity: PlayerIdentity, room: Room, seat: Player, rnd: Round,
    ranked: bool, address: str,
) -> DailyAttempt:  # fmt: skip
    """Store the attempt of the seat's round, on that round's clock."""
    assert rnd.ends_at is not None  # the daily games are timed
    return DailyAttempt.objects.create(
        board=board,
        identity=identity,
        player_key=player_key(identity),
        room=room,
        nickname=seat.nickname,
        ranked=ranked,
        address_key=address,
        started_at=rnd.starts_at,
        ends_at=rnd.ends_at,
    )


@dataclass(frozen=True)
class StartKit:
    """What every start at a day's board needs, read and checked once a minute per process
    rather than at each start: the board, the game's checked settings on the board's list,
    the board solved with that list, and its standing among random boards if known."""

    board: DailyBoard
    settings: RoomSettings
    solved: rounds.Solved
    dictionary_id: int
    standing: dict[str, Any] | None
    until: float  # time.monotonic() after which it is read again


KIT_FOR_S = 60.0  # an admin's change to the list or the dice reaches starts within this
_kits: dict[tuple[str, date], StartKit] = {}


def _start_kit(game: DailyGame, day: date) -> StartKit | None:
    """Return the kit for starts at a game's day, or None when a start must take the long way
    (the board's list changed since it was drawn, or is gone or switched off: the long way
    solves the board afresh or refuses the start with the reason)."""
    kit = _kits.get((game.slug, day))
    if kit is not None and kit.until > time.monotonic():
        return kit
    board = daily_board_get(game=game, day=day)
    dictionary = (
        Dictionary.objects.filter(pk=board.dictionary_id).first()
        if board.dictionary_id is not None
        else None
    )
    if not board.solution or dictionary is None:
        return None
    if dictionary.content_hash != board.dictionary_hash:
        return None
    try:
        checked = rooms.settings_check(
            settings_from({**game.settings.as_dict(), "dictionary": dictionary.slug})
        )
    except SettingsError:
        return None
    dice_set = DiceSet.objects.get(slug=checked.dice)
    kit = StartKit(
        board=board,
        settings=checked,
        solved=_solved(board),
        dictionary_id=dictionary.pk,
        standing=rounds.standing_known(
            checked, dictionary, dice_set, len(board.solution), board.max_score
        ),
        until=time.monotonic() + KIT_FOR_S,
    )
    if len(_kits) > 16:  # yesterday's and older: drop them
        _kits.clear()
    _kits[(game.slug, day)] = kit
    return kit


def _attempt_create_fast(
    *, identity: PlayerIdentity, kit: StartKit, nickname: str, ranked: bool, now: datetime,
    address: str,
) -> DailyAttempt:  # fmt: skip
    """Open the attempt's solo room and its round on the day's board, solved already: the
    room, its host, the round, its announcement and the attempt, and nothing read."""
    room, seat = rooms.room_create(
        identity=identity, nickname=nickname, settings=kit.settings, solo=True, daily=True
    )
    rnd = rounds.round_start_first(
        room=room, settings=kit.settings, solved=kit.solved, dictionary_id=kit.dictionary_id,
        standing=kit.standing, now=now,
    )  # fmt: skip
    return _attempt_store(
        board=kit.board, identity=identity, room=room, seat=seat, rnd=rnd, ranked=ranked,
        address=address,
    )  # fmt: skip


def _daily_kits_forget() -> None:
    """Forget the start kits read so far (a test that changes a board or its list)."""
    _kits.clear()


cache_register("daily start kits", _daily_kits_forget)


def daily_attempts_move(*, source: PlayerIdentity, into: PlayerIdentity) -> int:
    """Move an identity's attempts to another (login: a browser's anonymous play joins the
    account); return how many moved. Where both had a ranked attempt at the same board, the
    account's stays ranked and the moved one becomes an unranked play, so the player still
    has one ranked attempt a day. Call inside the login's transaction."""
    key = player_key(into)
    theirs = DailyAttempt.objects.filter(identity__in=identities_of_player(into), ranked=True)
    clashing = DailyAttempt.objects.filter(
        identity=source, ranked=True, board__in=theirs.exclude(identity=source).values("board")
    )
    for attempt in clashing.filter(finished_at__isnull=False):  # off the leaderboard
        daily_score_count(board_id=attempt.board_id, score=attempt.score, change=-1)
    clashing.update(ranked=False)
    return DailyAttempt.objects.filter(identity=source).update(identity=into, player_key=key)
