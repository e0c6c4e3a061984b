"""Rounds: starting one (draw, solve, store, announce) and ending it exactly once."""

from __future__ import annotations

import logging
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Count, Max

from games.models import Hint, Player, Room, Round, Submission, sql
from games.protocol import (
    BAD_SETTINGS,
    DAILY_ONE_ROUND,
    ROUND_ENDED,
    ROUND_NOT_RUNNING,
    ROUND_RUNNING,
    ROUND_STARTED,
    ROUNDS_TOO_FAST,
    ProtocolError,
)
from games.realtime.outbox import event_emit
from games.rounds.given_boards import board_given_still_fits
from games.rounds.kinds import Ended, room_kind
from games.rounds.selectors import (
    round_ended_data,
    round_public,
    round_running,
    rounds_due,
    rounds_running,
)
from games.rules import clock
from games.rules.room_settings import RoomSettings, stored_settings
from games.rules.scoring import board_summary
from games.seats.services import host_check
from solver.boardlab.boards import (
    ROUND_DRAW_BUDGET_S,
    BandError,
    board_draw,
    board_standing,
    board_standing_known,
    board_standing_later,
)
from solver.caches import cache_register
from solver.dictionaries import selectors as solver_selectors
from solver.engine.board import Board
from solver.engine.search import Solution, Solver
from solver.engine.trie import Trie
from solver.models import DiceSet, Dictionary

log = logging.getLogger(__name__)

# Rounds a room may start in a window: a group playing one-minute rounds starts about one
# every ninety seconds; a host looping start and end on an untimed 10×10 board made 15 in
# 1.7 s, each storing its board's whole solution (about 390 KB). Counted from the rounds
# stored, so every worker counts the same.
ROUNDS_PER_WINDOW = 20
ROUNDS_WINDOW = timedelta(minutes=10)


@dataclass(frozen=True)
class Solved:
    """A board solved once and stored (the daily board): its share code, the hash of the list
    it was solved with, and its words as a round stores them ([word, path, points])."""

    board: str
    dictionary_hash: str
    words: list[list[Any]]
    max_score: int


def solution_rows(solution: Solution) -> list[list[Any]]:
    """Return a solution as a round stores it: [word, path, points], best words first."""
    return [[w, list(solution.path(w) or ()), p] for w, p in solution.scored_words()]


def round_start(
    *,
    room: Room,
    player: Player,
    now: datetime,
    seed: int | None = None,
    solved: Solved | None = None,
) -> Round:
    """Draw (within the room's band) or take the board the host gave, solve and store a new
    round, then announce it (host only). A given board is used by this round only. When the
    given board comes `solved` with the list the room plays, that solution is used as it is:
    the daily board is solved once, not at each of its thousands of starts."""
    host_check(room=room, player=player)
    if rounds_running([room.id]).exists():
        raise ProtocolError(ROUND_RUNNING)
    if room.is_daily and Round.objects.filter(room=room).exists():
        raise ProtocolError(DAILY_ONE_ROUND)
    recent = Round.objects.filter(room=room, starts_at__gt=now - ROUNDS_WINDOW)
    if recent.count() >= ROUNDS_PER_WINDOW:
        raise ProtocolError(ROUNDS_TOO_FAST)
    settings = stored_settings(room.settings)
    dictionary, trie, dice_set = _equipment(settings)
    seed = secrets.randbits(62) if seed is None else seed
    given = Room.objects.values_list("next_board", flat=True).get(pk=room.pk)
    known = (
        solved
        if solved is not None
        and given == solved.board
        and solved.dictionary_hash == dictionary.content_hash
        else None
    )
    if given and known is None and not board_given_still_fits(given, settings):  # new dice
        log.warning("room %s: the given board %s no longer fits; drawing one", room.id, given)
        Room.objects.filter(pk=room.pk, next_board=given).update(next_board="")
        given = ""
    if known is not None:
        board, words, max_score = Board.from_share_code(given), known.words, known.max_score
    else:
        if given:
            board = Board.from_share_code(given)
            solution = Solver(trie, settings.rules).solve(board)
        else:
            board, solution = _draw(settings, dictionary, dice_set, trie, seed)
        words, max_score = solution_rows(solution), solution.score
    standing = _standing(
        settings,
        dictionary,
        dice_set,
        len(words),
        max_score,
        compute=not settings.any_board and not given,
    )
    round_clock = clock.RoundClock.starting(
        now=now,
        duration=timedelta(seconds=settings.duration) if settings.timed else None,
        countdown=clock.countdown(),
    )
    try:
        with transaction.atomic():
            number = (Round.objects.filter(room=room).aggregate(n=Max("number"))["n"] or 0) + 1
            rnd = _round_store(
                room_id=room.id, number=number, board=board, words=words, max_score=max_score,
                seed=seed, settings=settings, dictionary_id=dictionary.id,
                dictionary_hash=dictionary.content_hash, standing=standing,
                round_clock=round_clock, given=bool(given), now=now,
            )  # fmt: skip
            if given:  # used once: the next round is drawn again
                Room.objects.filter(pk=room.pk, next_board=given).update(next_board="")
    except IntegrityError:  # another start won the race
        raise ProtocolError(ROUND_RUNNING) from None
    return rnd


def round_start_scheduled(
    *, room_id: int, number: int, seed: int, settings: RoomSettings, round_clock: clock.RoundClock,
    now: datetime,
) -> Round | None:  # fmt: skip
    """Draw (within the settings' band), solve, store and announce round `number` of a room
    whose rounds keep a schedule (an arena's): its clock is the schedule's, not counted from
    now. Return None when the number is taken (another worker stored it first) or another
    round of the room is still running."""
    dictionary, trie, dice_set = _equipment(settings)
    board, solution = _draw(settings, dictionary, dice_set, trie, seed)
    standing = _standing(
        settings, dictionary, dice_set, len(solution), solution.score,
        compute=not settings.any_board,
    )  # fmt: skip
    try:
        with transaction.atomic():
            return _round_store(
                room_id=room_id, number=number, board=board, words=solution_rows(solution),
                max_score=solution.score, seed=seed, settings=settings,
                dictionary_id=dictionary.id, dictionary_hash=dictionary.content_hash,
                standing=standing, round_clock=round_clock, given=False, now=now,
            )  # fmt: skip
    except IntegrityError:
        return None


def _equipment(settings: RoomSettings) -> tuple[Dictionary, Trie, DiceSet]:
    """Return the dictionary, its compiled words and the dice a round of these settings uses."""
    dictionary = solver_selectors.dictionary_or_default(slug=settings.dictionary)
    # Pin the version read above: an admin's edit right now must not split board and hash.
    trie = solver_selectors.dictionary_trie(dictionary, content_hash=dictionary.content_hash)
    return dictionary, trie, DiceSet.objects.get(slug=settings.dice)


def round_start_first(
    *, room: Room, settings: RoomSettings, solved: Solved, dictionary_id: int,
    standing: dict[str, Any] | None, now: datetime,
) -> Round:  # fmt: skip
    """Store and announce the first round of a room made for it a moment ago, in the
    caller's transaction (a daily attempt's), on a board solved beforehand with the list the
    settings name (`dictionary_id`, at the version `solved.dictionary_hash`), with its
    standing if known. None of round_start's checks can fail for a room nobody else has
    seen, and nothing needs reading: a daily start is three inserts here, not a dozen
    queries (`make bench-daily` starts 2,000 of them in a minute on one worker)."""
    round_clock = clock.RoundClock.starting(
        now=now,
        duration=timedelta(seconds=settings.duration) if settings.timed else None,
        countdown=clock.countdown(),
    )
    return _round_store(
        room_id=room.id, number=1, board=Board.from_share_code(solved.board), words=solved.words,
        max_score=solved.max_score, seed=secrets.randbits(62), settings=settings,
        dictionary_id=dictionary_id, dictionary_hash=solved.dictionary_hash, standing=standing,
        round_clock=round_clock, given=True, now=now, touch=False,
    )  # fmt: skip


def standing_known(
    settings: RoomSettings, dictionary: Dictionary, dice_set: DiceSet, words: int, score: int
) -> dict[str, Any] | None:
    """Return how a board of these settings ranks among random boards of its kind, if that
    is known already (never computed here; an unknown one is worked out in the background
    for later rounds and results)."""
    return _standing(settings, dictionary, dice_set, words, score, compute=False)


def _round_store(
    *, room_id: int, number: int, board: Board, words: list[list[Any]], max_score: int,
    seed: int, settings: RoomSettings, dictionary_id: int, dictionary_hash: str,
    standing: dict[str, Any] | None, round_clock: clock.RoundClock, given: bool,
    now: datetime, touch: bool = True,
) -> Round:  # fmt: skip
    """Store a drawn round and announce it (in the caller's transaction); `touch` notes the
    room's activity (a room created in this transaction has it already)."""
    rnd = Round.objects.create(
        room_id=room_id,
        number=number,
        board=board.share_code(),
        seed=seed,
        settings=settings.as_dict(),
        dictionary_id=dictionary_id,
        dictionary_hash=dictionary_hash,
        solution=words,
        max_score=max_score,
        starts_at=round_clock.starts_at,
        ends_at=round_clock.ends_at,
        standing=standing,
        given=given,
    )
    if touch:
        Room.objects.filter(pk=room_id).update(last_activity_at=now)
    event_emit(room_id=room_id, kind=ROUND_STARTED, data={"round": round_public(rnd, now)})
    return rnd


def _draw(
    settings: RoomSettings, dictionary: Dictionary, dice_set: DiceSet, trie: Trie, seed: int
) -> tuple[Board, Solution]:
    """Return the board the seed draws, solved: the first roll in the room's band, or the
    first roll when any board will do."""
    rng = random.Random(seed)
    if settings.any_board:
        board = solver_selectors.dice_set_roll(dice_set, rng, settings.rows, settings.cols)
        return board, Solver(trie, settings.rules).solve(board)
    try:
        drawn = board_draw(
            dictionary=dictionary,
            dice_set=dice_set,
            rows=settings.rows,
            cols=settings.cols,
            rules=settings.rules,
            rng=rng,
            band=settings.band,
            min_words=settings.min_words,
            budget_s=ROUND_DRAW_BUDGET_S,  # what band_check measured the band against
        )
    except BandError as exc:  # reachable (checked when saved), but not found this time
        raise ProtocolError.because(BAD_SETTINGS, f"{exc}; start again to draw anew") from None
    return drawn.board, drawn.solution


def _standing(
    settings: RoomSettings,
    dictionary: Dictionary,
    dice_set: DiceSet,
    words: int,
    score: int,
    *,
    compute: bool,
) -> dict[str, Any] | None:
    """Return how the board ranks among random boards of its kind, for the results (None if
    that is not known yet or cannot be worked out: the results then give the totals alone,
    and the round is played all the same, since the standing is only a remark on it).

    A room with a band or a minimum has the standing already (its draw needed it). Any other
    room's round start must not wait for one: without ``compute`` a missing standing is left
    to a background thread, for the results of this round or of the next ones.
    """
    kind = partial(
        board_standing if compute else board_standing_known,
        dictionary=dictionary,
        dice_set=dice_set,
        rows=settings.rows,
        cols=settings.cols,
        rules=settings.rules,
    )
    later = partial(
        board_standing_later,
        dictionary=dictionary,
        dice_set=dice_set,
        rows=settings.rows,
        cols=settings.cols,
        rules=settings.rules,
    )
    try:
        standing = kind()
        if standing is None:
            transaction.on_commit(later)
            return None
        return {
            "score_percentile": standing.score_percentile(score),
            "words_percentile": standing.words_percentile(words),
        }
    except (ValueError, LookupError, DatabaseError):  # a size, a version gone, the database
        log.exception("no standing for a %s×%s board of %s", settings.rows, settings.cols, dice_set)
        return None


def _standing_at_end(rnd: Round, settings: RoomSettings) -> dict[str, Any] | None:
    """Return the round's standing: the one found at its start, else one known by now (never
    computed here), if the dictionary is still the version the round was played with."""
    if rnd.standing is not None:
        return rnd.standing
    dice_set = DiceSet.objects.filter(slug=settings.dice).first()
    dictionary = rnd.dictionary
    if dice_set is None or dictionary is None or dictionary.content_hash != rnd.dictionary_hash:
        return None
    return _standing(
        settings, dictionary, dice_set, len(rnd.solution), rnd.max_score, compute=False
    )


def round_end(*, round_id: int, now: datetime, force: bool = False) -> bool:
    """End a running round if it is due (or forced by its host); return whether this call did.

    Any trigger may call this (timers, the sweep, late submissions, clients' clocks); the
    conditional UPDATE lets exactly one caller through to score the round, as its kind
    scores it (games.rounds.kinds).
    """
    with transaction.atomic():
        if not _round_finish(round_id, now, force=force):
            return False
        rnd = Round.objects.select_related("room").get(pk=round_id)
        kind = room_kind(rnd.room)
        settings = stored_settings(rnd.settings)
        seated = _seated(rnd.room_id, since=kind.players_since(rnd))
        rows = _found_rows(rnd.pk)
        hints = _hints_taken(rnd.pk)
        # Removed after finding words or taking hints: their rows still count.
        departed = ({row[0] for row in rows} | set(hints)) - {pid for pid, _, _ in seated}
        if departed:
            seated += Player.objects.filter(pk__in=departed).values_list(
                "id", "nickname", "total_score"
            )
        results = kind.finish(Ended(rnd, settings, seated, rows, hints, now))
        results.update(
            round=round_public(rnd, now),
            board=rnd.board,
            standing=board_summary(
                words=len(rnd.solution),
                points=rnd.max_score,
                standing=_standing_at_end(rnd, settings),
                letters=_letters(settings.dice),
                given=rnd.given,
                label=kind.board_label(rnd),
            ),
        )
        rnd.results = kind.results_stored(results)
        _results_store(rnd.pk, rnd.results)
        # The results go over HTTP (they can be far larger than a frame); this announces them.
        event_emit(
            room_id=rnd.room_id, kind=ROUND_ENDED, data=round_ended_data(rnd, rnd.room.code, now)
        )
    log.info("round %s of room %s ended and scored", rnd.number, rnd.room_id)
    return True


def _round_finish(round_id: int, now: datetime, *, force: bool) -> bool:
    """Mark a running round finished if it is due (or `force`d), in one conditional
    statement; return whether this call did (exactly one caller does)."""
    running = Round.objects.filter(pk=round_id, status=Round.RUNNING)
    if not force:
        running = running.filter(ends_at__isnull=False, ends_at__lte=clock.due_if_ended_by(now))
    return bool(running.update(status=Round.FINISHED, finished_at=now))


def _seated(room_id: int, *, since: datetime | None) -> list[tuple[Any, ...]]:
    """Return each seat of a room (seen since `since`, if given): id, nickname, total."""
    seats = Player.objects.filter(room_id=room_id, removed_at__isnull=True)
    if since is not None:
        seats = seats.filter(last_seen_at__gte=since)
    return list(seats.values_list("id", "nickname", "total_score"))


def _hints_taken(round_id: int) -> dict[int, int]:
    """Return how many hints each player (by id) took in a round."""
    taken = Hint.objects.filter(round_id=round_id).values("player_id").annotate(n=Count("id"))
    return {row["player_id"]: row["n"] for row in taken}


def _results_store(round_id: int, results: dict[str, Any]) -> None:
    """Store a round's results."""
    Round.objects.filter(pk=round_id).update(results=results)


def _found_rows(round_id: int) -> list[tuple[int, str, str, int]]:
    """Return a round's accepted words, in no order (results sort them): (player, word, path
    as its stored JSON text, points). Plain SQL rather than a queryset: an arena round holds a
    hundred thousand words on a few hundred paths, and the queryset decoded every path (a
    fifth of the end) where the results decode each distinct path once."""
    picked = sql.columns(Submission, "player", "word", "path", "points")
    return sql.rows(
        f"SELECT {picked} FROM {sql.table(Submission)} "
        f"WHERE {sql.column(Submission, 'round')} = %s",
        [round_id],
    )


LETTERS_KEPT_S = 60.0  # how long a process trusts what it read of a dice set's kind
_letters_read: dict[str, tuple[bool, float]] = {}


def _letters(slug: str) -> bool:
    """Return whether a round's boards come from a letter table rather than dice (read once
    a minute per dice set: every round's end asks, and a set changes kind only by an edit
    in the admin, which results then show within the minute)."""
    kept = _letters_read.get(slug)
    if kept is not None and time.monotonic() - kept[1] < LETTERS_KEPT_S:
        return kept[0]
    dice_set = DiceSet.objects.filter(slug=slug).first()
    letters = dice_set is not None and dice_set.uses_frequencies
    _letters_read[slug] = (letters, time.monotonic())
    return letters


def _dice_kinds_forget() -> None:
    """Forget the dice sets' kinds read so far (a test that changes one)."""
    _letters_read.clear()


cache_register("dice sets' kinds", _dice_kinds_forget)


def round_end_by_host(*, room: Room, player: Player, now: datetime) -> None:
    """End the running round now, at the host's request (how untimed rounds end)."""
    host_check(room=room, player=player)
    running = round_running(room.id)
    if running is None or not round_end(round_id=running.id, now=now, force=True):
        raise ProtocolError(ROUND_NOT_RUNNING)


def rounds_end_due(*, now: datetime) -> int:
    """End every running round whose time is up; return how many this call ended."""
    due = rounds_due(now).values_list("id", flat=True)
    return sum(round_end(round_id=round_id, now=now) for round_id in due)
