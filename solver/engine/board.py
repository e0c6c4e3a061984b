"""Boards: an m×n grid of faces, its text forms and its neighbour tables."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from solver.engine.faces import BLANK, FaceError, display_face, normalise_face
from solver.engine.rules import Adjacency

MAX_CELLS = 4096
_SHARE_CODE = re.compile(r"^(\d+)x(\d+)-(.+)$")
_KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_ROOK_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


class BoardError(ValueError):
    """A board that cannot be read; the message names the problem and where it is."""


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable grid of faces, stored row by row."""

    rows: int
    cols: int
    faces: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise BoardError(
                f"a board needs at least 1 row and 1 column, not {self.rows}×{self.cols}"
            )
        if self.rows * self.cols > MAX_CELLS:
            raise BoardError(f"a board has at most {MAX_CELLS} cells, not {self.rows * self.cols}")
        if len(self.faces) != self.rows * self.cols:
            raise BoardError(
                f"a {self.rows}×{self.cols} board needs {self.rows * self.cols} faces, "
                f"not {len(self.faces)}"
            )

    # Construction -------------------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[str]]) -> Board:
        """Return the board for a 2-D list of face tokens (``"Q"`` and ``"Qu"`` are Qu)."""
        if not grid or not grid[0]:
            raise BoardError("a board needs at least one row and one column")
        width = len(grid[0])
        faces: list[str] = []
        for r, row in enumerate(grid, start=1):
            if len(row) != width:
                raise BoardError(f"row {r} has {len(row)} faces, expected {width}")
            faces.extend(_face(token, f"row {r}") for token in row)
        return cls(len(grid), width, tuple(faces))

    @classmethod
    def from_text(cls, text: str, source: str = "board") -> Board:
        """Return the board in the seed-000 file format: ``m n`` then m×n faces."""
        tokens = [(tok, n) for n, line in enumerate(text.splitlines(), 1) for tok in line.split()]
        if len(tokens) < 2:
            raise BoardError(f"{source}: expected the row and column counts 'm n' first")
        sizes = []
        for tok, line in tokens[:2]:
            if not re.fullmatch(r"[+-]?\d+", tok):
                raise BoardError(f"{source}:{line}: size {tok!r} is not a whole number")
            if int(tok) < 1:
                raise BoardError(f"{source}:{line}: size {tok} must be at least 1")
            sizes.append(int(tok))
        rows, cols = sizes
        if rows * cols > MAX_CELLS:
            raise BoardError(f"{source}: a board has at most {MAX_CELLS} cells, not {rows * cols}")
        body = tokens[2:]
        if len(body) != rows * cols:
            raise BoardError(
                f"{source}: a {rows}×{cols} board needs {rows * cols} faces, found {len(body)}"
            )
        faces = tuple(_face(tok, f"{source}:{line}") for tok, line in body)
        return cls(rows, cols, faces)

    @classmethod
    def from_rows(cls, text: str) -> Board:
        """Return the board written as rows, e.g. ``ATEE/APYO/TINU/EDSE`` or ``QuIT/[In]_AB``."""
        rows = [row for row in re.split(r"[/\s]+", text.strip()) if row]
        if not rows:
            raise BoardError("the board is empty: write rows like ATEE/APYO/TINU/EDSE")
        return cls.from_grid([decode_faces(row, f"row {r}") for r, row in enumerate(rows, 1)])

    @classmethod
    def from_share_code(cls, code: str) -> Board:
        """Return the board for a share code made by :meth:`share_code`."""
        match = _SHARE_CODE.match(code.strip())
        if not match:
            raise BoardError(f"{code!r} is not a board code like 4x4-ATEEAPYOTINUEDSE")
        rows, cols = int(match[1]), int(match[2])
        faces = tuple(decode_faces(match[3], "code"))
        return cls(rows, cols, faces)

    @classmethod
    def parse(cls, text: str, source: str = "board") -> Board:
        """Return the board in any text form: file format, share code or rows."""
        stripped = text.strip()
        if _SHARE_CODE.match(stripped):
            return cls.from_share_code(stripped)
        if stripped[:1].isdigit() or stripped[:1] in "+-":
            return cls.from_text(text, source)
        return cls.from_rows(text)

    # Views ----------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Return the number of cells."""
        return self.rows * self.cols

    def face(self, row: int, col: int) -> str:
        """Return the face at a row and column (0-based)."""
        return self.faces[row * self.cols + col]

    def grid(self) -> list[list[str]]:
        """Return the faces as a list of rows."""
        return [list(self.faces[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]

    def to_text(self) -> str:
        """Return the board in the seed-000 file format."""
        lines = [f"{self.rows} {self.cols}"]
        for row in self.grid():
            lines.append(" ".join(f"{display_face(f):<2}" for f in row).rstrip())
        return "\n".join(lines) + "\n"

    def to_rows(self) -> str:
        """Return the rows form, e.g. ``ATEE/APYO/TINU/EDSE``."""
        return "/".join(encode_faces(row) for row in self.grid())

    def share_code(self) -> str:
        """Return a compact code that :meth:`from_share_code` turns back into this board."""
        return f"{self.rows}x{self.cols}-{encode_faces(self.faces)}"

    def neighbours(self, adjacency: Adjacency = "king") -> tuple[tuple[int, ...], ...]:
        """Return, for each cell, the cells adjacent to it."""
        return neighbour_table(self.rows, self.cols, adjacency)

    def __str__(self) -> str:
        return self.to_text()


@cache
def neighbour_table(rows: int, cols: int, adjacency: Adjacency) -> tuple[tuple[int, ...], ...]:
    """Return the neighbour lists of every cell of a rows×cols grid."""
    steps = _KING_STEPS if adjacency == "king" else _ROOK_STEPS
    return tuple(
        tuple(
            (r + dr) * cols + (c + dc)
            for dr, dc in steps
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        for r in range(rows)
        for c in range(cols)
    )


def are_adjacent(a: int, b: int, cols: int, adjacency: Adjacency) -> bool:
    """Return whether two distinct cells of a board with this many columns touch."""
    dr, dc = abs(a // cols - b // cols), abs(a % cols - b % cols)
    if adjacency == "king":
        return max(dr, dc) == 1
    return dr + dc == 1


def _face(token: str, where: str) -> str:
    try:
        return normalise_face(token)
    except FaceError as exc:
        raise BoardError(f"{where}: {exc}") from None


def decode_faces(text: str, where: str = "board") -> list[str]:
    """Split a run of faces: ``Qu``/``In`` (capital + small letters) or ``[In]`` is one face.

    A run written all in small letters is read letter by letter; ``Q`` is always Qu and
    ``_`` a blank.
    """
    if not any(ch.isupper() for ch in text):
        text = text.upper()
    faces: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            end = text.find("]", i)
            if end < 0:
                raise BoardError(f"{where}: '[' at position {i + 1} is never closed")
            token, i = text[i + 1 : end], end + 1
        elif ch.isupper():
            j = i + 1
            while j < len(text) and text[j].islower():
                j += 1
            token, i = text[i:j], j
        else:
            token, i = ch, i + 1
        faces.append(_face(token, where))
    return faces


def encode_faces(faces: Iterable[str]) -> str:
    """Join faces so that :func:`decode_faces` splits them back the same way."""
    out = []
    for face in faces:
        if face == BLANK:
            out.append("_")
        elif face == "QU":
            out.append("Q")
        elif len(face) == 1:
            out.append(face)
        elif (
            face[0].isupper()
            and face[1:].lower() != face[1:]
            and face[1:].lower().upper() == face[1:]
        ):
            out.append(display_face(face))
        else:
            out.append(f"[{face}]")
    return "".join(out)
