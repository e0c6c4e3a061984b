"""Dice sets: dice, one face list a die, or a letter-frequency table for boards of any size."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from solver.engine import dice as engine_dice
from solver.engine.faces import FaceError, normalise_face
from solver.models.choices import SCORING_CHOICES


def _faces_error(faces: list[Any], where: str) -> str | None:
    """Return why a list of faces is not in engine form, or None if it is."""
    for face in faces:
        try:
            if not isinstance(face, str) or normalise_face(face or "_") != face:
                return f"{where}: {face!r} is not a face (upper-case letters, '' for a blank)"
        except FaceError as exc:
            return f"{where}: {exc}"
    return None


class DiceSet(models.Model):
    """The dice of a board (each die a list of faces), or a letter-frequency table.

    Faces are stored in engine form: ``"A"``, ``"QU"``, ``"IN"``, ``""`` for a blank. A
    frequency set draws each cell independently and can fill a board of any size; ``rows``
    and ``cols`` are then only its usual size.
    """

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    description = models.TextField(blank=True)
    rows = models.PositiveSmallIntegerField(default=4)
    cols = models.PositiveSmallIntegerField(default=4)
    dice = models.JSONField(default=list, blank=True, help_text="Each die: a list of faces.")
    letter_frequencies = models.JSONField(
        default=dict, blank=True, help_text="Face → relative weight, instead of dice."
    )
    min_length = models.PositiveSmallIntegerField(default=3)
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES, default="classic")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rows", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def uses_frequencies(self) -> bool:
        """Return whether boards are drawn letter by letter rather than rolled from dice."""
        return bool(self.letter_frequencies)

    def clean(self) -> None:
        """Check the dice (or the frequency table) against the board size."""
        if self.rows < 1 or self.cols < 1:
            raise ValidationError("A board needs at least one row and one column.")
        if bool(self.dice) == bool(self.letter_frequencies):
            raise ValidationError("Give the dice or a letter-frequency table: one, not both.")
        if self.uses_frequencies:
            self._clean_frequencies()
        else:
            self._clean_dice()

    def _clean_dice(self) -> None:
        dice = self.dice
        if not isinstance(dice, list) or not all(isinstance(d, list) and d for d in dice):
            raise ValidationError({"dice": "Each die must be a non-empty list of faces."})
        for n, die in enumerate(dice, 1):
            if problem := _faces_error(die, f"die {n}"):
                raise ValidationError({"dice": problem})
        if len(dice) != self.rows * self.cols:
            raise ValidationError(
                {"dice": f"{len(dice)} dice cannot fill a {self.rows}×{self.cols} board."}
            )
        sides = sorted({len(die) for die in dice})
        if len(sides) > 1:
            raise ValidationError(
                {"dice": f"Every die needs the same number of faces (found {sides})."}
            )

    def _clean_frequencies(self) -> None:
        table = self.letter_frequencies
        if not isinstance(table, dict):
            raise ValidationError({"letter_frequencies": "Give a table of face → weight."})
        if problem := _faces_error([k for k in table if k], "letter frequencies"):
            raise ValidationError({"letter_frequencies": problem})
        if "" in table or not all(
            isinstance(w, int | float) and not isinstance(w, bool) and w > 0 for w in table.values()
        ):
            raise ValidationError(
                {"letter_frequencies": "Every weight must be a positive number, for a letter."}
            )

    def engine_dice(self) -> engine_dice.DiceSet:
        """Return the engine's form of a dice set (not for a letter-frequency set)."""
        return engine_dice.DiceSet(
            self.slug,
            self.name,
            self.rows,
            self.cols,
            tuple(tuple(die) for die in self.dice),
            self.min_length,
            self.scoring,  # type: ignore[arg-type]
        )
