"""BatchScorer: the compiled batch path and the pure-Python path give the same numbers."""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import search
from solver.engine.batch import FIELDS, BatchScorer
from solver.engine.board import Board
from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules
from solver.engine.trie import Trie
from tests.engine.conftest import trie_of

needs_kernel = pytest.mark.skipif(not search.KERNEL_AVAILABLE, reason="needs the compiled kernel")

LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1) if chr(c) != "Q"]
FACES = [*LETTERS, "QU", "IN", "TH", "ER", "HE", "AN", ""]


def expected(trie: Trie, rules: Rules, board: Board, long_length: int) -> tuple[int, int, int]:
    """Score, words and long words by the reference solver, written out independently."""
    words = search.Solver(trie, rules, use_kernel=False).solve_reference(board).words
    points = sum(rules.score(w) for w in words)
    return points, len(words), sum(len(w) >= long_length for w in words) if long_length else 0


def random_batch(scorer: BatchScorer, count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(len(scorer.faces)) for _ in range(count * scorer.cells))


def both(scorer_args: dict, boards: bytes) -> array[int]:
    """Score with the kernel and the pure-Python path, check they agree, return the answer."""
    compiled = BatchScorer(**scorer_args)
    pure = BatchScorer(**scorer_args, use_kernel=False)
    assert compiled.uses_kernel and not pure.uses_kernel
    answer = compiled.score(boards)
    assert answer.typecode == "q" and len(answer) == FIELDS * len(boards) // compiled.cells
    assert list(answer) == list(pure.score(boards))
    return answer


@needs_kernel
@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(min_length=4, scoring="linear"), Rules(adjacency="rook"), Rules(min_length=1)],
    ids=["classic", "seed-003", "rook", "min-1"],
)
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 5), (2, 7), (1, 1)])
def test_kernel_and_pure_python_agree(yawl: Trie, rules: Rules, rows: int, cols: int) -> None:
    args = {"trie": yawl, "rules": rules, "rows": rows, "cols": cols, "faces": FACES}
    for long_length in (0, 6):
        scorer = BatchScorer(**args, long_length=long_length)
        boards = random_batch(scorer, 40, seed=rows * 100 + cols + long_length)
        answer = both({**args, "long_length": long_length}, boards)
        for i in (0, 17, 39):
            board = scorer.board(boards[i * scorer.cells : (i + 1) * scorer.cells])
            assert tuple(answer[3 * i : 3 * i + 3]) == expected(yawl, rules, board, long_length)


@needs_kernel
def test_boards_of_more_than_64_cells_agree(yawl: Trie) -> None:
    args = {"trie": yawl, "rules": Rules(), "rows": 9, "cols": 9, "faces": FACES, "long_length": 7}
    scorer = BatchScorer(**args)
    both(args, random_batch(scorer, 6, seed=81))


@needs_kernel
@pytest.mark.parametrize("dice", sorted(DICE_SETS))
def test_rolled_boards_score_as_the_solver_does(yawl: Trie, dice: str) -> None:
    dice_set = DICE_SETS[dice]
    rules = Rules(min_length=dice_set.min_length)
    rng = random.Random(f"batch-{dice}")
    boards = [dice_set.roll(rng) for _ in range(50)]
    faces = sorted({f for b in boards for f in b.faces})
    args = {"trie": yawl, "rules": rules, "rows": boards[0].rows, "cols": boards[0].cols}
    scorer = BatchScorer(**args, faces=faces, long_length=8)
    answer = both({**args, "faces": faces, "long_length": 8}, b"".join(map(scorer.encode, boards)))
    solver = search.Solver(yawl, rules)
    for i, board in enumerate(boards):
        solution = solver.solve(board)
        long_words = sum(len(w) >= 8 for w in solution.words)
        assert tuple(answer[3 * i : 3 * i + 3]) == (solution.score, len(solution), long_words)


@needs_kernel
def test_a_known_board_and_repeated_words_count_once() -> None:
    trie = trie_of("cat", "cats", "act", "tact", "scat", "at")
    rules = Rules(min_length=3)
    scorer = BatchScorer(trie, rules, 2, 2, ["C", "A", "T", "S"], long_length=4)
    # CA/TS holds ACT, CAT, CATS, SCAT (AT is too short); TACT needs two Ts.
    # TT/AC holds ACT, CAT and TACT once each, though CAT and ACT have two paths each.
    boards = bytes([0, 1, 2, 3, 2, 2, 1, 0])
    assert list(scorer.score(boards)) == [4, 4, 2, 3, 3, 1]
    pure = BatchScorer(trie, rules, 2, 2, ["C", "A", "T", "S"], long_length=4, use_kernel=False)
    assert list(pure.score(boards)) == [4, 4, 2, 3, 3, 1]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 6),
    cols=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    min_length=st.integers(1, 5),
    adjacency=st.sampled_from(["king", "rook"]),
    scoring=st.sampled_from(["classic", "linear"]),
    long_length=st.sampled_from([0, 3, 5, 7]),
)
@needs_kernel
def test_agree_on_random_batches_and_rules(
    yawl: Trie,
    rows: int,
    cols: int,
    seed: int,
    min_length: int,
    adjacency: str,
    scoring: str,
    long_length: int,
) -> None:
    rules = Rules(min_length=min_length, adjacency=adjacency, scoring=scoring)  # type: ignore[arg-type]
    args = {"trie": yawl, "rules": rules, "rows": rows, "cols": cols, "faces": FACES,
            "long_length": long_length}  # fmt: skip
    both(args, random_batch(BatchScorer(**args), 5, seed))


def test_an_empty_batch_gives_an_empty_answer(yawl: Trie) -> None:
    for use_kernel in (True, False):
        assert list(BatchScorer(yawl, Rules(), 4, 4, FACES, use_kernel=use_kernel).score(b"")) == []


@pytest.mark.parametrize("use_kernel", [True, False])
def test_bad_batches_are_refused(yawl: Trie, use_kernel: bool) -> None:
    scorer = BatchScorer(yawl, Rules(), 2, 2, ["A", "B"], use_kernel=use_kernel)
    with pytest.raises(ValueError, match="whole boards of 4 bytes"):
        scorer.score(bytes(5))
    with pytest.raises(ValueError, match="face"):
        scorer.score(bytes([0, 1, 0, 2]))


@needs_kernel
def test_the_kernel_writes_only_into_aligned_int64_arrays(yawl: Trie) -> None:
    """Doubles, bytes or a misaligned view would be written through int64 pointers."""
    scorer = BatchScorer(yawl, Rules(), 2, 2, ["A", "T"])._scorer
    assert scorer is not None
    board = bytes([0, 1, 0, 1])
    for out in (
        array("d", [0.0] * FIELDS),
        bytearray(8 * FIELDS),
        memoryview(bytearray(8 * FIELDS + 1))[1:].cast("q"),
    ):
        with pytest.raises(ValueError, match="aligned array of int64"):
            scorer.score(board, out)
    with pytest.raises(BufferError):
        scorer.score(board, bytes(8 * FIELDS))
    out = array("q", [0] * FIELDS)
    scorer.score(board, out)
    assert list(out) == list(BatchScorer(yawl, Rules(), 2, 2, ["A", "T"]).score(board))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": 0}, "at least one row"),
        ({"rows": 65, "cols": 64}, "at most 4096 cells"),
        ({"faces": []}, "between 1 and 256 faces"),
        ({"faces": ["A"] * 257}, "between 1 and 256 faces"),
        ({"faces": ["Q"]}, "canonical form"),
        ({"faces": ["a"]}, "canonical form"),
        ({"faces": ["A1"]}, "unknown face"),
        ({"long_length": -1}, "long_length"),
    ],
)
def test_bad_scorers_are_refused(yawl: Trie, kwargs: dict, message: str) -> None:
    args = {"trie": yawl, "rules": Rules(), "rows": 4, "cols": 4, "faces": ["A"], **kwargs}
    with pytest.raises(ValueError, match=message):
        BatchScorer(**args)


def test_without_the_kernel_the_pure_path_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solver.engine.batch.KERNEL_AVAILABLE", False)
    scorer = BatchScorer(trie_of("cat", "act"), Rules(), 2, 2, ["C", "A", "X", "T"])
    assert not scorer.uses_kernel
    assert list(scorer.score(bytes([0, 1, 2, 3]))) == [2, 2, 0]
