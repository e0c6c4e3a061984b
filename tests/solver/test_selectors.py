"""One place serves compiled dictionaries: once per content hash, noticing changes quickly."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.caches import caches_clear
from solver.dictionaries import selectors, services
from solver.dictionaries.selectors import DiceSizeError, DictionaryVersionGone, NoDefaultDictionary
from solver.dictionaries.tries import RECHECK_SECONDS, TrieCache
from solver.engine.board import Board
from solver.engine.lexicon import Status
from solver.engine.rules import Rules
from solver.models import DiceSet, Dictionary

pytestmark = pytest.mark.django_db


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock()
    cache = selectors._tries
    real = cache.clock
    cache.clock = fake
    yield fake
    cache.clock = real


def worker(clock: FakeClock) -> TrieCache:
    """Another process's cache: its own memory, the same database and store on disk."""
    return TrieCache(
        selectors.trie_store,
        selectors._current_hash,
        selectors._word_list,
        clock=clock,
    )


def test_a_dictionary_is_compiled_once_into_the_store(small: Dictionary, trie_cache: Path) -> None:
    trie = selectors.dictionary_trie(small)
    assert set(trie) == {
        "BIRD",
        "CAT",
        "CATS",
        "DOG",
        "DOGS",
        "PITY",
        "QUIT",
        "QUIZ",
        "TAPE",
        "TAPES",
    }
    assert (trie_cache / f"{small.content_hash}.v1.trie").is_file()
    assert selectors.dictionary_trie(small) is trie


def test_the_compiled_file_is_reused_by_a_fresh_process(small: Dictionary) -> None:
    selectors.dictionary_trie(small)
    caches_clear("compiled dictionaries")  # as if a new worker started
    path = selectors.trie_store().path_for(small.content_hash)
    mtime = path.stat().st_mtime_ns
    assert "QUIZ" in selectors.dictionary_trie(small)
    assert path.stat().st_mtime_ns == mtime  # loaded, not rebuilt


def test_a_change_reaches_another_worker_within_the_recheck_interval(
    small: Dictionary, clock: FakeClock
) -> None:
    other = worker(clock)
    assert "ZEBRA" not in other.trie(small.pk, small.content_hash)
    services.dictionary_word_add(dictionary=small, word="zebra")
    # The other worker still holds the row it read before the change: its hash is the old one.
    assert "ZEBRA" not in other.trie(small.pk, small.content_hash)
    clock.now += RECHECK_SECONDS + 0.1
    assert "ZEBRA" in other.trie(small.pk, small.content_hash)


def test_a_caller_holding_a_newer_row_sees_the_change_at_once(
    small: Dictionary, clock: FakeClock
) -> None:
    assert "ZEBRA" not in selectors.dictionary_trie(small)
    changed = services.dictionary_word_add(dictionary=small, word="zebra")
    assert "ZEBRA" in selectors.dictionary_trie(changed)


def test_the_hash_is_read_at_most_once_per_interval(
    small: Dictionary, clock: FakeClock, django_assert_num_queries: object
) -> None:
    selectors.dictionary_trie(small)
    with django_assert_num_queries(0):  # type: ignore[operator]
        for _ in range(100):
            selectors.dictionary_trie(small)
    clock.now += RECHECK_SECONDS + 0.1
    with django_assert_num_queries(1):  # type: ignore[operator]
        selectors.dictionary_trie(small)


def test_a_round_keeps_the_version_it_started_with(small: Dictionary, clock: FakeClock) -> None:
    started_with = small.content_hash
    selectors.dictionary_trie(small)
    services.dictionary_word_remove(dictionary=small, word="quiz")
    clock.now += RECHECK_SECONDS + 0.1
    assert "QUIZ" not in selectors.dictionary_trie(small)
    assert "QUIZ" in selectors.dictionary_trie(small, content_hash=started_with)
    caches_clear("compiled dictionaries")  # a worker that never saw the old version: from disk
    assert "QUIZ" in selectors.dictionary_trie(small, content_hash=started_with)


def test_a_version_never_compiled_is_reported_gone(small: Dictionary) -> None:
    with pytest.raises(DictionaryVersionGone):
        selectors.dictionary_trie(small, content_hash="0" * 64)


def test_no_default_dictionary_is_a_clear_error(db: None) -> None:
    with pytest.raises(NoDefaultDictionary, match="load_dictionaries"):
        selectors.dictionary_default()


def test_word_status_and_board_solving(small: Dictionary) -> None:
    assert selectors.dictionary_word_status(small, "quiz") is Status.WORD
    assert selectors.dictionary_word_status(small, "QU") is Status.PREFIX
    assert selectors.dictionary_word_status(small, "zebra") is Status.NOT_WORD
    solution = selectors.dictionary_board_solve(small, Board.parse("CAT/XXS"), Rules())
    assert solution.words == ["CAT", "CATS"] and solution.score == 2


def test_statistics_count_words_by_length(small: Dictionary) -> None:
    services.dictionary_word_add(dictionary=small, word="zebra")
    services.dictionary_word_remove(dictionary=small, word="bird")
    stats = selectors.dictionary_stats(Dictionary.objects.get(pk=small.pk))
    assert stats.words == 10
    assert stats.by_length == [(3, 2), (4, 6), (5, 2)]
    assert stats.extras == 1 and stats.excluded == 1
    assert stats.letters_used == "ABCDEGIOPQRSTUYZ"


def test_dice_sets_roll_their_dice(shipped_data: None) -> None:
    classic = DiceSet.objects.get(slug="classic16")
    board = selectors.dice_set_roll(classic, random.Random(7))
    assert (board.rows, board.cols) == (4, 4)
    assert board == selectors.dice_set_roll(classic, random.Random(7))
    assert board == classic.engine_dice().roll(random.Random(7))  # the engine's roll
    with pytest.raises(DiceSizeError, match="4×4 board, not 5×5"):
        selectors.dice_set_roll(classic, random.Random(7), 5, 5)


def test_super_big_boggle_can_show_multi_letter_and_blank_faces(shipped_data: None) -> None:
    big = DiceSet.objects.get(slug="superbig36")
    faces = {
        f for seed in range(200) for f in selectors.dice_set_roll(big, random.Random(seed)).faces
    }
    assert {"QU", "IN", "TH", "ER", "HE", "AN", ""} <= faces


def test_frequency_sets_draw_boards_of_any_size(shipped_data: None) -> None:
    letters = DiceSet.objects.get(slug="english-letters")
    assert letters.uses_frequencies
    board = selectors.dice_set_roll(letters, random.Random(1), 10, 12)
    assert (board.rows, board.cols) == (10, 12)
    assert set(board.faces) <= set(letters.letter_frequencies) | {"QU"}
    assert selectors.dice_set_roll(letters, random.Random(1)).size == 16
