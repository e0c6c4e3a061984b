"""The prover: its bound never below the best board of a class, and proofs that agree with
scoring every board, straight or resumed, alone or in processes."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from solver.engine import prover
from solver.engine.batch import BatchScorer
from solver.engine.board import Board
from solver.engine.rules import CLASSIC, Rules
from solver.engine.trie import Trie
from tests.engine.conftest import exhaustive_best, trie_of

WORDS = (
    "tea eat ate tae eta tat sat sea set tee see ease east seat teat tease sate seta eats "
    "teas etas asset tasset state taste estate testa settee sestet at as"
)


@pytest.fixture(scope="module")
def trie() -> Trie:
    return trie_of(*WORDS.split())


def spec(
    trie: Trie, rows: int, cols: int, rules: Rules = CLASSIC, buckets: list[str] | None = None
) -> prover.ProofSpec:
    return prover.spec_for(trie, rows, cols, rules, "tiny", buckets=buckets)


def test_the_faces_and_default_buckets_of_a_tiny_list(trie: Trie) -> None:
    s = spec(trie, 2, 2)
    assert s.faces == ("A", "E", "S", "T")
    assert sorted("".join(s.buckets)) == ["A", "E", "S", "T"]


@pytest.mark.parametrize("rules", [CLASSIC, Rules(min_length=2, scoring="linear")])
def test_the_bound_is_never_below_the_best_board_of_a_random_class(
    trie: Trie, rules: Rules
) -> None:
    s = spec(trie, 2, 3, rules)
    cp = prover.ClassProver(s, trie)
    scorer = BatchScorer(trie, rules, 2, 3, s.faces)
    rng = random.Random(7)
    n = len(s.faces)
    for _ in range(60):
        masks = tuple(rng.randrange(1, 1 << n) for _ in range(s.cells))
        options = [[f for f in range(n) if m >> f & 1] for m in masks]
        boards = b"".join(bytes(b) for b in itertools.product(*options))
        best = max(scorer.score(boards)[0::3])
        assert cp.bound(masks) >= best, masks
        # a split's bound of a subclass lies between the subclass's own bound (which knows
        # the cell is settled, so counts a word its paths share once) and the parent's
        cell = rng.randrange(s.cells)
        for face, bound in cp._bounder.bound_split(cp._pack(*masks), cell):
            child = masks[:cell] + (1 << face,) + masks[cell + 1 :]
            assert cp.bound(child) <= bound <= cp.bound(masks)


def test_a_single_board_bound_is_its_score(trie: Trie) -> None:
    s = spec(trie, 2, 3)
    cp = prover.ClassProver(s, trie)
    scorer = BatchScorer(trie, CLASSIC, 2, 3, s.faces)
    for board in (b"\x01\x00\x03\x02\x03\x01", b"\x03\x01\x02\x00\x01\x03"):
        assert cp.bound(tuple(1 << f for f in board)) == scorer.score(board)[0]


@pytest.mark.parametrize("size", [(2, 2), (2, 3)])
def test_a_proof_finds_what_scoring_every_board_finds(trie: Trie, size: tuple[int, int]) -> None:
    s = spec(trie, *size)
    best, boards = exhaustive_best(s, trie)
    state = prover.ProofState(s, 1, len(prover.top_classes(s)))
    prover.prove(state, trie)
    assert state.complete
    assert state.best is not None and state.best[1] == best
    # every best board the proof keeps is one of the exhaustive list's, up to symmetry
    scorer = BatchScorer(trie, CLASSIC, *size, s.faces)
    for rows, score in state.found:
        if score == best:
            encoded = scorer.encode(Board.from_rows(rows))
            assert scorer.score(encoded)[0] == best
    assert any(rows in boards for rows, score in state.found if score == best)


def test_a_resumed_proof_reaches_the_answer_of_one_run_straight(trie: Trie, tmp_path: Path) -> None:
    s = spec(trie, 2, 3)
    total = len(prover.top_classes(s))
    straight = prover.prove(prover.ProofState(s, 1, total), trie)
    path = tmp_path / "proof.json"
    first = prover.ProofState(s, 1, total)
    prover.prove(first, trie, checkpoint=path, should_stop=lambda: len(first.done) >= 5)
    assert not first.complete and len(first.done) == 5
    resumed = prover.ProofState.load(path, s)
    assert resumed.done == first.done
    prover.prove(resumed, trie, checkpoint=path)
    assert resumed.complete
    assert resumed.best is not None and straight.best is not None
    assert resumed.best[1] == straight.best[1]
    assert prover.ProofState.load(path, s).complete


def test_a_proof_in_two_processes_agrees(trie: Trie) -> None:
    s = spec(trie, 2, 3)
    total = len(prover.top_classes(s))
    one = prover.prove(prover.ProofState(s, 1, total), trie)
    two = prover.prove(prover.ProofState(s, 1, total), trie, jobs=2)
    assert two.complete and one.best is not None and two.best is not None
    assert two.best[1] == one.best[1]
    assert two.figures.boards_covered == one.figures.boards_covered


def test_a_target_too_high_finds_no_board(trie: Trie) -> None:
    s = spec(trie, 2, 3)
    best, _ = exhaustive_best(s, trie)
    state = prover.prove(prover.ProofState(s, best + 1, len(prover.top_classes(s))), trie)
    assert state.complete and state.best is None


def test_every_board_is_covered_once_up_to_symmetry(trie: Trie) -> None:
    s = spec(trie, 2, 2)
    classes = prover.top_classes(s)
    # 4 faces on 4 cells under the square's 8 symmetries: Burnside's count of boards
    assert sum(prover.class_size(c) for c in classes) >= 4**4 // 8
    state = prover.prove(prover.ProofState(s, 10**6, len(classes)), trie)
    assert state.figures.boards_covered == sum(prover.class_size(c) for c in classes)


@pytest.mark.parametrize(
    ("rows", "cols", "force", "message"),
    [
        (0, 3, False, "at least one row"),
        (5, 5, True, "at most 16 cells"),
        (4, 4, False, "Give --force"),
    ],
)
def test_sizes_the_prover_refuses(
    trie: Trie, rows: int, cols: int, force: bool, message: str
) -> None:
    with pytest.raises(prover.ProofError, match=message):
        prover.spec_for(trie, rows, cols, CLASSIC, "tiny", force=force)


def test_bad_buckets_are_refused(trie: Trie) -> None:
    with pytest.raises(prover.ProofError, match="two buckets"):
        spec(trie, 2, 2, buckets=["AE", "EST"])
    with pytest.raises(prover.ProofError, match="no bucket: T"):
        spec(trie, 2, 2, buckets=["AE", "S"])
    with pytest.raises(prover.ProofError, match="not a face"):
        spec(trie, 2, 2, buckets=["AEX", "ST"])


@pytest.mark.parametrize(
    "content",
    ["", "{not json", json.dumps({"format": "other"}), "[1, 2]"],
)
def test_a_damaged_checkpoint_is_refused(trie: Trie, tmp_path: Path, content: str) -> None:
    path = tmp_path / "proof.json"
    path.write_text(content)
    with pytest.raises(prover.ProofError, match="checkpoint"):
        prover.ProofState.load(path, spec(trie, 2, 2))
    assert path.read_text() == content


def test_a_checkpoint_with_a_bad_field_or_of_another_proof_is_refused(
    trie: Trie, tmp_path: Path
) -> None:
    s = spec(trie, 2, 2)
    path = tmp_path / "proof.json"
    prover.ProofState(s, 1, len(prover.top_classes(s))).save(path)
    data = json.loads(path.read_text())
    data["done"] = [[0, 10**6]]
    path.write_text(json.dumps(data))
    with pytest.raises(prover.ProofError, match="damaged"):
        prover.ProofState.load(path, s)
    with pytest.raises(prover.ProofError, match="another proof"):
        prover.ProofState.load(path, spec(trie, 2, 3))


def test_a_classes_tree_gives_the_bounders_bounds_and_its_forced_trees_the_subclasses(
    trie: Trie,
) -> None:
    """The Tree is the Bounder's walk written down: the same bound, the same split, and a
    forced tree bounds the subclass exactly as the Bounder does, however deep."""
    s = spec(trie, 2, 3, Rules(min_length=2, scoring="linear"))
    cp = prover.ClassProver(s, trie)
    bounder = cp._bounder
    rng = random.Random(11)
    n = len(s.faces)
    for _ in range(40):
        masks = tuple(rng.randrange(1, 1 << n) for _ in range(s.cells))
        tree = bounder.tree(cp._pack(*masks))
        assert tree.bound() == cp.bound(masks)
        while any(m & (m - 1) for m in masks):
            cell = rng.choice([i for i, m in enumerate(masks) if m & (m - 1)])
            split = tree.bound_split(cell)
            assert split == bounder.bound_split(cp._pack(*masks), cell)
            face, _ = rng.choice(split)
            masks = masks[:cell] + (1 << face,) + masks[cell + 1 :]
            smaller = tree.force(cell, face)
            assert len(smaller) <= len(tree)
            tree = smaller
            assert tree.bound() == cp.bound(masks)


def test_a_tree_refuses_a_cell_or_face_outside_its_class(trie: Trie) -> None:
    s = spec(trie, 2, 2)
    cp = prover.ClassProver(s, trie)
    tree = cp._bounder.tree(cp._pack(0b0011, 0b1111, 0b1111, 0b1111))
    with pytest.raises(ValueError, match="cell 4 is outside the board's 4"):
        tree.bound_split(4)
    with pytest.raises(ValueError, match="cell 0 may not show face 2 in this class"):
        tree.force(0, 2)
    with pytest.raises(ValueError, match="a class is 4 masks of 8 bytes"):
        cp._bounder.tree(b"\x01" * 8)


def test_a_class_too_large_for_a_tree_is_split_by_walking_the_trie(
    trie: Trie, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class whose tree would pass the node limit gets no tree (None); the prover then
    splits it with the Bounder's walks until its subclasses' trees fit, to the same answer."""
    s = spec(trie, 2, 3)
    cp = prover.ClassProver(s, trie)
    everything = (1 << len(s.faces)) - 1
    assert cp._bounder.tree(cp._pack(*[everything] * s.cells), 5) is None
    best, _ = exhaustive_best(s, trie)
    monkeypatch.setattr(prover, "TREE_NODES_MAX", 40)
    state = prover.ProofState(s, 1, len(prover.top_classes(s)))
    prover.prove(state, trie)
    assert state.complete and state.best is not None and state.best[1] == best
