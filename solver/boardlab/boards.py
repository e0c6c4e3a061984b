"""Facts about boards for games and commands: feasibility, standing, and drawing to a band.

``board_standing`` is computed once per kind of board (dictionary version, dice set, size
and rules), stored in BoardStanding for every worker, and kept in this process's memory.
``board_draw`` rolls seeded boards until one falls in a band; ``band_check`` is what the
room settings call, so that a band no board meets is refused before any round starts.
These functions touch the database: call them from async code through
``database_sync_to_async``.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connections, transaction

from solver.caches import cache_register
from solver.dictionaries import selectors, shipped
from solver.engine.board import Board
from solver.engine.dice import random_letter_board
from solver.engine.faces import display_face, normalise_face
from solver.engine.feasibility import Feasibility, feasibility
from solver.engine.rules import Rules
from solver.engine.search import Solution
from solver.engine.standing import BANDS, NO_MAXIMUM, BandError, Standing, standing_compute
from solver.models import BoardStanding, DiceSet, Dictionary

__all__ = [
    "BANDS",
    "BandError",
    "DrawnBoard",
    "band_check",
    "board_draw",
    "board_feasible",
    "board_standing",
    "board_standing_known",
    "board_standing_later",
    "dice_set_by_slug",
]

log = logging.getLogger(__name__)

STANDING_SEED = 20261123  # every standing samples the same boards: the figures are repeatable
STANDING_CELLS = 160_000  # boards × cells per standing: 10,000 4×4 boards, 4,444 6×6 boards
STANDING_MIN_SAMPLES = 2_000
# How long a round start may roll boards looking for one in the room's band: board_draw's
# default, what games' round start passes, and what band_check measures choices against.
ROUND_DRAW_BUDGET_S = 2.0
DRAW_MAX_BOARDS = 20_000  # and at most this many boards, however fast the machine
# band_check accepts a choice only when the boards a draw expects to roll before one meets it,
# times this, fit in the budget: a draw then fails about once in e**DRAW_SAFETY round starts.
DRAW_SAFETY = 10
MEASURE_BOARDS = 20  # boards rolled and solved to time a kind's boards (once per process)
CHECK_SEED = 1  # band_check samples boards with this seed when band and word count combine
JOINT_HITS = 10  # and accepts when this many meet both in JOINT_HITS × the draws allowed

Key = tuple[object, ...]
_standings: dict[Key, Standing] = {}
_board_seconds: dict[Key, float] = {}
_lock = threading.Lock()  # guards the dictionaries above and below
_kind_locks: dict[Key, threading.Lock] = {}  # one computation at a time per kind of board
_later: set[Key] = set()  # kinds whose standing a background thread is computing


@dataclass(frozen=True)
class DrawnBoard:
    """A board drawn for a round, its solution, its score's percentile among its kind, and
    how many boards were rolled to find it."""

    board: Board
    solution: Solution
    percentile: float
    tries: int = 1


def standing_samples(rows: int, cols: int) -> int:
    """Return how many boards a standing of this size samples."""
    return max(STANDING_MIN_SAMPLES, min(10_000, STANDING_CELLS // (rows * cols)))


def _size(dice_set: DiceSet, rows: int, cols: int) -> None:
    """Refuse a size the dice set cannot fill (a letter-frequency set fills any size)."""
    if rows < 1 or cols < 1:
        raise selectors.DiceSizeError(
            f"a board needs at least 1 row and 1 column, not {rows}×{cols}"
        )
    if not dice_set.uses_frequencies and (rows, cols) != (dice_set.rows, dice_set.cols):
        raise selectors.DiceSizeError(
            f"{dice_set.name} has dice for a {dice_set.rows}×{dice_set.cols} board, "
            f"not {rows}×{cols}"
        )


def board_faces(dice_set: DiceSet) -> list[str]:
    """Return every face a board drawn from the set may show."""
    if dice_set.uses_frequencies:
        return sorted({normalise_face(face) for face in dice_set.letter_frequencies})
    return sorted({face for die in dice_set.dice for face in die})


def board_drawer(dice_set: DiceSet, rows: int, cols: int) -> Callable[[random.Random], Board]:
    """Return a function drawing one board of the set from a random generator."""
    if dice_set.uses_frequencies:
        table = dict(dice_set.letter_frequencies)
        return lambda rng: random_letter_board(rows, cols, rng, table)
    return dice_set.engine_dice().roll


def board_standing(
    *, dictionary: Dictionary, dice_set: DiceSet, rows: int, cols: int, rules: Rules
) -> Standing:
    """Return the distribution of scores and word counts over random boards of this kind.

    Read from this process's memory, else from BoardStanding, else computed and stored. Two
    processes computing it at once both get the same figures (same seed); the unique
    constraint keeps one row. A row older than the dice set's last edit is recomputed.
    """
    standing = _standing(dictionary, dice_set, rows, cols, rules, compute=True)
    assert standing is not None  # computed when missing
    return standing


def board_standing_known(
    *, dictionary: Dictionary, dice_set: DiceSet, rows: int, cols: int, rules: Rules
) -> Standing | None:
    """Return the standing of this kind if this process or the database holds it, else None
    (never computes: for callers that must not wait, such as a round start)."""
    return _standing(dictionary, dice_set, rows, cols, rules, compute=False)


def _key(dictionary: Dictionary, dice_set: DiceSet, rows: int, cols: int, rules: Rules) -> Key:
    return (
        dictionary.pk,
        dictionary.content_hash,
        dice_set.pk,
        dice_set.updated_at,
        rows,
        cols,
        rules,
    )


def _kind_lock(key: Key) -> threading.Lock:
    with _lock:
        return _kind_locks.setdefault(key, threading.Lock())


def _standing(
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
    *,
    compute: bool,
) -> Standing | None:
    _size(dice_set, rows, cols)
    key = _key(dictionary, dice_set, rows, cols, rules)
    with _lock:
        known = _standings.get(key)
    if known is not None:
        return known
    kind = {
        "dictionary": dictionary,
        "dictionary_hash": dictionary.content_hash,
        "dice_set": dice_set,
        "rows": rows,
        "cols": cols,
        "min_length": rules.min_length,
        "adjacency": rules.adjacency,
        "scoring": rules.scoring,
    }
    if not compute:
        row = BoardStanding.objects.filter(**kind).first()
        if row is None or row.created_at < dice_set.updated_at:
            return None
        return _remember(key, _from_row(row))
    # One computation at a time per kind: a second caller of the same kind waits, then finds
    # it in memory; callers of other kinds (other rooms) go on.
    with _kind_lock(key):
        with _lock:
            known = _standings.get(key)
        if known is not None:
            return known
        row = BoardStanding.objects.filter(**kind).first()
        if row is not None and row.created_at < dice_set.updated_at:
            BoardStanding.objects.filter(pk=row.pk).delete()  # the dice changed since
            row = None
        if row is not None:
            standing = _from_row(row)
        else:
            standing = _compute_and_store(kind, dictionary, dice_set, rows, cols, rules)
        return _remember(key, standing)


def _remember(key: Key, standing: Standing) -> Standing:
    with _lock:
        _standings[key] = standing
    return standing


def board_standing_later(
    *, dictionary: Dictionary, dice_set: DiceSet, rows: int, cols: int, rules: Rules
) -> bool:
    """Compute and store the standing of this kind in a background thread unless it is known
    or already under way; return whether a computation was started.

    For a round that must start at once: its results show the percentile once this is done.
    Setting ``BOARD_STANDINGS_IN_BACKGROUND = False`` turns it off (the tests do).
    """
    if not getattr(settings, "BOARD_STANDINGS_IN_BACKGROUND", True):
        return False
    if board_standing_known(
        dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
    ):
        return False
    key = _key(dictionary, dice_set, rows, cols, rules)
    with _lock:
        if key in _later:
            return False
        _later.add(key)

    def job() -> None:
        try:
            board_standing(
                dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
            )
        except Exception:  # a remark on rounds, never worth a crash: logged, tried again later
            log.exception("no standing for %s %d×%d in the background", dice_set, rows, cols)
        finally:
            with _lock:
                _later.discard(key)
            connections.close_all()  # this thread's own connections

    _in_background(job)
    return True


def _in_background(job: Callable[[], None]) -> None:
    threading.Thread(target=job, name="board-standing", daemon=True).start()


def _from_row(row: BoardStanding) -> Standing:
    return Standing(row.samples, row.seed, tuple(row.score_quantiles), tuple(row.word_quantiles))


def _compute_and_store(
    kind: dict[str, object],
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
) -> Standing:
    trie = selectors.dictionary_trie(dictionary, content_hash=dictionary.content_hash)
    started = time.perf_counter()
    standing = standing_compute(
        trie,
        rules,
        rows,
        cols,
        board_faces(dice_set),
        board_drawer(dice_set, rows, cols),
        samples=standing_samples(rows, cols),
        seed=STANDING_SEED,
    )
    seconds = time.perf_counter() - started
    log.info("standing of %s %d×%d computed in %.2f s", dice_set.slug, rows, cols, seconds)
    try:
        with transaction.atomic():
            row, _ = BoardStanding.objects.get_or_create(
                **kind,
                defaults={
                    "samples": standing.samples,
                    "seed": standing.seed,
                    "score_quantiles": list(standing.score_quantiles),
                    "word_quantiles": list(standing.word_quantiles),
                    "seconds": round(seconds, 3),
                },
            )
    except IntegrityError:  # another process stored it between our read and our write
        row = BoardStanding.objects.get(**kind)
    return _from_row(row)


def _board_standing_forget() -> None:
    """Forget the standings this process holds (tests)."""
    with _lock:
        _standings.clear()
        _board_seconds.clear()
        _later.clear()


cache_register("board standings", _board_standing_forget)


def _band_bounds(standing: Standing, band: str) -> tuple[int, int]:
    if not band:
        return 0, NO_MAXIMUM
    return standing.band_range(band)


def board_draw(
    *,
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
    rng: random.Random,
    band: str = "",
    min_words: int = 0,
    budget_s: float = ROUND_DRAW_BUDGET_S,
) -> DrawnBoard:
    """Return the first board drawn from rng in the band with at least min_words words.

    Gives up with BandError after ``budget_s`` seconds or DRAW_MAX_BOARDS boards.
    """
    standing = board_standing(
        dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
    )
    lowest, highest = _band_bounds(standing, band)
    solver = selectors.dictionary_solver(dictionary, rules, content_hash=dictionary.content_hash)
    draw = board_drawer(dice_set, rows, cols)
    deadline = time.perf_counter() + budget_s
    tried = 0
    while tried < DRAW_MAX_BOARDS:
        tried += 1
        board = draw(rng)
        solution = solver.solve(board)
        if lowest <= solution.score <= highest and len(solution) >= min_words:
            return DrawnBoard(board, solution, standing.score_percentile(solution.score), tried)
        if time.perf_counter() > deadline:
            break
    raise BandError(
        f"no board {_wanted(band, min_words)} among {tried:,} drawn from "
        f"{_kind(dice_set, rows, cols)} "
        f"with {dictionary.name}: choose a wider band or fewer words"
    )


def _kind(dice_set: DiceSet, rows: int, cols: int) -> str:
    """Return the kind of board for a message: the dice set, and the size when it varies."""
    return f"{dice_set.name} at {rows}×{cols}" if dice_set.uses_frequencies else dice_set.name


def _wanted(band: str, min_words: int) -> str:
    parts = [f"in the {band} band"] if band else []
    if min_words:
        parts.append(f"with at least {min_words:,} words")
    return " ".join(parts) or "at all"


def band_check(
    *,
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
    band: str = "",
    min_words: int = 0,
) -> None:
    """Refuse (BandError) a band or minimum word count that a round start, rolling boards for
    ROUND_DRAW_BUDGET_S, would often fail to meet.

    A choice passes when the boards a draw expects to roll before one meets it (1 / the share
    of boards that do), times DRAW_SAFETY, take no longer than the budget at this kind's
    speed (``board_seconds``). The shares of a lone band or a lone word count come from the
    standing; a band with a word count is counted on seeded boards (``_joint_check``).
    """
    if band and band not in BANDS:
        raise BandError(f"unknown band {band!r}: choose one of {', '.join(BANDS)}")
    if min_words < 0:
        raise BandError(f"a minimum word count cannot be negative ({min_words})")
    if not band and not min_words:
        return
    standing = board_standing(
        dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
    )
    seconds = board_seconds(
        dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
    )
    allowed = draws_allowed(seconds)
    kind = f"{_kind(dice_set, rows, cols)} with {dictionary.name}"
    if allowed < 1:
        raise BandError(
            f"boards of {kind} take {seconds:.2f} s each to solve: too long to roll them for "
            "a band or a word count as a round starts; choose any board"
        )
    words_share = standing.words_share(min_words)
    if words_share * allowed < 1:
        most = standing.words_for_share(1 / allowed)
        raise BandError(
            f"{min_words:,} words is too many for {kind}: at most {most:,} words with these "
            f"dice and this dictionary; choose fewer (a typical board has "
            f"{standing.words_at(50):,})"
        )
    if not band:
        return
    low, high = BANDS[band]
    band_share = (high - low) / 100
    if band_share * allowed < 1:
        raise BandError(
            f"boards of {kind} are too slow to solve to draw one in the {band} band as a "
            "round starts; choose a wider band or a smaller board"
        )
    # At least this share of boards meets both (each misses at most its own complement):
    # common choices pass without sampling a board.
    if min_words and band_share + words_share - 1 < 1 / allowed:
        _joint_check(dictionary, dice_set, rows, cols, rules, standing, band, min_words, allowed)


def draws_allowed(seconds_per_board: float) -> float:
    """Return how many boards a draw may expect to roll before one fits, at this speed."""
    by_time = ROUND_DRAW_BUDGET_S / (max(seconds_per_board, 1e-7) * DRAW_SAFETY)
    return min(by_time, DRAW_MAX_BOARDS / DRAW_SAFETY)


def board_seconds(
    *, dictionary: Dictionary, dice_set: DiceSet, rows: int, cols: int, rules: Rules
) -> float:
    """Return the seconds board_draw takes to roll and solve one board of this kind.

    Measured once per process on MEASURE_BOARDS seeded boards, exactly as board_draw does;
    a busy machine measures more, so it refuses more, never less.
    """
    key = _key(dictionary, dice_set, rows, cols, rules)
    with _lock:
        known = _board_seconds.get(key)
    if known is not None:
        return known
    solver = selectors.dictionary_solver(dictionary, rules, content_hash=dictionary.content_hash)
    draw = board_drawer(dice_set, rows, cols)
    rng = random.Random(CHECK_SEED)
    solver.solve(draw(rng))  # the first solve may build caches a draw would find built
    started = time.perf_counter()
    for _ in range(MEASURE_BOARDS):
        solver.solve(draw(rng))
    seconds = (time.perf_counter() - started) / MEASURE_BOARDS
    with _lock:
        _board_seconds[key] = seconds
    return seconds


def _joint_check(
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
    standing: Standing,
    band: str,
    min_words: int,
    allowed: float,
) -> None:
    """Refuse a band and word count that fewer boards than 1 in ``allowed`` meet together.

    Score and word count go together but not in lockstep, and the standing keeps them
    apart, so seeded boards are drawn and counted: JOINT_HITS × allowed of them (a fixed
    seed: the same boards each time), stopping as soon as JOINT_HITS meet both. At most
    about ROUND_DRAW_BUDGET_S of solving, once, when the choice is refused.
    """
    lowest, highest = standing.band_range(band)
    solver = selectors.dictionary_solver(dictionary, rules, content_hash=dictionary.content_hash)
    draw = board_drawer(dice_set, rows, cols)
    rng = random.Random(CHECK_SEED)
    boards = min(DRAW_MAX_BOARDS, math.ceil(JOINT_HITS * allowed))
    in_band: list[int] = []  # the word counts of the sampled boards in the band
    hits = 0
    for _ in range(boards):
        solution = solver.solve(draw(rng))
        if lowest <= solution.score <= highest:
            in_band.append(len(solution))
            hits += len(solution) >= min_words
            if hits >= JOINT_HITS:
                return
    in_band.sort(reverse=True)
    kind = f"{_kind(dice_set, rows, cols)} with {dictionary.name}"
    if len(in_band) < JOINT_HITS:
        raise BandError(
            f"too few boards of {kind} are in the {band} band to draw one as a round "
            "starts; choose a wider band"
        )
    raise BandError(
        f"{min_words:,} words is too many in the {band} band for {kind}: only {hits} of "
        f"{boards:,} boards sampled have them; at most {in_band[JOINT_HITS - 1]:,} words with "
        "these dice and this dictionary in this band; choose fewer or a wider band"
    )


def board_feasible(*, board: Board, dice_set: DiceSet) -> Feasibility:
    """Return whether a dice set can produce the board, with an assignment or the reason.

    A letter-frequency set draws any size, so only its faces matter.
    """
    if not dice_set.uses_frequencies:
        return feasibility(board, dice_set.engine_dice())
    missing = sorted(set(board.faces) - set(board_faces(dice_set)), key=board.faces.index)
    if missing:
        names = ", ".join("a blank" if f == "" else display_face(f) for f in missing)
        return Feasibility(False, reason=f"its letter table has no {names}")
    return Feasibility(True)


class UnknownDiceSet(LookupError):
    """A dice set slug that is neither in the database nor shipped."""


def dice_set_by_slug(slug: str) -> DiceSet:
    """Return the dice set with a slug: the database's, else a shipped one (unsaved).

    Commands run before ``migrate`` too: then only the shipped sets are known.
    """
    try:
        found = DiceSet.objects.filter(slug=slug).first()
    except DatabaseError as exc:
        log.debug("no dice sets in the database (%s)", exc)
        found = None
    if found is not None:
        return found
    known = {fields["slug"]: fields for fields in shipped.dice_sets()}
    if slug in known:
        return DiceSet(**known[slug])
    try:
        names = sorted(DiceSet.objects.values_list("slug", flat=True)) or sorted(known)
    except DatabaseError:
        names = sorted(known)
    raise UnknownDiceSet(f"unknown dice set {slug!r}: choose one of {', '.join(names)}")
