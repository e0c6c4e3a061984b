"""Faces: what one cell of a board shows.

A face is a string of upper-case letters (``"A"``, ``"QU"``, ``"IN"``) or the empty
string for a blank that no word may use. ``Q`` always means the ``Qu`` face.
"""

from __future__ import annotations

BLANK = ""
BLANK_TOKENS = frozenset({"_"})
MAX_FACE_LETTERS = 7


class FaceError(ValueError):
    """A token that cannot be a face."""


def normalise_face(token: str) -> str:
    """Return the canonical face for a token as written by a person or a file."""
    if token in BLANK_TOKENS or token == BLANK:
        return BLANK
    face = token.upper()
    if not face.isalpha():
        raise FaceError(f"unknown face {token!r}: faces are letters, or _ for a blank")
    if len(face) > MAX_FACE_LETTERS:
        raise FaceError(f"face {token!r} is longer than {MAX_FACE_LETTERS} letters")
    return "QU" if face == "Q" else face


def display_face(face: str) -> str:
    """Return a face as printed on a die: ``Qu``, ``In``, ``A``, or ``_`` for a blank."""
    if face == BLANK:
        return "_"
    return face[0] + face[1:].lower()
