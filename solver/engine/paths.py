"""Paths: finding the cells that spell one word, and checking a path a player traced."""

from __future__ import annotations

from collections.abc import Sequence

from solver.engine.board import Board, are_adjacent
from solver.engine.rules import Adjacency

Path = tuple[int, ...]

# Why a traced path is refused; each is a "bad_path" to the player.
OUT_OF_BOUNDS = "out_of_bounds"
NOT_ADJACENT = "not_adjacent"
REUSED_CELL = "reused_cell"
WRONG_LETTERS = "wrong_letters"
EMPTY_PATH = "empty_path"


def find_path(board: Board, word: str, adjacency: Adjacency = "king") -> Path | None:
    """Return cells spelling word under the adjacency, or None (seed 004's cellsForWord)."""
    word = word.upper()
    neighbours = board.neighbours(adjacency)
    used = [False] * board.size
    path: list[int] = []

    def extend(cell: int, rest: str) -> bool:
        face = board.faces[cell]
        if used[cell] or not face or not rest.startswith(face):
            return False
        used[cell] = True
        path.append(cell)
        rest = rest[len(face) :]
        if not rest or any(extend(nxt, rest) for nxt in neighbours[cell]):
            return True
        used[cell] = False
        path.pop()
        return False

    if word and any(extend(cell, word) for cell in range(board.size)):
        return tuple(path)
    return None


def path_problem(board: Board, path: Sequence[int], word: str, adjacency: Adjacency) -> str | None:
    """Return why path cannot spell word on board, or None if it does."""
    if not path:
        return EMPTY_PATH
    if any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < board.size for c in path):
        return OUT_OF_BOUNDS
    if len(set(path)) != len(path):
        return REUSED_CELL
    if any(
        not are_adjacent(a, b, board.cols, adjacency) for a, b in zip(path, path[1:], strict=False)
    ):
        return NOT_ADJACENT
    faces = [board.faces[c] for c in path]
    if not all(faces) or "".join(faces) != word.upper():
        return WRONG_LETTERS
    return None


def spell(board: Board, path: Sequence[int]) -> str:
    """Return the letters a path of cells spells."""
    return "".join(board.faces[c] for c in path)
