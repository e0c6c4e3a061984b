"""Boards a host gives for the next round: read and checked against the room's settings.

The rooms service keeps the board (Room.next_board) until the next round starts, which uses
it once. It is a secret like any other board until then: the room only learns that one was
given (``board_given`` in the settings event).
"""

from __future__ import annotations

from games.protocol import MAX_BOARD_TEXT
from games.rules.room_settings import RoomSettings
from solver.boardlab.boards import board_feasible
from solver.engine.board import Board, BoardError
from solver.engine.faces import BLANK, display_face, normalise_face
from solver.models import DiceSet


class BoardRefused(ValueError):
    """A given board these settings cannot play; the message says why."""


def _faces_list(faces: set[str]) -> str:
    return ", ".join("a blank" if f == BLANK else display_face(f) for f in sorted(faces))


def board_given_check(*, text: str, settings: RoomSettings) -> Board:
    """Return the board written in `text` (rows or a share code) if a round with these
    settings can be played on it; else raise BoardRefused saying why."""
    text = text.strip()
    if not text:
        raise BoardRefused("the board is empty: write rows like PERS/LATG/SINE/TERS or a code")
    if len(text) > MAX_BOARD_TEXT:
        raise BoardRefused(f"the board is longer than {MAX_BOARD_TEXT} characters")
    try:
        board = Board.parse(text)
    except BoardError as exc:
        raise BoardRefused(f"the board cannot be read: {exc}") from None
    if (board.rows, board.cols) != (settings.rows, settings.cols):
        raise BoardRefused(
            f"the board is {board.rows}×{board.cols}, "
            f"but these settings play on {settings.rows}×{settings.cols}"
        )
    dice = DiceSet.objects.filter(slug=settings.dice).first()
    if dice is None:
        raise BoardRefused(f"there is no dice set '{settings.dice}'")
    if dice.uses_frequencies:
        shown = {normalise_face(face) for face in dice.letter_frequencies}
        unknown = set(board.faces) - shown
        if unknown:
            raise BoardRefused(f"{dice.name} never draws {_faces_list(unknown)}")
        return board
    shown = {face for die in dice.engine_dice().dice for face in die}
    unknown = set(board.faces) - shown
    if unknown:
        raise BoardRefused(
            f"{_faces_list(unknown)} {'is' if len(unknown) == 1 else 'are'} on none of the "
            f"{dice.name} dice"
        )
    verdict = board_feasible(board=board, dice_set=dice)
    if not verdict.ok:
        raise BoardRefused(f"the dice cannot roll this board: {verdict.reason}")
    return board


def board_given_still_fits(code: str, settings: RoomSettings) -> bool:
    """Return whether a kept board (a share code) can still be played with these settings."""
    try:
        board_given_check(text=code, settings=settings)
    except BoardRefused:
        return False
    return True
