"""Reading dictionaries and dice sets: the compiled trie of a dictionary, statistics, boards.

``dictionary_trie`` is the one place any game or command gets a compiled dictionary from.
These functions touch the database: call them from async code through
``database_sync_to_async``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import QuerySet

from solver.caches import cache_register
from solver.dictionaries.packing import words_effective, words_unpack
from solver.dictionaries.tries import DictionaryVersionGone, TrieCache, trie_store
from solver.engine.board import Board
from solver.engine.dice import random_letter_board
from solver.engine.lexicon import Status
from solver.engine.rules import Rules
from solver.engine.search import Solution, Solver
from solver.engine.trie import Trie
from solver.engine.wordlist import WordList, normalise_word
from solver.models import DiceSet, Dictionary, DictionaryWord

__all__ = ["DictionaryVersionGone"]


class NoDefaultDictionary(LookupError):
    """No dictionary is marked default: the shipped data has not been loaded."""


def dictionary_default() -> Dictionary:
    """Return the dictionary new games use unless told otherwise."""
    found = Dictionary.objects.filter(is_default=True).first()
    if found is None:
        raise NoDefaultDictionary(
            "no default dictionary: run `manage.py load_dictionaries` to load the shipped ones"
        )
    return found


def dictionary_or_default(*, slug: str = "", pk: int | None = None) -> Dictionary:
    """Return the dictionary a game names, by slug (a room's choice: active ones only) or by
    id (a round's: kept even if deactivated since), or the default if it names none or the
    one it names is gone."""
    named = Dictionary.objects.none()
    if pk is not None:
        named = Dictionary.objects.filter(pk=pk)
    elif slug:
        named = Dictionary.objects.filter(slug=slug, is_active=True)
    return named.first() or dictionary_default()


def dictionary_active_list() -> QuerySet[Dictionary]:
    """Return the dictionaries a host may choose for a new game, by name."""
    return Dictionary.objects.filter(is_active=True)


def dictionary_word_list(dictionary: Dictionary) -> WordList:
    """Return a dictionary's effective list as stored now: base + extras − exclusions."""
    return _word_list(dictionary.pk)


def _word_list(pk: int) -> WordList:
    blob = Dictionary.objects.values_list("words_gz", flat=True).get(pk=pk)
    changes = DictionaryWord.objects.filter(dictionary_id=pk).values_list("word", "kind")
    extras = [w for w, kind in changes if kind == DictionaryWord.Kind.EXTRA]
    excluded = [w for w, kind in changes if kind == DictionaryWord.Kind.EXCLUDED]
    return words_effective(words_unpack(blob), extras, excluded)


def _current_hash(pk: int) -> str:
    return Dictionary.objects.values_list("content_hash", flat=True).get(pk=pk)


_tries = TrieCache(trie_store, _current_hash, _word_list)


def dictionary_trie(dictionary: Dictionary, *, content_hash: str | None = None) -> Trie:
    """Return the compiled trie of a dictionary's current list, or of the version named.

    Compiled once per content hash into the shared store, then kept in memory; a change in
    the admin is noticed within a few seconds. A round passes the ``content_hash`` it started
    with to keep playing with that list (DictionaryVersionGone if it was never compiled).
    """
    return _tries.trie(dictionary.pk, dictionary.content_hash, content_hash)


def _dictionary_cache_clear() -> None:
    """Forget this process's compiled dictionaries and known hashes (for tests)."""
    _tries.clear()


cache_register("compiled dictionaries", _dictionary_cache_clear)


@lru_cache(maxsize=32)
def _solver(trie: Trie, rules: Rules) -> Solver:
    return Solver(trie, rules)


def dictionary_solver(
    dictionary: Dictionary, rules: Rules, *, content_hash: str | None = None
) -> Solver:
    """Return a solver over a dictionary's compiled trie (reused while the list is unchanged)."""
    return _solver(dictionary_trie(dictionary, content_hash=content_hash), rules)


def dictionary_word_status(dictionary: Dictionary, text: str) -> Status:
    """Return WORD, PREFIX or NOT_WORD for a string in a dictionary's current list."""
    return dictionary_trie(dictionary).status(normalise_word(text.strip()))


def dictionary_board_solve(dictionary: Dictionary, board: Board, rules: Rules) -> Solution:
    """Return every word of a dictionary on a board, and the total score."""
    return dictionary_solver(dictionary, rules).solve(board)


@dataclass(frozen=True)
class DictionaryStats:
    """What the admin's change page shows about a dictionary's current list."""

    words: int
    by_length: list[tuple[int, int]]
    letters_used: str
    extras: int
    excluded: int
    compiled_bytes: int


def dictionary_stats(dictionary: Dictionary) -> DictionaryStats:
    """Return the size, words by length and letters of a dictionary's current list."""
    trie = dictionary_trie(dictionary)
    lengths = _lengths(trie)
    kinds = Counter(
        DictionaryWord.objects.filter(dictionary=dictionary).values_list("kind", flat=True)
    )
    return DictionaryStats(
        words=len(trie),
        by_length=sorted(lengths.items()),
        letters_used=trie.alphabet,
        extras=kinds[DictionaryWord.Kind.EXTRA],
        excluded=kinds[DictionaryWord.Kind.EXCLUDED],
        compiled_bytes=trie.nbytes,
    )


@lru_cache(maxsize=8)
def _lengths(trie: Trie) -> Counter[int]:
    return Counter(trie.length(i) for i in range(len(trie)))


def dice_set_active_list() -> QuerySet[DiceSet]:
    """Return the dice sets a host may choose for a new game."""
    return DiceSet.objects.filter(is_active=True)


class DiceSizeError(ValueError):
    """A board size that a set of dice cannot fill."""


def dice_set_roll(
    dice_set: DiceSet, rng: random.Random, rows: int | None = None, cols: int | None = None
) -> Board:
    """Return a random board: the dice shuffled and rolled, or rows×cols letters drawn."""
    rows, cols = rows or dice_set.rows, cols or dice_set.cols
    if dice_set.uses_frequencies:
        return random_letter_board(rows, cols, rng, dice_set.letter_frequencies)
    if (rows, cols) != (dice_set.rows, dice_set.cols):
        raise DiceSizeError(
            f"{dice_set.name} has dice for a {dice_set.rows}×{dice_set.cols} board, "
            f"not {rows}×{cols}"
        )
    return dice_set.engine_dice().roll(rng)
