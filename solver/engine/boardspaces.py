"""The spaces a board search walks: rolls of a dice set, or free faces on an m×n grid.

A state is the board as bytes (one face index per cell, the batch scorer's encoding) plus,
for dice, which die sits on each cell and which of its sides is up, so every board the
search visits can be rolled. A move is a short tuple of cell writes; a batch of neighbours
is the current board copied once per move with that move's writes applied.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from solver.engine.board import Board
from solver.engine.dice import DiceSet
from solver.engine.trie import Trie

# A move's writes: (cell, face index) pairs; a dice move also says how the dice change.
Writes = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class State:
    """A board of the space; ``dice``/``sides`` say which die and side each cell shows."""

    board: bytes
    dice: bytes = b""
    sides: bytes = b""


class Move(NamedTuple):
    """One step to a neighbour: change a cell's face, swap two dice or turn one die (a
    tuple: a climb makes hundreds per step)."""

    kind: str  # "face", "swap" or "turn"
    a: int
    b: int  # the new face index ("face"), the other cell ("swap") or the new side ("turn")


def symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Return the cell orders that map a rows×cols board onto its mirror images and turns.

    Each is a permutation p with ``board'[i] = board[p[i]]``: the identity, the two mirrors
    and the half turn for any grid, and the transpose and quarter turns too when it is square.
    Such boards have the same words under king or rook adjacency, so a search may treat them
    as one.
    """

    def image(r: int, c: int, k: int) -> tuple[int, int]:
        # k's bits: mirror left-right, mirror top-bottom, transpose (square grids only)
        if k & 1:
            c = cols - 1 - c
        if k & 2:
            r = rows - 1 - r
        return (c, r) if k & 4 else (r, c)

    kinds = range(8) if rows == cols else range(4)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    orders = {tuple(rr * cols + cc for rr, cc in (image(r, c, k) for r, c in cells)) for k in kinds}
    return tuple(sorted(orders))


def canonical(board: bytes, orders: tuple[tuple[int, ...], ...]) -> bytes:
    """Return the least of a board's symmetric images: one key for all of them."""
    return min(bytes(board[i] for i in order) for order in orders)


def free_faces(trie: Trie) -> tuple[str, ...]:
    """Return the faces a free board may show: the dictionary's letters, ``QU`` for Q."""
    letters = sorted({ch for ch in trie.alphabet if ch.isalpha() and ch.isupper()})
    faces = []
    for ch in letters:
        if ch == "Q":
            if "U" in letters:  # the dice's Qu face; a bare Q never starts a word here
                faces.append("QU")
        else:
            faces.append(ch)
    if not faces:
        raise ValueError("the dictionary has no letters to put on a board")
    return tuple(faces)


SWAP_SHARE = 0.2  # the share of random free-space moves that swap two cells


class FreeSpace:
    """Every board of rows×cols cells over the given faces; a move changes one cell's face
    or swaps two cells (a swap keeps the letters and moves them, which single changes reach
    only through two steps and a worse board in between)."""

    def __init__(self, rows: int, cols: int, faces: tuple[str, ...]) -> None:
        self.rows, self.cols, self.faces = rows, cols, faces
        self.cells = rows * cols

    def random_state(self, rng: random.Random) -> State:
        """Return a board of faces drawn uniformly."""
        n = len(self.faces)
        return State(bytes(rng.randrange(n) for _ in range(self.cells)))

    def random_move(self, state: State, rng: random.Random) -> Move:
        """Return a swap of two cells showing different faces (sometimes) or a face change."""
        board = state.board
        if self.cells > 1 and rng.random() < SWAP_SHARE:
            a, b = rng.sample(range(self.cells), 2)
            if board[a] != board[b]:
                return Move("swap", a, b)
        cell = rng.randrange(self.cells)
        face = rng.randrange(len(self.faces) - 1)
        if face >= state.board[cell]:
            face += 1  # skip the face the cell already shows
        return Move("face", cell, face)

    def all_moves(self, state: State) -> list[Move]:
        """Return a move to every neighbour, once each: face changes, then swaps."""
        board = state.board
        changes = [
            Move("face", cell, face)
            for cell in range(self.cells)
            for face in range(len(self.faces))
            if face != board[cell]
        ]
        swaps = [
            Move("swap", a, b)
            for a in range(self.cells)
            for b in range(a + 1, self.cells)
            if board[a] != board[b]
        ]
        return changes + swaps

    def writes(self, state: State, move: Move) -> Writes:
        """Return the cell writes that turn the state's board into the move's neighbour."""
        if move.kind == "swap":
            return ((move.a, state.board[move.b]), (move.b, state.board[move.a]))
        return ((move.a, move.b),)

    def apply(self, state: State, move: Move) -> State:
        """Return the neighbour a move leads to."""
        board = bytearray(state.board)
        for cell, face in self.writes(state, move):
            board[cell] = face
        return State(bytes(board))

    def to_board(self, board: bytes) -> Board:
        """Return a board of the space, given as face indices, as a Board."""
        return Board(self.rows, self.cols, tuple(self.faces[i] for i in board))

    def has_neighbours(self) -> bool:
        """Return whether any move exists (one face only: a single board)."""
        return len(self.faces) > 1


class DiceSpace:
    """Every roll of a dice set; a move swaps two dice or turns one die to another face."""

    def __init__(self, dice_set: DiceSet) -> None:
        self.rows, self.cols = dice_set.rows, dice_set.cols
        self.cells = self.rows * self.cols
        self.faces = tuple(sorted({face for die in dice_set.dice for face in die}))
        index = {face: i for i, face in enumerate(self.faces)}
        # Each die's distinct sides as face indices: turning to a repeated face changes nothing.
        self.sides = tuple(tuple(index[f] for f in dict.fromkeys(die)) for die in dice_set.dice)
        if len(self.faces) > 256:
            raise ValueError("a dice set for the board search has at most 256 distinct faces")

    def random_state(self, rng: random.Random) -> State:
        """Return a roll: the dice shuffled into the grid, each showing a random side."""
        order = list(range(self.cells))
        rng.shuffle(order)
        sides = [rng.randrange(len(self.sides[die])) for die in order]
        board = bytes(self.sides[die][side] for die, side in zip(order, sides, strict=True))
        return State(board, bytes(order), bytes(sides))

    def random_move(self, state: State, rng: random.Random) -> Move:
        """Return a swap (half the time) or a turn, to a board that differs from this one."""
        board = state.board
        for _ in range(64):
            if rng.random() < 0.5 and self.cells > 1:
                a, b = rng.sample(range(self.cells), 2)
                if board[a] != board[b]:
                    return Move("swap", a, b)
            else:
                cell = rng.randrange(self.cells)
                sides = len(self.sides[state.dice[cell]])
                if sides > 1:
                    side = rng.randrange(sides - 1)
                    if side >= state.sides[cell]:
                        side += 1
                    return Move("turn", cell, side)
        return self.all_moves(state)[0]  # a degenerate set: take any move there is

    def all_moves(self, state: State) -> list[Move]:
        """Return every swap of dice showing different faces and every turn to another side."""
        board = state.board
        swaps = [
            Move("swap", a, b)
            for a in range(self.cells)
            for b in range(a + 1, self.cells)
            if board[a] != board[b]
        ]
        turns = [
            Move("turn", cell, side)
            for cell in range(self.cells)
            for side in range(len(self.sides[state.dice[cell]]))
            if side != state.sides[cell]
        ]
        return swaps + turns

    def writes(self, state: State, move: Move) -> Writes:
        """Return the cell writes that turn the state's board into the move's neighbour."""
        if move.kind == "swap":
            return ((move.a, state.board[move.b]), (move.b, state.board[move.a]))
        return ((move.a, self.sides[state.dice[move.a]][move.b]),)

    def apply(self, state: State, move: Move) -> State:
        """Return the neighbour a move leads to, dice and sides included."""
        board, dice, sides = bytearray(state.board), bytearray(state.dice), bytearray(state.sides)
        if move.kind == "swap":
            a, b = move.a, move.b
            board[a], board[b] = board[b], board[a]
            dice[a], dice[b] = dice[b], dice[a]
            sides[a], sides[b] = sides[b], sides[a]
        else:
            sides[move.a] = move.b
            board[move.a] = self.sides[dice[move.a]][move.b]
        return State(bytes(board), bytes(dice), bytes(sides))

    def to_board(self, board: bytes) -> Board:
        """Return a board of the space, given as face indices, as a Board."""
        return Board(self.rows, self.cols, tuple(self.faces[i] for i in board))

    def has_neighbours(self) -> bool:
        """Return whether any move exists."""
        return len(self.faces) > 1


Space = FreeSpace | DiceSpace


def neighbours_batch(space: Space, state: State, moves: list[Move]) -> bytes:
    """Return the boards the moves lead to, concatenated: one batch for the scorer."""
    base = state.board
    out = bytearray()
    for move in moves:
        board = bytearray(base)
        for cell, face in space.writes(state, move):
            board[cell] = face
        out += board
    return bytes(out)
