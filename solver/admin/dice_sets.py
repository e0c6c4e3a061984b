"""The dice-set admin: dice written one die a line, or a letter-frequency table, and a preview."""

from __future__ import annotations

import random
import secrets
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from solver.dictionaries import selectors
from solver.engine.board import BoardError, decode_faces
from solver.engine.faces import display_face
from solver.models import DiceSet

DICE_HELP = (
    "One die a line, its faces in a row: AAEEGN. Write a multi-letter face in brackets, "
    "[Qu][In][Th], and a blank face as _. Q alone means Qu."
)
FREQUENCIES_HELP = (
    "Instead of dice: one face and its relative weight a line, e.g. E 12.7. Boards of any "
    "size are then drawn cell by cell."
)
BAD_FREQUENCY_LINE = "Line {n}: write a face and a positive number, e.g. E 12.7."


def _written(face: str) -> str:
    """Return a face as it is written in a die's line: A, _, or [Qu] for several letters."""
    return f"[{display_face(face)}]" if len(face) > 1 else display_face(face)


class DiceSetForm(forms.ModelForm):
    """A dice set with its dice and frequencies edited as text rather than JSON."""

    dice = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 40}), required=False, help_text=DICE_HELP
    )
    letter_frequencies = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40}),
        required=False,
        help_text=FREQUENCIES_HELP,
    )

    class Meta:
        model = DiceSet
        fields = [
            "name",
            "slug",
            "description",
            "rows",
            "cols",
            "dice",
            "letter_frequencies",
            "min_length",
            "scoring",
            "is_active",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}
        labels = {"cols": "Columns", "min_length": "Minimum word length"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            dice_set = self.instance
            self.initial["dice"] = "\n".join(
                "".join(_written(face) for face in die) for die in dice_set.dice or []
            )
            self.initial["letter_frequencies"] = "\n".join(
                f"{display_face(face)} {weight:g}"
                for face, weight in (dice_set.letter_frequencies or {}).items()
            )

    def _post_clean(self) -> None:
        # Unreadable dice or weights are already reported: checking the whole set would only
        # add a confusing second message.
        if not {"dice", "letter_frequencies"} & set(self.errors):
            super()._post_clean()  # type: ignore[misc]

    def clean_dice(self) -> list[list[str]]:
        """Return the dice as lists of faces in engine form."""
        dice = []
        for n, line in enumerate(self.cleaned_data["dice"].splitlines(), 1):
            if line.strip():
                try:
                    dice.append(decode_faces(line.strip(), f"die {n}"))
                except BoardError as exc:
                    raise forms.ValidationError(str(exc)) from None
        return dice

    def clean_letter_frequencies(self) -> dict[str, float]:
        """Return the frequency table as face → weight."""
        table: dict[str, float] = {}
        for n, line in enumerate(self.cleaned_data["letter_frequencies"].splitlines(), 1):
            if not line.strip():
                continue
            parts = line.split()
            try:
                face, weight = decode_faces(parts[0]), float(parts[1])
            except (BoardError, ValueError, IndexError):
                raise forms.ValidationError(BAD_FREQUENCY_LINE.format(n=n)) from None
            if len(parts) != 2 or len(face) != 1 or not face[0] or not weight > 0:
                raise forms.ValidationError(BAD_FREQUENCY_LINE.format(n=n))
            table[face[0]] = weight
        return table


@admin.register(DiceSet)
class DiceSetAdmin(admin.ModelAdmin):
    form = DiceSetForm
    list_display = ["name", "slug", "kind", "size", "min_length", "scoring", "is_active"]
    list_filter = ["is_active", "scoring"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}

    class Media:
        css = {"all": ["solver/admin.css"]}

    @admin.display(description="kind")
    def kind(self, dice_set: DiceSet) -> str:
        """Return whether the set rolls dice or draws letters."""
        if dice_set.uses_frequencies:
            return "letter frequencies"
        return f"{len(dice_set.dice)} dice"

    @admin.display(description="board")
    def size(self, dice_set: DiceSet) -> str:
        """Return the board size the set fills (its usual size for a frequency set)."""
        return f"{dice_set.rows}×{dice_set.cols}"

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Show the change form with a board rolled from the saved set (?seed=N repeats one)."""
        context = dict(extra_context or {})
        dice_set = self.get_object(request, object_id)
        if dice_set is not None and request.method == "GET":
            try:
                seed = int(request.GET.get("seed", ""))
            except ValueError:
                seed = secrets.randbits(32)
            try:
                board = selectors.dice_set_roll(dice_set, random.Random(seed))
            except ValueError as exc:  # a set stored without the admin's checks
                context["roll_error"] = str(exc)
                return super().change_view(request, object_id, form_url, context)
            context["roll"] = {
                "seed": seed,
                "next_seed": secrets.randbits(32),
                "grid": [[display_face(f) for f in row] for row in board.grid()],
                "share_code": board.share_code(),
            }
        return super().change_view(request, object_id, form_url, context)
