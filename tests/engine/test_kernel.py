"""The compiled kernel's own cases: both node widths, a trie it must refuse, shared kernels."""

from __future__ import annotations

import random
from array import array
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import search
from solver.engine.batch import BatchScorer
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver, kernel_for
from solver.engine.trie import Trie, build_trie
from solver.engine.wordlist import parse_word_list

pytestmark = pytest.mark.skipif(not search.KERNEL_AVAILABLE, reason="needs the compiled kernel")

# 26 letters and 8 more: an alphabet of 34 letters, too many for the kernel's 32-bit nodes.
WIDE = "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖÉÈÜØÑ"


@cache
def wide_trie(seed: int) -> Trie:
    """A dictionary whose words use every letter of WIDE."""
    rng = random.Random(seed)
    words = {"".join(rng.choice(WIDE) for _ in range(rng.randint(2, 6))) for _ in range(3000)}
    words |= set(WIDE[26:])  # each extra letter also as a word of its own
    return Trie.from_word_list(parse_word_list(" ".join(words)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rows=st.integers(1, 5), cols=st.integers(1, 5))
def test_an_alphabet_of_more_than_31_letters_agrees_with_the_reference(
    seed: int, rows: int, cols: int
) -> None:
    trie = wide_trie(seed % 7)
    assert len(trie.alphabet) > 31
    rng = random.Random(seed)
    # Boards drawn from few letters, so that words are found.
    letters = rng.sample([ch for ch in WIDE if ch != "Q"], 6) + ["QU", ""]
    board = Board(rows, cols, tuple(rng.choice(letters) for _ in range(rows * cols)))
    rules = Rules(min_length=1)
    kernel = Solver(trie, rules).solve(board)
    reference = Solver(trie, rules, use_kernel=False).solve(board)
    assert (kernel.ids, kernel.score) == (reference.ids, reference.score)
    scorer = BatchScorer(trie, rules, rows, cols, letters, long_length=3)
    pure = BatchScorer(trie, rules, rows, cols, letters, long_length=3, use_kernel=False)
    batch = scorer.encode(board)
    assert list(scorer.score(batch)) == list(pure.score(batch))


def test_a_letter_the_dictionary_lacks_acts_as_a_blank() -> None:
    trie = Trie.from_word_list(parse_word_list("cat act"))
    board = Board.from_rows("CAZ/TÅX")
    assert Solver(trie, Rules()).solve(board).words == ["ACT", "CAT"]
    scorer = BatchScorer(trie, Rules(), 2, 3, ["C", "A", "Z", "T", "Å", "X"])
    assert list(scorer.score(bytes(range(6)))) == [2, 2, 0]


def damaged(words: str, node: int, field: int, value: int) -> bytes:
    """A compiled trie with one field of one node (0 mask, 8 first child, 12 word) changed."""
    trie = Trie(build_trie(parse_word_list(words)))
    data = bytearray(trie.buffer)
    at = trie.nodes_offset + 16 * node + field
    size = 8 if field == 0 else 4
    data[at : at + size] = value.to_bytes(size, "little")
    return bytes(data)


@pytest.mark.parametrize(
    ("node", "field", "value"),
    [
        (0, 8, 10**6),  # children beyond the last node
        (0, 8, 0),  # the root as its own child
        (1, 8, 1),  # a node as its own child (a loop)
        (0, 0, 0b111),  # more children than follow
        (1, 12, 99),  # a word id beyond the words
        (0, 0, 1 << 63),  # a symbol no alphabet has
    ],
)
def test_a_damaged_trie_is_refused_at_load(node: int, field: int, value: int) -> None:
    from solver.engine import _kernel  # type: ignore[attr-defined]

    data = damaged("cat cats dog", node, field, value)
    trie_shape = Trie(build_trie(parse_word_list("cat cats dog")))
    with pytest.raises(ValueError, match="damaged"):
        _kernel.Kernel(
            data, trie_shape.nodes_offset, trie_shape.node_count, trie_shape.lengths_offset, 3
        )


def test_one_kernel_serves_every_solver_and_scorer_of_a_trie() -> None:
    trie = Trie.from_word_list(parse_word_list("cat act"))
    assert kernel_for(trie) is kernel_for(trie)
    assert Solver(trie)._kernel is Solver(trie, Rules(min_length=4))._kernel
    other = Trie.from_word_list(parse_word_list("cat act"))
    assert kernel_for(other) is not kernel_for(trie)


def test_the_scorer_refuses_bad_tables() -> None:
    kernel = kernel_for(Trie.from_word_list(parse_word_list("cat act")))
    table = bytes(1024)
    nbrs = bytes(18 * 4)
    with pytest.raises(ValueError, match="at least one face"):
        kernel.scorer(b"", nbrs, table, 3, 0)
    with pytest.raises(ValueError, match="face is malformed"):
        kernel.scorer(b"\x09" + bytes(7), nbrs, table, 3, 0)
    with pytest.raises(ValueError, match="score table"):
        kernel.scorer(bytes(8), nbrs, b"", 3, 0)
    with pytest.raises(ValueError, match="neighbour"):
        kernel.scorer(bytes(8), b"", table, 3, 0)
    scorer = kernel.scorer(bytes(8), nbrs, table, 3, 0)
    with pytest.raises(ValueError, match="three int64"):
        scorer.score(bytes(4), array("q", [0]))
