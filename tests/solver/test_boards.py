"""Board facts in the product: standings stored once, draws to a band, settings-time checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError
from django.utils import timezone

from games.rounds import services as rounds
from solver.boardlab import boards
from solver.boardlab.boards import (
    BandError,
    UnknownDiceSet,
    band_check,
    board_draw,
    board_feasible,
    board_standing,
    dice_set_by_slug,
)
from solver.caches import caches_clear
from solver.dictionaries import selectors, services, shipped
from solver.dictionaries.selectors import DiceSizeError
from solver.engine import standing as engine_standing
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.standing import BANDS, NO_MAXIMUM
from solver.models import BoardStanding, DiceSet, Dictionary
from tests.solver.conftest import DATA, dictionary_of

pytestmark = pytest.mark.django_db
CLASSIC = Rules()


@pytest.fixture(autouse=True)
def fresh_standings() -> Iterator[None]:
    caches_clear("board standings")
    yield
    caches_clear("board standings")


# band_check's verdicts depend on how fast boards solve: fixed here so that no verdict depends
# on the machine or its load (tests that vary it set their own).
FAST = 0.0001  # seconds a board: draws_allowed(FAST) is the cap, DRAW_MAX_BOARDS / DRAW_SAFETY


def board_speed(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    monkeypatch.setattr(boards, "board_seconds", lambda **kind: seconds)


@pytest.fixture(autouse=True)
def fixed_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    board_speed(monkeypatch, FAST)


@pytest.fixture
def algs4(db: None) -> Dictionary:
    words = (DATA / "dictionaries" / "dictionary-algs4.txt").read_text()
    return dictionary_of(words, slug="algs4")


def dice_row(slug: str) -> DiceSet:
    fields = {f["slug"]: f for f in shipped.dice_sets()}[slug]
    return DiceSet.objects.create(**fields)


@pytest.fixture
def new16(db: None) -> DiceSet:
    return dice_row("new16")


@pytest.fixture
def letters(db: None) -> DiceSet:
    return dice_row("english-letters")


def kind(dictionary: Dictionary, dice: DiceSet, **extra: Any) -> dict[str, Any]:
    return {
        "dictionary": dictionary,
        "dice_set": dice,
        "rows": dice.rows,
        "cols": dice.cols,
        "rules": CLASSIC,
        **extra,
    }


def count_computations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = boards.standing_compute

    def counting(*args: Any, **kwargs: Any) -> engine_standing.Standing:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(boards, "standing_compute", counting)
    return calls


def test_standing_is_computed_once_then_stored_and_remembered(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_computations(monkeypatch)
    first = board_standing(**kind(algs4, new16))
    assert board_standing(**kind(algs4, new16)) is first  # from memory
    caches_clear("board standings")
    assert board_standing(**kind(algs4, new16)) == first  # from the database
    assert len(calls) == 1
    row = BoardStanding.objects.get()
    assert (row.dictionary_hash, row.rows, row.cols, row.min_length) == (
        algs4.content_hash,
        4,
        4,
        3,
    )
    assert row.samples == boards.standing_samples(4, 4) == first.samples
    assert tuple(row.score_quantiles) == first.score_quantiles


def test_other_rules_or_a_changed_dictionary_get_their_own_standing(
    algs4: Dictionary, new16: DiceSet
) -> None:
    classic = board_standing(**kind(algs4, new16))
    longer = board_standing(**kind(algs4, new16, rules=Rules(min_length=4)))
    assert longer.score_at(50) < classic.score_at(50)
    edited = services.dictionary_word_add(dictionary=algs4, word="ZZZQ")
    board_standing(**kind(edited, new16))
    assert BoardStanding.objects.count() == 3


def test_a_standing_older_than_its_dice_is_recomputed(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    board_standing(**kind(algs4, new16))
    DiceSet.objects.filter(pk=new16.pk).update(updated_at=timezone.now() + timedelta(seconds=5))
    new16.refresh_from_db()
    caches_clear("board standings")
    calls = count_computations(monkeypatch)
    board_standing(**kind(algs4, new16))
    assert len(calls) == 1 and BoardStanding.objects.count() == 1
    assert BoardStanding.objects.get().created_at >= new16.updated_at - timedelta(seconds=5)


def test_a_standing_stored_meanwhile_by_another_process_is_the_one_kept(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = boards.standing_compute
    theirs = [7] * 1001

    def racing(*args: Any, **kwargs: Any) -> engine_standing.Standing:
        mine = real(*args, **kwargs)
        BoardStanding.objects.create(  # another worker finished first
            dictionary=algs4,
            dictionary_hash=algs4.content_hash,
            dice_set=new16,
            rows=4,
            cols=4,
            samples=5,
            seed=1,
            score_quantiles=theirs,
            word_quantiles=theirs,
            seconds=0.1,
        )
        return mine

    monkeypatch.setattr(boards, "standing_compute", racing)
    standing = board_standing(**kind(algs4, new16))
    assert standing.score_quantiles == tuple(theirs) and BoardStanding.objects.count() == 1


def test_a_unique_constraint_clash_reads_the_row_that_won(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = board_standing(**kind(algs4, new16))
    caches_clear("board standings")
    monkeypatch.setattr(boards, "standing_compute", lambda *a, **k: stored)

    def clash(**fields: Any) -> None:  # the row appeared between our read and our write
        raise IntegrityError("duplicate key value violates unique constraint")

    original_filter = BoardStanding.objects.filter
    monkeypatch.setattr(BoardStanding.objects, "filter", lambda **k: original_filter(pk=-1))
    monkeypatch.setattr(BoardStanding.objects, "get_or_create", clash)
    assert board_standing(**kind(algs4, new16)) == stored
    assert BoardStanding.objects.count() == 1


def test_a_letter_frequency_set_has_a_standing_per_size(
    algs4: Dictionary, letters: DiceSet
) -> None:
    small = board_standing(**kind(algs4, letters, rows=3, cols=3))
    large = board_standing(**kind(algs4, letters, rows=5, cols=5))
    assert small.score_at(50) < large.score_at(50)
    assert BoardStanding.objects.filter(dice_set=letters).count() == 2


def test_sizes_the_dice_cannot_fill_are_refused(algs4: Dictionary, new16: DiceSet) -> None:
    with pytest.raises(DiceSizeError, match="has dice for a 4×4 board, not 5×5"):
        board_standing(**kind(algs4, new16, rows=5, cols=5))
    with pytest.raises(DiceSizeError, match="at least 1 row and 1 column, not 0×4"):
        board_standing(**kind(algs4, new16, rows=0))
    assert not BoardStanding.objects.exists()


@pytest.mark.parametrize("band", ["", *BANDS])
def test_a_drawn_board_falls_in_its_band_and_a_seed_repeats_it(
    algs4: Dictionary, new16: DiceSet, band: str
) -> None:
    standing = board_standing(**kind(algs4, new16))
    drawn = board_draw(**kind(algs4, new16), rng=random.Random(42), band=band)
    lowest, highest = standing.band_range(band) if band else (0, NO_MAXIMUM)
    assert lowest <= drawn.solution.score <= highest
    assert drawn.percentile == standing.score_percentile(drawn.solution.score)
    assert drawn.solution.board == drawn.board
    again = board_draw(**kind(algs4, new16), rng=random.Random(42), band=band)
    assert again.board == drawn.board and again.tries == drawn.tries >= 1
    if not band:
        assert drawn.tries == 1  # any board: the first roll


def test_monster_and_gentle_boards_differ_as_their_bands_say(
    algs4: Dictionary, new16: DiceSet
) -> None:
    gentle = [
        board_draw(**kind(algs4, new16), rng=random.Random(s), band="gentle") for s in range(5)
    ]
    monster = [
        board_draw(**kind(algs4, new16), rng=random.Random(s), band="monster") for s in range(5)
    ]
    assert max(d.solution.score for d in gentle) < min(d.solution.score for d in monster)
    assert all(d.percentile >= 95 for d in monster) and all(d.percentile <= 35 for d in gentle)


def test_a_drawn_board_has_at_least_the_words_asked_for(algs4: Dictionary, new16: DiceSet) -> None:
    wanted = board_standing(**kind(algs4, new16)).words_at(90)
    drawn = board_draw(**kind(algs4, new16), rng=random.Random(3), min_words=wanted)
    assert len(drawn.solution) >= wanted


def test_a_draw_that_finds_nothing_says_so(algs4: Dictionary, new16: DiceSet) -> None:
    with pytest.raises(BandError, match="no board with at least 100,000 words among [0-9,]+ drawn"):
        board_draw(**kind(algs4, new16), rng=random.Random(1), min_words=100_000, budget_s=0.05)


def test_band_check_accepts_what_boards_can_meet(algs4: Dictionary, new16: DiceSet) -> None:
    standing = board_standing(**kind(algs4, new16))
    for band in BANDS:
        band_check(**kind(algs4, new16), band=band)
    band_check(**kind(algs4, new16), min_words=standing.words_at(99.9))
    band_check(**kind(algs4, new16), band="monster", min_words=standing.words_at(50))
    band_check(**kind(algs4, new16))


def test_band_check_refuses_an_unknown_band(algs4: Dictionary, new16: DiceSet) -> None:
    with pytest.raises(BandError, match="unknown band 'huge': choose one of gentle, standard"):
        band_check(**kind(algs4, new16), band="huge")
    with pytest.raises(BandError, match="unknown band 'huge'"):
        board_draw(**kind(algs4, new16), rng=random.Random(1), band="huge")


def test_band_check_refuses_more_words_than_boards_hold(algs4: Dictionary, new16: DiceSet) -> None:
    rare = board_standing(**kind(algs4, new16)).words_at(99.9)
    with pytest.raises(BandError, match=f"at most {rare:,} words with these dice and this dict"):
        band_check(**kind(algs4, new16), min_words=rare + 1)
    with pytest.raises(BandError, match="cannot be negative"):
        band_check(**kind(algs4, new16), min_words=-1)


def test_the_draw_budget_is_the_round_starts_and_sets_what_a_check_allows() -> None:
    assert rounds.ROUND_DRAW_BUDGET_S is boards.ROUND_DRAW_BUDGET_S
    # 1 ms a board: 2 s hold 2,000 boards, a tenth of them expected: 1 board in 200 will do.
    assert boards.draws_allowed(0.001) == pytest.approx(boards.ROUND_DRAW_BUDGET_S / 0.01)
    assert boards.draws_allowed(0.0) == boards.DRAW_MAX_BOARDS / boards.DRAW_SAFETY


@pytest.mark.parametrize(("seconds", "percentile"), [(0.001, 99.5), (0.01, 95.0)])
def test_a_lone_word_count_is_accepted_up_to_what_a_draw_finds_in_its_budget(
    algs4: Dictionary,
    new16: DiceSet,
    monkeypatch: pytest.MonkeyPatch,
    seconds: float,
    percentile: float,
) -> None:
    """At 1 ms a board a draw may expect 200 boards: 1 board in 200 (the 99.5th percentile of
    word counts) is the most asked for; at 10 ms, 1 in 20 (the 95th)."""
    board_speed(monkeypatch, seconds)
    standing = board_standing(**kind(algs4, new16))
    limit = standing.words_at(percentile)
    assert standing.words_share(limit) >= 1 / boards.draws_allowed(seconds)
    assert standing.words_share(limit + 1) < 1 / boards.draws_allowed(seconds)
    band_check(**kind(algs4, new16), min_words=limit)  # just under: accepted
    with pytest.raises(BandError) as refused:
        band_check(**kind(algs4, new16), min_words=limit + 1)  # just over: refused
    assert str(refused.value) == (
        f"{limit + 1:,} words is too many for {new16.name} with {algs4.name}: at most "
        f"{limit:,} words with these dice and this dictionary; choose fewer "
        f"(a typical board has {standing.words_at(50):,})"
    )
    # The old rule let anything up to the 99.9th percentile through.
    assert limit + 1 <= standing.words_at(99.9)


def test_boards_too_slow_for_any_band_refuse_every_band(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    board_speed(monkeypatch, 0.5)  # 2 s hold 4 boards: none can be waited for 10 times over
    band_check(**kind(algs4, new16))  # any board: nothing rolled, nothing to wait for
    with pytest.raises(BandError, match="0.50 s each to solve: too long .* choose any board"):
        band_check(**kind(algs4, new16), band="standard")
    board_speed(monkeypatch, 0.05)  # 4 expected boards: gentle (1 in 3) passes, monster not
    band_check(**kind(algs4, new16), band="gentle")
    with pytest.raises(BandError, match="too slow to solve to draw one in the monster band"):
        band_check(**kind(algs4, new16), band="monster")


def sample(dictionary: Dictionary, dice: DiceSet, boards_: int) -> list[tuple[int, int]]:
    """The (score, words) of the boards band_check samples: seed CHECK_SEED, in order."""
    solver = selectors.dictionary_solver(dictionary, CLASSIC)
    draw = boards.board_drawer(dice, dice.rows, dice.cols)
    rng = random.Random(boards.CHECK_SEED)
    return [(s.score, len(s)) for s in (solver.solve(draw(rng)) for _ in range(boards_))]


def test_a_band_and_word_count_the_old_two_in_2000_rule_passed_are_refused(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1 ms a board a draw may expect 200 boards, so band_check samples 2,000 boards (the
    old rule's very sample) and wants 10 that meet both, where the old rule wanted 2."""
    board_speed(monkeypatch, 0.001)
    standing = board_standing(**kind(algs4, new16))
    boards_ = round(boards.JOINT_HITS * boards.draws_allowed(0.001))
    assert boards_ == 2000
    sampled = sample(algs4, new16, boards_)
    found = []
    for band in BANDS:
        low, high = standing.band_range(band)
        in_band = sorted((w for s, w in sampled if low <= s <= high), reverse=True)
        for words in sorted(set(in_band), reverse=True):
            hits = sum(w >= words for w in in_band)
            # the band and the word count each pass alone; together 2 to 9 boards meet them
            if 2 <= hits < boards.JOINT_HITS and standing.words_share(words) >= 1 / 200:
                found.append((band, words, hits, in_band[boards.JOINT_HITS - 1]))
    assert found, "no band and word count met by 2 to 9 of the sampled boards"
    band, words, hits, most = found[0]
    with pytest.raises(BandError) as refused:
        band_check(**kind(algs4, new16), band=band, min_words=words)
    assert f"only {hits} of 2,000 boards sampled have them; at most {most:,} words" in str(
        refused.value
    )
    band_check(**kind(algs4, new16), band=band, min_words=most)  # 10 boards have that many


def test_a_band_and_word_count_most_boards_meet_pass_without_sampling(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    standing = board_standing(**kind(algs4, new16))

    def no_sampling(*args: object) -> None:
        raise AssertionError("sampled boards for a choice most boards meet")

    monkeypatch.setattr(boards, "_joint_check", no_sampling)
    # standard holds half the boards and 90 % have this many words: 40 % have both at least
    band_check(**kind(algs4, new16), band="standard", min_words=standing.words_at(10))


def test_band_check_refuses_a_band_and_word_count_that_contradict(
    algs4: Dictionary, new16: DiceSet
) -> None:
    # Gentle boards score little; the richest word counts belong to high scores.
    rich_words = board_standing(**kind(algs4, new16)).words_at(99)
    with pytest.raises(BandError, match=f"{rich_words:,} words is too many in the gentle band"):
        band_check(**kind(algs4, new16), band="gentle", min_words=rich_words)


def test_board_seconds_are_measured_once_per_kind(
    algs4: Dictionary, new16: DiceSet, letters: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.undo()  # the real measurement
    first = boards.board_seconds(**kind(algs4, new16))
    assert first > 0 and boards.board_seconds(**kind(algs4, new16)) == first
    assert set(boards._board_seconds) == {boards._key(algs4, new16, 4, 4, CLASSIC)}
    boards.board_seconds(**kind(algs4, letters, rows=3, cols=3))
    assert len(boards._board_seconds) == 2
    caches_clear("board standings")
    assert not boards._board_seconds


def test_one_kind_computing_its_standing_does_not_hold_up_another(
    algs4: Dictionary, new16: DiceSet, letters: DiceSet
) -> None:
    busy = boards._kind_lock(boards._key(algs4, new16, 4, 4, CLASSIC))
    assert busy is boards._kind_lock(boards._key(algs4, new16, 4, 4, CLASSIC))
    with busy:  # new16's standing being computed (a process-wide lock would hang here)
        other = board_standing(**kind(algs4, letters, rows=3, cols=3))
        assert busy.locked() and other.samples == boards.standing_samples(3, 3)
    assert BoardStanding.objects.get().dice_set == letters


def test_a_known_standing_is_read_never_computed(
    algs4: Dictionary, new16: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_computations(monkeypatch)
    assert boards.board_standing_known(**kind(algs4, new16)) is None
    assert not calls and not BoardStanding.objects.exists()
    stored = board_standing(**kind(algs4, new16))
    caches_clear("board standings")
    assert boards.board_standing_known(**kind(algs4, new16)) == stored  # from the database
    assert len(calls) == 1


def test_feasibility_for_dice_and_for_letter_tables(new16: DiceSet, letters: DiceSet) -> None:
    assert board_feasible(board=Board.from_rows("PERS/LATG/SINE/TERS"), dice_set=new16).ok
    no = board_feasible(board=Board.from_rows("ZZAE/TSRN/LOIE/DTAS"), dice_set=new16)
    assert no.reason == "needs 2 dice showing Z, the set has 1"
    assert board_feasible(board=Board.from_rows("QUIT/ZAPS"), dice_set=letters).ok
    blank = board_feasible(board=Board.from_rows("QU_T/[In]APS"), dice_set=letters)
    assert blank.reason == "its letter table has no a blank, In"


def test_dice_sets_by_slug_from_the_database_or_shipped(new16: DiceSet) -> None:
    assert dice_set_by_slug("new16") == new16
    shipped_only = dice_set_by_slug("big25")
    assert shipped_only.pk is None and shipped_only.rows == 5
    with pytest.raises(UnknownDiceSet, match="unknown dice set 'nope': choose one of new16"):
        dice_set_by_slug("nope")
