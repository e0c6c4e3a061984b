"""Proving a board the best of its kind: branch and bound over classes of boards.

A search can only say "best found". To say "best possible" for boards of rows×cols free
faces over a dictionary, the prover covers every board. It deals the faces into a few
buckets (vowels, common consonants, the rest) and makes one *class* per way of giving each
cell a bucket: a class is the set of boards whose every cell shows a face of its bucket. For
a class, the kernel computes an upper bound on the score of every board in it without
enumerating them (see ``Bounder`` and ``Tree`` in ``_kernel.c``: the best continuation at
every unsettled cell, a word counted once per path). A class whose bound is below the target
(the best score a search found) holds no board worth looking at and is retired whole; any
other is split: one of its cells is settled to each face of its bucket, and the bounds of
all those subclasses come from one evaluation of the class's tree. A class with every cell
settled is one board, scored exactly. A board at or above the target is kept, and one above
it raises the target.

Mirror images and turns of a board score the same, so only one class of each symmetric
family of bucket assignments is proved. The classes are numbered, a proof's state is the
set of numbers still open (plus what was found), and workers prove classes independently:
that is what makes a proof resumable (``ProofState`` in a checkpoint file) and parallel
(``prove`` with ``jobs``).
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import os
import signal
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.engine.batch import BatchScorer
from solver.engine.boardspaces import free_faces, symmetries
from solver.engine.rules import Rules
from solver.engine.search import KERNEL_AVAILABLE, face_slot, kernel_for, neighbour_bytes
from solver.engine.trie import Trie

CHECKPOINT_FORMAT = "boggle-proof/1"
# Boards larger than this are not proved without --force: the classes of a 4×4 take far more
# than a machine's lifetime (docs/board-proofs.md gives the figures).
PRACTICAL_CELLS = 12
MAX_CELLS = 16
# The most nodes a class's tree may take (32 bytes each: 1 GiB a process); a larger class is
# split by walking the trie until its subclasses' trees fit. No 3×3 top class comes near.
TREE_NODES_MAX = 1 << 25
# The default buckets for dictionaries over A–Z: vowels, the consonants most words use, the
# rest. A cell's bucket is split face by face, so fewer, larger buckets mean fewer classes to
# start with and more splitting of each. Measured on 3×3 ENABLE2K (150 top classes each,
# CPU seconds for the whole proof estimated): these three 827 s; AEIOU/LNRST/the rest 854 s;
# four buckets (AEIOU/LNRST/BCDGHKMPY/FJQVWXZ) 1,181 s; five about 1,300 s.
ENGLISH_BUCKETS = ("AEIOUY", "DLNRST", "BCFGHJKMPQVWXZ")


class ProofError(ValueError):
    """A proof that cannot start or continue; the message says why, in words."""


@dataclass(frozen=True)
class ProofSpec:
    """What is being proved: boards of rows×cols faces, their buckets, the rules."""

    rows: int
    cols: int
    faces: tuple[str, ...]
    buckets: tuple[str, ...]  # each a comma-free run of faces, "QU" written as Q
    rules: Rules
    dictionary: str  # a name for messages and the checkpoint ("enable2k")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "faces": list(self.faces),
            "buckets": list(self.buckets),
            "rules": {
                "min_length": self.rules.min_length,
                "adjacency": self.rules.adjacency,
                "scoring": self.rules.scoring,
            },
            "dictionary": self.dictionary,
        }


def bucket_masks(faces: Sequence[str], buckets: Sequence[str]) -> tuple[int, ...]:
    """Return each bucket as a mask over the faces; every face in exactly one bucket."""
    index = {face: i for i, face in enumerate(faces)}
    by_letter = {face[0]: face for face in faces}
    masks = []
    seen: dict[str, int] = {}
    for n, bucket in enumerate(buckets):
        mask = 0
        for letter in bucket.upper():
            face = by_letter.get(letter)
            if face is None:
                raise ProofError(f"bucket {bucket!r}: {letter} is not a face of this dictionary")
            if face in seen:
                raise ProofError(f"{face} is in two buckets ({buckets[seen[face]]!r}, {bucket!r})")
            seen[face] = n
            mask |= 1 << index[face]
        if not mask:
            raise ProofError("a bucket is empty")
        masks.append(mask)
    missing = [face for face in faces if face not in seen]
    if missing:
        raise ProofError(f"faces in no bucket: {', '.join(missing)}")
    return tuple(masks)


def default_buckets(faces: Sequence[str]) -> tuple[str, ...]:
    """Return the English buckets when the faces are A–Z, else four buckets dealt in order."""
    letters = {face[0] for face in faces}
    if letters == {ch for bucket in ENGLISH_BUCKETS for ch in bucket}:
        return ENGLISH_BUCKETS
    k = min(4, len(faces))
    return tuple("".join(face[0] for face in faces[i::k]) for i in range(k))


def spec_for(
    trie: Trie,
    rows: int,
    cols: int,
    rules: Rules,
    dictionary: str,
    *,
    buckets: Sequence[str] | None = None,
    force: bool = False,
) -> ProofSpec:
    """Return the spec of a proof over free faces of the dictionary; ProofError if the size is
    not one the prover can take (or not practical, unless forced)."""
    if rows < 1 or cols < 1:
        raise ProofError(f"a board needs at least one row and one column, not {rows}×{cols}")
    if rows * cols > MAX_CELLS:
        raise ProofError(f"the prover takes boards of at most {MAX_CELLS} cells, not {rows}×{cols}")
    if rows * cols > PRACTICAL_CELLS and not force:
        raise ProofError(
            f"a {rows}×{cols} proof would take thousands of CPU years here (docs/board-proofs.md);"
            f" boards of up to {PRACTICAL_CELLS} cells are practical. Give --force to measure it."
        )
    faces = free_faces(trie)
    if len(faces) > 64:
        raise ProofError(f"the prover takes at most 64 faces; this dictionary has {len(faces)}")
    chosen = tuple(buckets) if buckets else default_buckets(faces)
    bucket_masks(faces, chosen)  # every face in one bucket, or a ProofError
    return ProofSpec(rows, cols, faces, chosen, rules, dictionary)


def top_classes(spec: ProofSpec) -> list[tuple[int, ...]]:
    """Return the classes a proof starts from: one bucket per cell, one assignment of each
    symmetric family (the least of its images), in a fixed order."""
    masks = bucket_masks(spec.faces, spec.buckets)
    orders = symmetries(spec.rows, spec.cols)
    classes = []
    for assignment in itertools.product(range(len(masks)), repeat=spec.cells):
        if all(assignment <= tuple(assignment[i] for i in order) for order in orders):
            classes.append(tuple(masks[b] for b in assignment))
    return classes


def class_size(masks: Sequence[int]) -> int:
    """Return the number of boards in a class."""
    return math.prod(m.bit_count() for m in masks)


@dataclass
class Figures:
    """What a proof has done: classes met and retired, bound evaluations, boards covered."""

    classes: int = 0  # classes whose bound was known (each subclass made counts)
    retired: int = 0  # classes retired by their bound
    walks: int = 0  # bound evaluations (each gives the bounds of all of a split's subclasses)
    visits: int = 0  # trie nodes a class's tree was built from, and tree nodes evaluated
    boards_scored: int = 0  # single boards scored exactly
    boards_covered: int = 0  # boards of the classes done
    cpu_seconds: float = 0.0

    def add(self, other: Figures) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass
class ClassResult:
    """What proving one top class found: its boards at or above the target, its figures."""

    index: int
    found: list[tuple[str, int]]  # (board as rows "RTS/EAE/PLD", score)
    figures: Figures


class ClassProver:
    """Proves classes of one spec in this process: the bounder and scorer over one trie.

    A top class's paths that can score are written down once, as the kernel's Tree; each
    split evaluates the tree, and each surviving subclass gets its own smaller tree (the
    parent's without the other faces of the settled cell), so no class walks the trie again.
    """

    def __init__(self, spec: ProofSpec, trie: Trie) -> None:
        if not KERNEL_AVAILABLE:
            raise ProofError("the prover needs the compiled kernel: run `make build`")
        self.spec = spec
        self.cells = spec.cells
        self._bounder = kernel_for(trie).bounder(
            b"".join(face_slot(trie, face) for face in spec.faces),
            neighbour_bytes(spec.rows, spec.cols, spec.rules.adjacency),
            struct.pack("<256i", *spec.rules.score_table()),
            spec.rules.min_length,
        )
        self._scorer = BatchScorer(trie, spec.rules, spec.rows, spec.cols, spec.faces)
        self._pack = struct.Struct(f"<{self.cells}Q").pack
        rows, cols = spec.rows, spec.cols
        self._degree = [
            sum(
                1
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
            )
            for r in range(rows)
            for c in range(cols)
        ]

    def bound(self, masks: Sequence[int]) -> int:
        """Return the bound of one class."""
        return int(self._bounder.bound(self._pack(*masks)))

    def prove(self, index: int, masks: tuple[int, ...], target: int) -> ClassResult:
        """Retire a class: every board in it at or above `target` comes back, with its score
        (the target rises to a better board's score as they are found)."""
        start = time.process_time()
        visits = self._bounder.visits()
        run = _Retiring(target, Figures(classes=1, walks=1, boards_covered=class_size(masks)))
        tree = self._tree(masks)
        if (tree.bound() if tree is not None else self.bound(masks)) < target:
            run.figures.retired += 1
        else:
            self._split(tree, masks, run)
        run.figures.visits = self._bounder.visits() - visits
        run.figures.cpu_seconds = time.process_time() - start
        return ClassResult(index, run.found, run.figures)

    def _tree(self, masks: tuple[int, ...]) -> Any:
        """Return the class's Tree, or None if it would take more than TREE_NODES_MAX nodes
        (a class of a large board with wide buckets): such a class is split by walking the
        trie until its subclasses' trees fit."""
        return self._bounder.tree(self._pack(*masks), TREE_NODES_MAX)

    def _split(self, tree: Any, masks: tuple[int, ...], run: _Retiring) -> None:
        open_cells = [i for i, m in enumerate(masks) if m & (m - 1)]
        if not open_cells:
            self._score(masks, run)
            return
        # The cell touching most others first (measured on 3×3 ENABLE2K: 2.5× fewer walks
        # than the widest bucket first), the widest bucket among those.
        cell = max(open_cells, key=lambda i: (self._degree[i], masks[i].bit_count(), -i))
        if tree is not None:
            children = tree.bound_split(cell)
        else:
            children = self._bounder.bound_split(self._pack(*masks), cell)
        run.figures.walks += 1
        run.figures.classes += len(children)
        for face, bound in children:
            if bound < run.target:
                run.figures.retired += 1
                continue
            child = masks[:cell] + (1 << face,) + masks[cell + 1 :]
            self._split(
                tree.force(cell, face) if tree is not None else self._tree(child), child, run
            )

    def _score(self, masks: tuple[int, ...], run: _Retiring) -> None:
        board = bytes(m.bit_length() - 1 for m in masks)
        score = int(self._scorer.score(board)[0])
        run.figures.boards_scored += 1
        if score >= run.target:
            run.found.append((self._scorer.board(board).to_rows(), score))
            run.target = score


@dataclass
class _Retiring:
    """One class being retired: the target as it rises, the figures, the boards kept."""

    target: int
    figures: Figures
    found: list[tuple[str, int]] = field(default_factory=list)


# ---- a whole proof: checkpoints, processes, progress -------------------------------------


@dataclass
class ProofState:
    """A proof under way: the spec, the target, the top classes done, what was found."""

    spec: ProofSpec
    target: int
    total: int  # top classes
    done: set[int] = field(default_factory=set)
    found: list[tuple[str, int]] = field(default_factory=list)
    figures: Figures = field(default_factory=Figures)
    wall_seconds: float = 0.0

    @property
    def best(self) -> tuple[str, int] | None:
        return max(self.found, key=lambda f: (f[1], f[0])) if self.found else None

    @property
    def complete(self) -> bool:
        return len(self.done) == self.total

    def record(self, result: ClassResult) -> None:
        self.done.add(result.index)
        self.figures.add(result.figures)
        self.found.extend(result.found)
        if result.found:
            self.target = max(self.target, max(score for _, score in result.found))

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "spec": self.spec.as_dict(),
            "target": self.target,
            "total": self.total,
            "done": _ranges(sorted(self.done)),
            "found": [list(f) for f in self.found],
            "figures": self.figures.as_dict(),
            "wall_seconds": self.wall_seconds,
        }

    def save(self, path: Path) -> None:
        """Write the state to `path` whole or not at all (a stop mid-write keeps the last)."""
        temporary = path.with_name(path.name + ".partial")
        temporary.write_text(json.dumps(self.as_dict()), encoding="utf-8")
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: Path, spec: ProofSpec) -> ProofState:
        """Read a checkpoint of this spec's proof; ProofError names what is wrong with it."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ProofError(f"{path}: no such checkpoint") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProofError(f"{path}: not a readable proof checkpoint ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ProofError(f"{path}: not a proof checkpoint ({CHECKPOINT_FORMAT})")
        if data.get("spec") != spec.as_dict():
            raise ProofError(
                f"{path}: a checkpoint of another proof ({_describe(data.get('spec'))}), "
                f"not of {_describe(spec.as_dict())}"
            )
        try:
            total = int(data["total"])
            done = {i for a, b in data["done"] for i in range(int(a), int(b))}
            found = [(str(rows), int(score)) for rows, score in data["found"]]
            fields = Figures().as_dict()
            figures = Figures(**{k: type(v)(data["figures"][k]) for k, v in fields.items()})
            state = cls(spec, int(data["target"]), total, done, found, figures)
            state.wall_seconds = float(data.get("wall_seconds", 0.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProofError(f"{path}: the checkpoint is damaged ({exc!r})") from None
        if total <= 0 or any(i < 0 or i >= total for i in done):
            raise ProofError(f"{path}: the checkpoint is damaged (class numbers out of range)")
        return state


def _ranges(numbers: list[int]) -> list[list[int]]:
    """Return sorted numbers as [start, stop) runs: a checkpoint of many classes stays small."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n:
            runs[-1][1] = n + 1
        else:
            runs.append([n, n + 1])
    return runs


def _describe(spec: Any) -> str:
    if not isinstance(spec, dict):
        return "unknown"
    return f"{spec.get('rows')}×{spec.get('cols')} {spec.get('dictionary')}"


@dataclass(frozen=True)
class Progress:
    """What a proof has done so far, for a progress bar."""

    done: int
    total: int
    boards_covered: int
    boards_total: int
    target: int
    elapsed: float
    rate: float  # top classes an hour, this run
    left_seconds: float | None


Report = Callable[[Progress], None]

_worker: ClassProver | None = None


def _worker_init(spec: ProofSpec, trie: Trie) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    _worker = ClassProver(spec, trie)


def _worker_prove(task: tuple[int, tuple[int, ...], int]) -> ClassResult:
    assert _worker is not None
    return _worker.prove(*task)


def prove(
    state: ProofState,
    trie: Trie,
    *,
    jobs: int = 1,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
    on_progress: Report | None = None,
    should_stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> ProofState:
    """Prove the classes still open in `state` (in `jobs` processes), saving it to
    `checkpoint` every `checkpoint_every` seconds and at the end; return it."""
    classes = top_classes(state.spec)
    if len(classes) != state.total:
        raise ProofError("the checkpoint's classes do not match this spec's")
    boards_total = sum(class_size(c) for c in classes)
    todo = [i for i in range(state.total) if i not in state.done]
    started = clock()
    base_wall = state.wall_seconds
    done_here = 0
    last_save = started

    def tasks() -> Iterator[tuple[int, tuple[int, ...], int]]:
        for i in todo:
            yield (i, classes[i], state.target)  # the target as it stands when sent

    def after(result: ClassResult) -> bool:
        nonlocal done_here, last_save
        state.record(result)
        done_here += 1
        now = clock()
        state.wall_seconds = base_wall + (now - started)
        if checkpoint is not None and now - last_save >= checkpoint_every:
            state.save(checkpoint)
            last_save = now
        if on_progress is not None:
            elapsed = now - started
            rate = done_here / elapsed * 3600 if elapsed > 0 else 0.0
            left = len(todo) - done_here
            on_progress(
                Progress(
                    len(state.done),
                    state.total,
                    state.figures.boards_covered,
                    boards_total,
                    state.target,
                    state.wall_seconds,
                    rate,
                    left / rate * 3600 if rate > 0 else None,
                )
            )
        return bool(should_stop and should_stop())

    try:
        if jobs <= 1:
            worker = ClassProver(state.spec, trie)
            for task in tasks():
                if after(worker.prove(*task)):
                    break
        else:
            context = multiprocessing.get_context("fork")  # children share the trie's pages
            with context.Pool(jobs, _worker_init, (state.spec, trie)) as pool:
                for result in pool.imap_unordered(_worker_prove, tasks(), chunksize=1):
                    if after(result):
                        pool.terminate()
                        break
    finally:
        if checkpoint is not None:
            state.save(checkpoint)
    return state
