"""Scoring many boards of one shape in one call: the inner loop of the board search.

A batch is a run of boards, each ``rows × cols`` bytes, each byte an index into the
scorer's ``faces`` (so ``QU``, multi-letter faces and blanks cost one byte like any
letter). The answer is three numbers per board: total score, word count and the count of
words of at least ``long_length`` letters (0 when ``long_length`` is 0).

This module fixes the interface; the compiled kernel makes it fast.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie

FIELDS = 3  # score, words, long words


class BatchScorer:
    """Scores batches of boards of one size over one dictionary and one set of rules."""

    def __init__(
        self,
        trie: Trie,
        rules: Rules,
        rows: int,
        cols: int,
        faces: Sequence[str],
        *,
        long_length: int = 0,
        use_kernel: bool = True,
    ) -> None:
        if rows < 1 or cols < 1:
            raise ValueError(f"a board needs at least one row and one column, not {rows}×{cols}")
        if not faces or len(faces) > 256:
            raise ValueError("a batch needs between 1 and 256 faces")
        self.trie, self.rules = trie, rules
        self.rows, self.cols = rows, cols
        self.faces = tuple(faces)
        self.long_length = long_length
        self._solver = Solver(trie, rules, use_kernel=use_kernel)

    @property
    def cells(self) -> int:
        """Return the number of cells (bytes) of one board in a batch."""
        return self.rows * self.cols

    def board(self, encoded: bytes | bytearray | memoryview) -> Board:
        """Return the board one batch entry stands for."""
        return Board(self.rows, self.cols, tuple(self.faces[i] for i in encoded))

    def encode(self, board: Board) -> bytes:
        """Return a board as one batch entry (every face must be one of the scorer's)."""
        index = {face: i for i, face in enumerate(self.faces)}
        return bytes(index[f] for f in board.faces)

    def score(self, boards: bytes | bytearray | memoryview) -> array[int]:
        """Return score, words and long words for every board in the batch, flat."""
        n = self.cells
        if len(boards) % n:
            raise ValueError(f"a batch holds whole boards of {n} bytes each")
        out = array("q")
        for start in range(0, len(boards), n):
            solution = self._solver.solve(self.board(boards[start : start + n]))
            long_words = (
                sum(len(w) >= self.long_length for w in solution.words) if self.long_length else 0
            )
            out.extend((solution.score, len(solution), long_words))
        return out
