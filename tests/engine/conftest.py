"""Dictionaries and boards shared by the engine's tests (built once per test session)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from solver.engine.batch import BatchScorer
from solver.engine.board import Board
from solver.engine.prover import ProofSpec
from solver.engine.search import Solver
from solver.engine.trie import Trie
from solver.engine.wordlist import parse_word_list, read_word_list

DATA = Path(__file__).resolve().parents[1] / "data"
SHIPPED = Path(__file__).resolve().parents[2] / "solver" / "data" / "dictionaries"


def board_file(name: str) -> Board:
    """Return a board from the test data."""
    path = DATA / "boards" / name
    return Board.from_text(path.read_text(), name)


def exhaustive_best(spec: ProofSpec, trie: Trie) -> tuple[int, list[str]]:
    """Return the best score of every board of a proof's spec and the boards with it, by
    scoring them all (the prover's tests' tiny boards and alphabets only)."""
    scorer = BatchScorer(trie, spec.rules, spec.rows, spec.cols, spec.faces)
    best, boards = -1, list[str]()
    for board in itertools.product(range(len(spec.faces)), repeat=spec.cells):
        score = int(scorer.score(bytes(board))[0])
        if score > best:
            best, boards = score, []
        if score == best:
            boards.append(scorer.board(bytes(board)).to_rows())
    return best, boards


def trie_of(*words: str) -> Trie:
    """Return a trie over a handful of words."""
    return Trie.from_word_list(parse_word_list(" ".join(words)))


@pytest.fixture(scope="session")
def yawl() -> Trie:
    return Trie.from_word_list(read_word_list(SHIPPED / "yawl.txt.gz"))


@pytest.fixture(scope="session")
def algs4() -> Trie:
    return Trie.from_word_list(read_word_list(DATA / "dictionaries" / "dictionary-algs4.txt"))


@pytest.fixture(scope="session")
def yawl_solver(yawl: Trie) -> Solver:
    return Solver(yawl)
