"""Finding every word on a board: the compiled kernel, the pure-Python reference and a
lexicon-first search, all answering with the same :class:`Solution`."""

from __future__ import annotations

import logging
import struct
import weakref
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from solver.engine import paths
from solver.engine.board import Board, neighbour_table
from solver.engine.rules import Adjacency, Rules
from solver.engine.trie import ROOT, Trie

log = logging.getLogger(__name__)

try:
    import solver.engine._kernel as _kernel  # type: ignore[import-not-found]
except ImportError as exc:  # pragma: no cover - depends on the build
    _kernel = None
    log.warning("compiled Boggle kernel unavailable (%s); using the pure-Python search", exc)

KERNEL_AVAILABLE = _kernel is not None
_FACE_SLOT = 8  # a face in the kernel's cell table: its length, then up to 7 symbols
# One compiled kernel per trie, shared by every solver and scorer over it: making one checks
# and copies every node, which should happen once per dictionary, not once per round.
_KERNELS: weakref.WeakKeyDictionary[Trie, Any] = weakref.WeakKeyDictionary()


def kernel_for(trie: Trie) -> Any:
    """Return the compiled kernel over a trie (made on first use), or raise without one."""
    if _kernel is None:
        raise RuntimeError("the compiled kernel is not built: run `make build`")
    kernel = _KERNELS.get(trie)
    if kernel is None:
        kernel = _kernel.Kernel(
            trie.buffer, trie.nodes_offset, trie.node_count, trie.lengths_offset, len(trie)
        )
        _KERNELS[trie] = kernel
    return kernel


def face_slot(trie: Trie, face: str) -> bytes:
    """Return a face as the kernel reads it: its length, then its symbols, in 8 bytes.

    A blank, or a face with a letter the dictionary lacks, is all zeros: no word uses it.
    """
    symbols = trie.encode(face) if face else None
    slot = bytes([len(symbols), *symbols]) if symbols else b""
    return slot.ljust(_FACE_SLOT, b"\0")


@dataclass(frozen=True)
class Solution:
    """Every word on a board under some rules, as sorted word ids and a total score."""

    trie: Trie
    board: Board
    rules: Rules
    ids: tuple[int, ...]
    score: int

    @cached_property
    def words(self) -> list[str]:
        """Return the words in code-point order."""
        return [self.trie.word(i) for i in self.ids]

    def __len__(self) -> int:
        return len(self.ids)

    def scored_words(self) -> list[tuple[str, int]]:
        """Return (word, points) pairs in word order."""
        return [(w, self.rules.score(w)) for w in self.words]

    def path(self, word: str) -> paths.Path | None:
        """Return one path of cells spelling word on this board."""
        return paths.find_path(self.board, word, self.rules.adjacency)


@cache
def neighbour_bytes(rows: int, cols: int, adjacency: Adjacency) -> bytes:
    """Return the neighbour table as the kernel reads it: per cell a count and 8 slots."""
    out = array("H")
    for near in neighbour_table(rows, cols, adjacency):
        out.extend((len(near), *near, *([0] * (8 - len(near)))))
    return out.tobytes()


class Solver:
    """Finds words on boards with one dictionary and one set of rules."""

    def __init__(self, trie: Trie, rules: Rules | None = None, *, use_kernel: bool = True) -> None:
        self.trie = trie
        self.rules = rules or Rules()
        self._kernel: Any = kernel_for(trie) if (use_kernel and _kernel) else None
        self._score_table = struct.pack("<256i", *self.rules.score_table())
        self._slots: dict[str, bytes] = {}
        self._lexicon_index: LexiconIndex | None = None

    @property
    def uses_kernel(self) -> bool:
        """Return whether solve() runs the compiled kernel."""
        return self._kernel is not None

    def with_rules(self, rules: Rules) -> Solver:
        """Return a solver over the same dictionary with other rules."""
        return Solver(self.trie, rules, use_kernel=self._kernel is not None)

    # All words -------------------------------------------------------------------------

    def solve(self, board: Board) -> Solution:
        """Return every word on the board, with the compiled kernel when it is built."""
        if self._kernel is None:
            return self.solve_reference(board)
        ids, score = self.solve_ids(board)
        return Solution(self.trie, board, self.rules, tuple(sorted(array("I", ids))), score)

    def solve_ids(self, board: Board) -> tuple[bytes, int]:
        """Return the kernel's raw answer: word ids (u32, unordered) and the total score."""
        assert self._kernel is not None, "solve_ids needs the compiled kernel"
        slots = self._slots
        try:
            cells = b"".join([slots[f] for f in board.faces])
        except KeyError:
            cells = b"".join([self._slot(f) for f in board.faces])
        nbrs = neighbour_bytes(board.rows, board.cols, self.rules.adjacency)
        result: tuple[bytes, int] = self._kernel.solve(
            cells, nbrs, self._score_table, self.rules.min_length
        )
        return result

    def _slot(self, face: str) -> bytes:
        """Return (and remember) a face's slot in the kernel's cell table."""
        if face not in self._slots:
            self._slots[face] = face_slot(self.trie, face)
        return self._slots[face]

    def solve_reference(self, board: Board) -> Solution:
        """Return every word on the board using the readable pure-Python search."""
        ids = reference_search(self.trie, board, self.rules)
        return self._solution(board, ids)

    def solve_lexicon_first(self, board: Board) -> Solution:
        """Return every word on the board by looking for each dictionary word in turn."""
        if self._lexicon_index is None:
            self._lexicon_index = LexiconIndex(self.trie)
        return self._solution(board, lexicon_first_search(self._lexicon_index, board, self.rules))

    def _solution(self, board: Board, ids: Iterable[int]) -> Solution:
        ordered = tuple(sorted(ids))
        score = sum(self.rules.score(self.trie.word(i)) for i in ordered)
        return Solution(self.trie, board, self.rules, ordered, score)

    # One word --------------------------------------------------------------------------

    def path_of(self, board: Board, word: str) -> paths.Path | None:
        """Return a path spelling word on board under the rules' adjacency, or None."""
        return paths.find_path(board, word, self.rules.adjacency)

    def words_on_board(self, board: Board, words: Iterable[str]) -> list[str]:
        """Return those of the given words that can be formed on the board, in input order."""
        return [
            w.upper()
            for w in words
            if len(w) >= self.rules.min_length and self.path_of(board, w) is not None
        ]


def reference_search(trie: Trie, board: Board, rules: Rules) -> set[int]:
    """Return the ids of all words on the board: depth-first from every cell, pruned by prefix."""
    neighbours = board.neighbours(rules.adjacency)
    faces = [trie.encode(face) if face else None for face in board.faces]
    used = [False] * board.size
    found: set[int] = set()

    def visit(cell: int, node: int) -> None:
        word = trie.word_at(node)
        if word is not None and trie.length(word) >= rules.min_length:
            found.add(word)
        if not trie.has_children(node):
            return
        used[cell] = True
        for nxt in neighbours[cell]:
            symbols = faces[nxt]
            if not used[nxt] and symbols:
                child = trie.walk(node, symbols)
                if child:
                    visit(nxt, child)
        used[cell] = False

    for cell, symbols in enumerate(faces):
        start = trie.walk(ROOT, symbols) if symbols else 0
        if start:
            visit(cell, start)
    return found


class LexiconIndex:
    """Every word of a trie with the set of its letters as a bit mask, for lexicon-first search."""

    def __init__(self, trie: Trie) -> None:
        self.trie = trie
        self.words = list(trie)
        bit = {ch: 1 << i for i, ch in enumerate(trie.alphabet)}
        self.masks = [sum(bit[ch] for ch in set(word)) for word in self.words]
        self.bit = bit

    def letters_mask(self, board: Board) -> int:
        """Return the mask of the letters on a board's faces that the alphabet knows."""
        return sum(self.bit.get(ch, 0) for ch in set("".join(board.faces)))


def lexicon_first_search(index: LexiconIndex, board: Board, rules: Rules) -> set[int]:
    """Return the ids of all words on the board by trying every dictionary word (seed 004).

    A word needing a letter the board lacks fails fast, before any path search.
    """
    missing = ~index.letters_mask(board)
    words, minimum, adjacency = index.words, rules.min_length, rules.adjacency
    return {
        word_id
        for word_id, mask in enumerate(index.masks)
        if not mask & missing
        and len(words[word_id]) >= minimum
        and paths.find_path(board, words[word_id], adjacency) is not None
    }
