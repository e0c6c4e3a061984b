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
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DatabaseError, IntegrityError, transaction

from solver import selectors, shipped
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
    "dice_set_by_slug",
]

log = logging.getLogger(__name__)

STANDING_SEED = 20261123  # every standing samples the same boards: the figures are repeatable
STANDING_CELLS = 160_000  # boards × cells per standing: 10,000 4×4 boards, 4,444 6×6 boards
STANDING_MIN_SAMPLES = 2_000
DRAW_BUDGET_S = 1.0  # how long board_draw may roll before giving up
DRAW_MAX_BOARDS = 20_000  # and at most this many boards, however fast the machine
RARE_PERCENTILE = 99.9  # a minimum word count above this percentile is refused
RARE_ONE_IN = 1000  # a choice met by fewer boards than 1 in this many is refused
CHECK_SEED = 1  # band_check samples boards with this seed when band and word count combine
CHECK_BOARDS = 2 * RARE_ONE_IN  # and this many of them

_standings: dict[tuple[object, ...], Standing] = {}
_lock = threading.Lock()
_compute_lock = threading.Lock()


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
    _size(dice_set, rows, cols)
    content_hash = dictionary.content_hash
    key = (
        dictionary.pk,
        content_hash,
        dice_set.pk,
        dice_set.updated_at,
        rows,
        cols,
        rules,
    )
    with _lock:
        known = _standings.get(key)
    if known is not None:
        return known
    kind = {
        "dictionary": dictionary,
        "dictionary_hash": content_hash,
        "dice_set": dice_set,
        "rows": rows,
        "cols": cols,
        "min_length": rules.min_length,
        "adjacency": rules.adjacency,
        "scoring": rules.scoring,
    }
    # One computation at a time in a process: a second caller waits, then finds it in memory.
    with _compute_lock:
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
        with _lock:
            _standings[key] = standing
    return standing


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


def board_standing_forget() -> None:
    """Forget the standings this process holds (tests)."""
    with _lock:
        _standings.clear()


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
    budget_s: float = DRAW_BUDGET_S,
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
    """Refuse (BandError) a band or minimum word count that boards of this kind cannot meet."""
    if band and band not in BANDS:
        raise BandError(f"unknown band {band!r}: choose one of {', '.join(BANDS)}")
    if min_words < 0:
        raise BandError(f"a minimum word count cannot be negative ({min_words})")
    if not band and not min_words:
        return
    standing = board_standing(
        dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
    )
    rare = standing.words_at(RARE_PERCENTILE)
    if min_words > rare:
        raise BandError(
            f"{min_words:,} words is too many for {_kind(dice_set, rows, cols)} with "
            f"{dictionary.name}: fewer than 1 board in {RARE_ONE_IN:,} has more than {rare:,} "
            f"(a typical board has {standing.words_at(50):,})"
        )
    if band and min_words:
        _joint_check(dictionary, dice_set, rows, cols, rules, standing, band, min_words)


def _joint_check(
    dictionary: Dictionary,
    dice_set: DiceSet,
    rows: int,
    cols: int,
    rules: Rules,
    standing: Standing,
    band: str,
    min_words: int,
) -> None:
    """Refuse a band and word count that fewer than 1 board in 1,000 meets together.

    Score and word count go together but not in lockstep, and the standing keeps them
    apart, so a fixed sample of boards (a fixed seed and count: the answer never depends
    on the machine's speed) is drawn and counted.
    """
    lowest, highest = standing.band_range(band)
    solver = selectors.dictionary_solver(dictionary, rules, content_hash=dictionary.content_hash)
    draw = board_drawer(dice_set, rows, cols)
    rng = random.Random(CHECK_SEED)
    hits = 0
    for _ in range(CHECK_BOARDS):
        solution = solver.solve(draw(rng))
        hits += lowest <= solution.score <= highest and len(solution) >= min_words
    if hits * RARE_ONE_IN < CHECK_BOARDS:
        raise BandError(
            f"fewer than 1 board in {RARE_ONE_IN:,} of {_kind(dice_set, rows, cols)} with "
            f"{dictionary.name} is {_wanted(band, min_words)} ({hits} of {CHECK_BOARDS:,} "
            "sampled): choose a wider band or fewer words"
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
