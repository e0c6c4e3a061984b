"""The terminal game of seed 003: the player guesses, then the computer takes the rest; after
that, `define WORD` prints what a word means (seed 003's own messages are unchanged)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TextIO

from solver.engine.board import Board, BoardError, decode_faces
from solver.engine.definitions import Definition, define
from solver.engine.search import Solver

END_OF_TURN = "???"
DEFINE = "define"
NO_DEFINITION = "{word}: no definition found."
DEFINE_USAGE = "Type define and a word, e.g. define {example}."
NOT_LETTERS = "{word} is not a word: use letters only."


def read_board(lines: Iterator[str]) -> Board:
    """Return the board given as N, then N rows of N letters (blank lines are ignored)."""
    rows = (line.strip() for line in lines)
    first = next((row for row in rows if row), None)
    if first is None:
        raise BoardError("expected the board size N on the first line, found nothing")
    if not first.isdigit() or int(first) < 1:
        raise BoardError(
            f"line 1: the board size must be a whole number of at least 1, not {first!r}"
        )
    size = int(first)
    grid = []
    for number in range(1, size + 1):
        row = next((row for row in rows if row), None)
        if row is None:
            raise BoardError(f"expected {size} rows of the board, found {number - 1}")
        faces = decode_faces("".join(row.split()), f"row {number}")  # "E E I R D" is fine too
        if len(faces) != size:
            raise BoardError(f"row {number} ({row}) has {len(faces)} letters, expected {size}")
        grid.append(faces)
    return Board.from_grid(grid)


class TerminalGame:
    """One game: the player's turn reading guesses line by line, then the computer's turn."""

    def __init__(
        self,
        board: Board,
        solver: Solver,
        out: TextIO,
        definer: Callable[[str], Definition | None] = define,
    ) -> None:
        self.board = board
        self.solver = solver
        self.out = out
        self.definer = definer
        self.found: list[str] = []
        self.score = 0

    def play(self, lines: Iterator[str]) -> None:
        """Run the player's turn until '???' or the end of input, then the computer's, then
        answer `define WORD` lines until the end of input."""
        while True:
            self.show_state()
            line = next(lines, None)
            if line is None or line.strip() == END_OF_TURN:
                break
            guess = line.strip()
            if guess:
                self.guess(guess)
        self.computer_turn()
        for line in lines:
            if line.strip():
                self.define(line.strip())

    def show_state(self) -> None:
        """Print the board in upper case, the player's score and words in the order found."""
        for row in self.board.to_rows().split("/"):
            self.write(row.upper())
        self.write(f"Your Score: {self.score}")
        self.write(" ".join(["Your Words:", *(w.lower() for w in self.found)]))

    def guess(self, guess: str) -> None:
        """Check one guess in the seed's order and print why it fails, if it does."""
        word, shown = guess.upper(), guess.lower()
        rules = self.solver.rules
        if len(word) < rules.min_length:
            self.write(f"{shown} is too short.")
        elif word not in self.solver.trie:
            self.write(f"{shown} is not a word.")
        elif self.solver.path_of(self.board, word) is None:
            self.write(f"{shown} is not on board.")
        elif word in self.found:
            self.write(f"{shown} is already found.")
        else:
            self.found.append(word)
            self.score += rules.score(word)

    def computer_turn(self) -> None:
        """Print the computer's score and every remaining word, upper case and sorted."""
        taken = set(self.found)
        words = [w for w in self.solver.solve(self.board).words if w not in taken]
        self.write(f"Computer Score: {sum(self.solver.rules.score(w) for w in words)}")
        self.write(" ".join(["Computer Words:", *words]))

    def define(self, command: str) -> None:
        """Answer one line after the computer's turn: `define WORD` prints the base form the
        word is defined under, the source and the senses; anything else, how to ask."""
        name, _, word = command.partition(" ")
        word = word.strip()
        if name.lower() != DEFINE or not word:
            example = self.found[0] if self.found else "quashed"
            self.write(DEFINE_USAGE.format(example=example.lower()))
        elif not word.isalpha():
            self.write(NOT_LETTERS.format(word=word))
        elif (definition := self.definer(word)) is None:
            self.write(NO_DEFINITION.format(word=word.upper()))
        else:
            for line in definition.lines():
                self.write(line)

    def write(self, line: str) -> None:
        self.out.write(line + "\n")
