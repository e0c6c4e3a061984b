"""Feasibility: can a set of dice roll a given board, and if not, why not.

Cells and dice form a bipartite graph (a die can fill a cell when one of its faces is the
cell's face: ``QU``, ``IN`` and blanks are faces like any letter). The board can be rolled
exactly when the graph has a perfect matching. When it has none, Hall's theorem gives a
reason: a set of cells needing more dice than can show their faces. The cells reachable by
alternating paths from an unmatched cell are such a set, and they always cover whole
groups of cells with the same face, so the reason can be said by face.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.engine.board import Board
from solver.engine.dice import DiceSet
from solver.engine.faces import display_face


@dataclass(frozen=True, slots=True)
class Placement:
    """One die of the set placed on one cell of the board, showing one face."""

    die: int
    cell: int
    face: str


@dataclass(frozen=True, slots=True)
class Feasibility:
    """Whether a board can be rolled: one assignment of dice to cells, or the reason not."""

    ok: bool
    assignment: tuple[Placement, ...] = ()
    reason: str = ""


def feasibility(board: Board, dice: DiceSet) -> Feasibility:
    """Return whether the dice can roll the board, with an assignment or a reason."""
    if (board.rows, board.cols) != (dice.rows, dice.cols):
        return Feasibility(
            False,
            reason=f"the board is {board.rows}×{board.cols}, "
            f"the dice set rolls {dice.rows}×{dice.cols}",
        )
    die_of_cell, reason = match_faces(board.faces, dice.dice)
    if reason:
        return Feasibility(False, reason=reason)
    placements = (
        Placement(d, cell, board.faces[cell]) for cell, d in enumerate(die_of_cell) if d is not None
    )
    return Feasibility(True, assignment=tuple(sorted(placements, key=lambda p: p.die)))


def match_faces(
    faces: Sequence[str], dice: Sequence[Sequence[str]]
) -> tuple[list[int | None], str]:
    """Return a die for each face (all distinct) and "", or a partial matching and why not."""
    shows = [frozenset(die) for die in dice]
    options = [[d for d, shown in enumerate(shows) if face in shown] for face in faces]
    die_of_cell = maximum_matching(options, len(dice))
    if all(d is not None for d in die_of_cell):
        return die_of_cell, ""
    return die_of_cell, _reason(faces, options, die_of_cell)


def maximum_matching(options: Sequence[Sequence[int]], right: int) -> list[int | None]:
    """Return, for each left vertex, its partner in a maximum matching (or None).

    ``options[i]`` lists the right vertices (0 ≤ r < right) that left vertex i may take.
    Augmenting paths found depth first (Kuhn's algorithm): boards have at most a few dozen
    cells, where this beats Hopcroft–Karp's bookkeeping.
    """
    owner: list[int | None] = [None] * right

    def augment(left: int, seen: list[bool]) -> bool:
        for r in options[left]:
            if not seen[r]:
                seen[r] = True
                holder = owner[r]
                if holder is None or augment(holder, seen):
                    owner[r] = left
                    return True
        return False

    for left in range(len(options)):
        augment(left, [False] * right)
    partner: list[int | None] = [None] * len(options)
    for r, holder in enumerate(owner):
        if holder is not None:
            partner[holder] = r
    return partner


def _reason(
    faces: Sequence[str],
    options: Sequence[Sequence[int]],
    die_of_cell: Sequence[int | None],
) -> str:
    """Return a sentence naming a set of faces that needs more dice than can show them."""
    counts = Counter(faces)
    # A face needing more dice than show it is the simplest reason: one no die shows first,
    # then the one short of the most dice.
    short = [
        (len(options[faces.index(f)]) > 0, len(options[faces.index(f)]) - n, faces.index(f), f)
        for f, n in counts.items()
        if n > len(options[faces.index(f)])
    ]
    if short:
        face = min(short)[3]
        return _sentence({face: counts[face]}, len(options[faces.index(face)]))
    # Otherwise the cells reachable by alternating paths from an unmatched cell, grown by the
    # other unmatched cells showing a face already in the set so that every face is whole.
    cell_of_die = {d: cell for cell, d in enumerate(die_of_cell) if d is not None}
    unmatched = [cell for cell, d in enumerate(die_of_cell) if d is None]
    cells, dice, frontier = {unmatched[0]}, set(), [unmatched[0]]
    while frontier:
        cell = frontier.pop()
        for d in options[cell]:
            if d not in dice:
                dice.add(d)
                mate = cell_of_die[d]  # every die reached is matched, or the matching grows
                if mate not in cells:
                    cells.add(mate)
                    frontier.append(mate)
        if not frontier:
            shown = {faces[c] for c in cells}
            frontier = [c for c in unmatched if c not in cells and faces[c] in shown]
            cells.update(frontier)
    needed = Counter(faces[c] for c in cells)
    return _sentence(dict(sorted(needed.items(), key=lambda kv: faces.index(kv[0]))), len(dice))


def _sentence(needed: dict[str, int], available: int) -> str:
    """Return "needs N dice showing …, the set has M" for faces and their cell counts."""
    total = sum(needed.values())
    names = [_name(f) for f in needed]
    if len(names) == 1:
        what = names[0]
    else:
        what = ", ".join(names[:-1]) + " or " + names[-1]
        what += " (" + ", ".join(f"{_name(f)} ×{n}" for f, n in needed.items()) + ")"
    dice = "die" if total == 1 else "dice"
    if available == 0:
        return f"needs {total} {dice} showing {what}, no die of the set has it"
    if len(names) == 1:
        return f"needs {total} {dice} showing {what}, the set has {available}"
    shows = "die of the set shows" if available == 1 else "dice of the set show"
    return f"needs {total} {dice} showing {what}, only {available} {shows} any of them"


def _name(face: str) -> str:
    return "a blank" if face == "" else display_face(face)
