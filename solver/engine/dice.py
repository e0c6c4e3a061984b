"""Dice sets and random boards, always drawn from an explicit ``random.Random``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from solver.engine.board import Board, decode_faces
from solver.engine.faces import normalise_face
from solver.engine.rules import Scoring


@dataclass(frozen=True, slots=True)
class DiceSet:
    """A set of dice for an m×n board, with the rules it is usually played with."""

    slug: str
    name: str
    rows: int
    cols: int
    dice: tuple[tuple[str, ...], ...]
    min_length: int = 3
    scoring: Scoring = "classic"

    def __post_init__(self) -> None:
        if len(self.dice) != self.rows * self.cols:
            raise ValueError(
                f"{self.name}: {len(self.dice)} dice cannot fill a {self.rows}×{self.cols} board"
            )
        sides = {len(die) for die in self.dice}
        if len(sides) > 1:
            raise ValueError(f"{self.name}: every die needs the same number of faces")

    def roll(self, rng: random.Random) -> Board:
        """Return a board made by shuffling the dice into the grid and rolling each one."""
        order = list(self.dice)
        rng.shuffle(order)
        return Board(self.rows, self.cols, tuple(rng.choice(die) for die in order))


def _dice(text: str) -> tuple[tuple[str, ...], ...]:
    """Parse dice written as runs of faces, e.g. ``AAEEGN HIMNQU [Qu][In][Th][Er][He][An]``."""
    return tuple(tuple(decode_faces(die)) for die in text.split())


# The dice of the published games (facts collected in the project's data notes).
CLASSIC_16 = DiceSet(
    "classic16",
    "Classic 4×4 (1983 dice)",
    4,
    4,
    _dice(
        "AACIOT ABILTY ABJMOQ ACDEMP ACELRS ADENVZ AHMORS BIFORX "
        "DENOSW DKNOTU EEFHIY EGINTV EGKLUY EHINPS ELPSTU GILRUW"
    ),
)
NEW_16 = DiceSet(
    "new16",
    "New 4×4 (1992 Hasbro dice)",
    4,
    4,
    _dice(
        "AAEEGN ABBJOO ACHOPS AFFKPS AOOTTW CIMOTU DEILRX DELRVY "
        "DISTTY EEGHNW EEINSU EHRTVW EIOSST ELRTTY HIMNQU HLNNRZ"
    ),
)
BIG_25 = DiceSet(
    "big25",
    "Big Boggle 5×5",
    5,
    5,
    _dice(
        "AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY BJKQXZ CCNSTW "
        "CEIILT CEILPT CEIPST DDLNOR DHHLOR DHHNOT DHLNOR EIIITT EMOTTT ENSSSU "
        "FIPRSY GORRVW HIPRRY NOOTUW OOOTTU"
    ),
    min_length=4,
)
SUPER_BIG_36 = DiceSet(
    "superbig36",
    "Super Big Boggle 6×6",
    6,
    6,
    _dice(
        "AAAFRS AAEEEE AAEEOO AAFIRS ABDEIO ADENNN AEEEEM AEEGMU AEGMNN AEILMN "
        "AEINOU AFIRSY [Qu][In][Th][Er][He][An] BBJKXZ CCENST CDDLNN CEIITT CEIPST "
        "CFGNUY DDHNOT DHHLOR DHHNOW DHLNOR EHILRS EIILST EILPST EIO___ EMTTTO "
        "ENSSSU GORRVW HIRSTV HOPRST IPRSYY JKQWXZ NOOTUW OOOTTU"
    ),
    min_length=4,
)
DICE_SETS: Mapping[str, DiceSet] = {d.slug: d for d in (CLASSIC_16, NEW_16, BIG_25, SUPER_BIG_36)}

# Relative frequency of letters in English text (per cent), used for boards of any size.
ENGLISH_LETTER_FREQUENCIES: Mapping[str, float] = {
    "E": 12.702, "T": 9.056, "A": 8.167, "O": 7.507, "I": 6.966, "N": 6.749, "S": 6.327,
    "H": 6.094, "R": 5.987, "D": 4.253, "L": 4.025, "C": 2.782, "U": 2.758, "M": 2.406,
    "W": 2.360, "F": 2.228, "G": 2.015, "Y": 1.974, "P": 1.929, "B": 1.492, "V": 0.978,
    "K": 0.772, "J": 0.153, "X": 0.150, "Q": 0.095, "Z": 0.074,
}  # fmt: skip


def random_letter_board(
    rows: int,
    cols: int,
    rng: random.Random,
    frequencies: Mapping[str, float] = ENGLISH_LETTER_FREQUENCIES,
) -> Board:
    """Return a rows×cols board whose faces are drawn independently by letter frequency.

    The draw depends on the seed and the table's contents, never on the table's key order:
    a table read back from PostgreSQL's jsonb comes in another order than it was written.
    """
    table = sorted((normalise_face(face), weight) for face, weight in frequencies.items())
    faces = [face for face, _ in table]
    weights = [weight for _, weight in table]
    if rows < 1 or cols < 1:
        return Board(rows, cols, ())  # raises the board's own size error
    return Board(rows, cols, tuple(rng.choices(faces, weights, k=rows * cols)))
