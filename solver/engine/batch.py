"""Scoring many boards of one shape in one call: the inner loop of the board search.

A batch is a run of boards, each ``rows × cols`` bytes, each byte an index into the
scorer's ``faces`` (so ``QU``, multi-letter faces and blanks cost one byte like any
letter). The answer is three numbers per board: total score, word count and the count of
words of at least ``long_length`` letters (0 when ``long_length`` is 0).

With the compiled kernel, one call scores the whole batch in C: the faces, neighbours and
score table are prepared once per scorer, and no Python object is made per board. Without
it (or with ``use_kernel=False``) every board goes through the pure-Python reference, which
gives the same numbers.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from typing import Any

from solver.engine.board import MAX_CELLS, Board
from solver.engine.faces import FaceError, normalise_face
from solver.engine.rules import Rules
from solver.engine.search import KERNEL_AVAILABLE, Solver, face_slot, kernel_for, neighbour_bytes
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
        if rows * cols > MAX_CELLS:
            raise ValueError(f"a board has at most {MAX_CELLS} cells, not {rows * cols}")
        if not faces or len(faces) > 256:
            raise ValueError("a batch needs between 1 and 256 faces")
        for face in faces:
            try:
                canonical = normalise_face(face)
            except FaceError as exc:
                raise ValueError(str(exc)) from None
            if canonical != face:
                raise ValueError(f"face {face!r} is not in canonical form; write {canonical!r}")
        if long_length < 0:
            raise ValueError(f"long_length must be 0 (off) or a length, not {long_length}")
        self.trie, self.rules = trie, rules
        self.rows, self.cols = rows, cols
        self.faces = tuple(faces)
        self.long_length = long_length
        self._solver = Solver(trie, rules, use_kernel=False)
        self._scorer: Any = None
        if use_kernel and KERNEL_AVAILABLE:
            self._scorer = kernel_for(trie).scorer(
                b"".join(face_slot(trie, face) for face in self.faces),
                neighbour_bytes(rows, cols, rules.adjacency),
                struct.pack("<256i", *rules.score_table()),
                rules.min_length,
                long_length,
            )

    @property
    def uses_kernel(self) -> bool:
        """Return whether score() runs in the compiled kernel."""
        return self._scorer is not None

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
        if self._scorer is not None:
            out = array("q", bytes(8 * FIELDS * (len(boards) // n)))
            self._scorer.score(boards, out)
            return out
        if any(b >= len(self.faces) for b in bytes(boards)):
            raise ValueError(f"a board names a face beyond the scorer's {len(self.faces)}")
        out = array("q")
        for start in range(0, len(boards), n):
            solution = self._solver.solve_reference(self.board(boards[start : start + n]))
            long_words = (
                sum(len(w) >= self.long_length for w in solution.words) if self.long_length else 0
            )
            out.extend((solution.score, len(solution), long_words))
        return out
