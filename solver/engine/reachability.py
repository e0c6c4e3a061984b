"""Words no board can hold: the dictionary words that no roll of a dice set can spell.

A word fits a dice set when its letters can be split into faces (``QU`` and other
multi-letter faces count as one die each), those faces matched to distinct dice, and a
simple path of that many cells exists on the grid. Dice go into any cell, so when both
hold, putting the matched dice along the path spells the word; when either fails, no
board can.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solver.engine.board import neighbour_table
from solver.engine.dice import DiceSet
from solver.engine.faces import display_face
from solver.engine.feasibility import match_faces
from solver.engine.rules import Adjacency


@dataclass(frozen=True, slots=True)
class Unreachable:
    """The words of a list that no board rolled from a dice set can hold."""

    words: tuple[str, ...]
    checked: int

    @property
    def count(self) -> int:
        """Return how many words no board can hold."""
        return len(self.words)


def longest_path(rows: int, cols: int, adjacency: Adjacency) -> int:
    """Return the number of cells of the longest simple path on a rows×cols grid.

    A snake (left to right, then right to left on the next row) visits every cell under
    both adjacencies; a depth-first search answers for any other neighbour table.
    """
    table = neighbour_table(rows, cols, adjacency)
    snake = [
        r * cols + (c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)
    ]
    if all(b in table[a] for a, b in zip(snake, snake[1:], strict=False)):
        return rows * cols
    best = 0
    used = [False] * (rows * cols)

    def walk(cell: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        used[cell] = True
        for nxt in table[cell]:
            if not used[nxt] and best < rows * cols:
                walk(nxt, length + 1)
        used[cell] = False

    for cell in range(rows * cols):
        walk(cell, 1)
    return best


class DiceFit:
    """Answers whether a word fits a dice set; built once, then asked for many words."""

    def __init__(self, dice: DiceSet, adjacency: Adjacency = "king") -> None:
        masks: dict[str, int] = defaultdict(int)
        for d, die in enumerate(dice.dice):
            for face in die:
                if face:  # a blank spells nothing
                    masks[face] |= 1 << d
        self.masks = dict(masks)
        self.dice_faces = dice.dice
        self.longest = longest_path(dice.rows, dice.cols, adjacency)
        # Faces by the letter they start with, longest first, so a split tries QU before Q.
        by_first: dict[str, list[str]] = defaultdict(list)
        for face in sorted(self.masks, key=len, reverse=True):
            by_first[face[0]].append(face)
        self.by_first = dict(by_first)
        # Letters that may begin a face of several letters: only words holding one need a split.
        self.multi_starts = frozenset(f[0] for f in self.masks if len(f) > 1)
        self.letters = frozenset("".join(self.masks))
        self.singles = frozenset(f for f in self.masks if len(f) == 1)
        self._multi_start = re.compile(
            "[" + "".join(re.escape(ch) for ch in sorted(self.multi_starts)) + "]"
            if self.multi_starts
            else "(?!)"
        )
        self.capacity = {face: mask.bit_count() for face, mask in self.masks.items()}
        # Scarcest faces first: the order in which the greedy matching hands out dice.
        self.rank = {face: (self.capacity[face], face) for face in self.masks}

    def faces_of(self, word: str) -> tuple[str, ...] | None:
        """Return the faces of one way to spell word with distinct dice, or None if none."""
        if not self.letters.issuperset(word):
            return None
        if self.multi_starts.isdisjoint(word):  # one split at most: letter by letter
            if not self.singles.issuperset(word) or len(word) > self.longest:
                return None
            faces = tuple(word)
            return faces if self._matches(faces) else None
        for faces in self._splits(word, 0, []):
            if self._matches(faces):
                return faces
        return None

    def why_not(self, word: str) -> str:
        """Return why no board holds word ("" when one does)."""
        if self.faces_of(word) is not None:
            return ""
        missing = sorted(set(word) - self.letters)
        if missing:
            return f"no die shows {' or '.join(missing)}"
        splits = sorted(self._all_splits(word, 0), key=len)
        if not splits:
            return self._unsplittable(word)
        if len(splits[0]) > self.longest:
            return (
                f"needs {len(splits[0])} dice in a path, the longest path has {self.longest} cells"
            )
        return match_faces(splits[0], self.dice_faces)[1]

    def _all_splits(self, word: str, start: int) -> Iterator[tuple[str, ...]]:
        """Yield every split of word[start:] into faces of the dice, however often each."""
        if start == len(word):
            yield ()
        for face in self.by_first.get(word[start : start + 1], ()):
            if word.startswith(face, start):
                for rest in self._all_splits(word, start + len(face)):
                    yield (face, *rest)

    def _unsplittable(self, word: str) -> str:
        """Return why word has no split into faces of the dice: the first letter no face fits."""
        for start, letter in enumerate(word):
            faces = self.by_first.get(letter, [])
            if not any(word.startswith(f, start) for f in faces):
                shown = " or ".join(display_face(f) for f in faces) or "no face"
                return (
                    f"letter {start + 1} ({letter}) needs a face the dice lack: they show {shown}"
                )
        return f"{word} has no split into faces of the dice"

    def fits(self, word: str) -> bool:
        """Return whether some board rolled from the dice holds word (ignoring min length)."""
        return self.faces_of(word) is not None

    def _splits(
        self, word: str, start: int, faces: list[str], multi: tuple[int, int] = (0, 0)
    ) -> Iterator[tuple[str, ...]]:
        """Yield the splits of word[start:] into faces, pruning ones that overuse dice.

        Letters that begin no multi-letter face are taken as a run, one face each; at the
        others every face that fits is tried. ``multi`` is the count of multi-letter faces
        taken so far and the dice that show them: more faces than dice is a dead end.
        """
        found = self._multi_start.search(word, start)
        end = found.start() if found else len(word)
        if end > start:
            run = word[start:end]
            if not self.singles.issuperset(run) or len(faces) + len(run) > self.longest:
                return
            faces.extend(run)
            yield from self._splits(word, end, faces, multi)
            del faces[-len(run) :]
            return
        if start == len(word):
            yield tuple(faces)
            return
        if len(faces) == self.longest:
            return
        count, dice = multi
        for face in self.by_first.get(word[start], ()):
            if not word.startswith(face, start):
                continue
            taken = multi
            if len(face) > 1:
                taken = (count + 1, dice | self.masks[face])
                if taken[0] > taken[1].bit_count():
                    continue
            faces.append(face)
            yield from self._splits(word, start + len(face), faces, taken)
            faces.pop()

    def _matches(self, faces: tuple[str, ...]) -> bool:
        """Return whether each face can go to a die of its own."""
        masks = self.masks
        # Greedy first, scarcest face first: when it succeeds it is a matching.
        used = 0
        for face in sorted(faces, key=self.rank.__getitem__):
            free = masks[face] & ~used
            if not free:
                break
            used |= free & -free
        else:
            return True
        return self._matches_exactly([masks[f] for f in faces])

    def _matches_exactly(self, wanted: list[int]) -> bool:
        """Return whether every mask gets a distinct die (augmenting paths over bit masks)."""
        owner: dict[int, int] = {}

        def augment(i: int, seen: int) -> tuple[bool, int]:
            free = wanted[i] & ~seen
            while free:
                bit = free & -free
                free ^= bit
                seen |= bit
                holder = owner.get(bit)
                if holder is None:
                    owner[bit] = i
                    return True, seen
                moved, seen = augment(holder, seen)
                if moved:
                    owner[bit] = i
                    return True, seen
                free &= ~seen
            return False, seen

        return all(augment(i, 0)[0] for i in range(len(wanted)))


def unreachable_words(
    words: Iterable[str], dice: DiceSet, adjacency: Adjacency = "king"
) -> Unreachable:
    """Return the words (sorted) that appear on no board rolled from the dice."""
    fit = DiceFit(dice, adjacency)
    checked = 0
    missing = []
    for word in words:
        checked += 1
        if fit.faces_of(word) is None:
            missing.append(word)
    return Unreachable(tuple(sorted(missing)), checked)
