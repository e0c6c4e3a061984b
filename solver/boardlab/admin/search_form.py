"""The admin's form for starting a board search: what to search, for how long, with which seed."""

from __future__ import annotations

import os
import re
import secrets
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator

from solver.boardlab.runs import RunKind
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.models import BoardObjective, DiceSet, Dictionary

MAX_SIDE = 10
MAX_SECONDS = 3600
MAX_SEED = 2**63 - 1
MAX_TARGET = 1_000_000
MAX_LONG_LENGTH = 25
SIZE = re.compile(r"^\s*(-?\d+)\s*[x×*]\s*(-?\d+)\s*$", re.IGNORECASE)

SPACE_BOTH = "Choose a dice set or give a size for free faces: one, not both."
SPACE_NONE = "Choose a dice set, or give a size (e.g. 5x5) to search free faces."
SIZE_FORM = "Write the size as rows×columns, e.g. 5x5."
SIZE_RANGE = "A board has 1 to {most} rows and columns, not {rows}×{cols}."
UNKNOWN_DICE = (
    "Unknown dice set: choose one from the list (a set that draws letters by frequency has "
    "no dice: search free faces of a size instead)."
)
UNKNOWN_DICTIONARY = "Unknown dictionary: choose an active one from the list."
TARGET_MISSING = "An exact-score search needs a target score."
LONG_MISSING = "A most-long-words search needs the least number of letters of a long word."
LONG_TOO_SHORT = (
    "A long word needs more letters than the minimum word length ({min_length}); "
    "for every word, search for the most words."
)


def cores() -> int:
    """Return how many processes a search may use: the machine's cores."""
    return os.cpu_count() or 1


class BoardSearchForm(forms.Form):
    """A search's kind of board, objective, time, seed, processes and rules."""

    dictionary = forms.ModelChoiceField(
        Dictionary.objects.filter(is_active=True),
        error_messages={"invalid_choice": UNKNOWN_DICTIONARY},
    )
    dice_set = forms.ModelChoiceField(
        DiceSet.objects.filter(is_active=True),
        required=False,
        label="Dice set",
        help_text="Boards the dice can roll; or leave it empty and give a size.",
        error_messages={"invalid_choice": UNKNOWN_DICE},
    )
    size = forms.CharField(
        required=False,
        max_length=20,
        help_text="For free faces (any letter in any cell): rows×columns, e.g. 5x5.",
    )
    objective = forms.ChoiceField(choices=BoardObjective.choices)
    target = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_TARGET, help_text="For an exact score."
    )
    long_length = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_LONG_LENGTH,
        label="Long word length",
        help_text="For most long words: the least letters a long word has.",
    )
    seconds = forms.IntegerField(min_value=1, max_value=MAX_SECONDS, initial=60)
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text="The same seed and settings repeat a search; empty: a random one.",
    )
    jobs = forms.IntegerField(min_value=1, initial=1, label="Processes")
    min_length = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_LONG_LENGTH,
        label="Minimum word length",
        help_text="Empty: the dice set's (3 on free faces).",
    )
    adjacency = forms.ChoiceField(choices=[(a, a) for a in ADJACENCIES], initial="king")
    scoring = forms.ChoiceField(
        choices=[("", "the dice set's (classic on free faces)"), *((s, s) for s in SCORINGS)],
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        jobs = self.fields["jobs"]
        jobs.validators.append(MaxValueValidator(cores()))
        jobs.widget.attrs["max"] = cores()
        jobs.help_text = f"Up to {cores()}, the cores of this machine."
        dice_sets = self.fields["dice_set"]
        assert isinstance(dice_sets, forms.ModelChoiceField)
        with_dice = [d.pk for d in DiceSet.objects.filter(is_active=True) if not d.uses_frequencies]
        dice_sets.queryset = DiceSet.objects.filter(pk__in=with_dice)
        if not self.is_bound:
            self.initial.setdefault("seed", secrets.randbits(32))
            default = Dictionary.objects.filter(is_default=True).first()
            if default is not None:
                self.initial.setdefault("dictionary", default.pk)

    def clean_size(self) -> tuple[int, int] | None:
        """Return the free board's (rows, cols), or None when no size was given."""
        text = self.cleaned_data.get("size", "").strip()
        if not text:
            return None
        match = SIZE.match(text)
        if not match:
            raise forms.ValidationError(SIZE_FORM)
        rows, cols = int(match[1]), int(match[2])
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise forms.ValidationError(SIZE_RANGE.format(most=MAX_SIDE, rows=rows, cols=cols))
        return rows, cols

    def clean(self) -> dict[str, Any]:
        """Check that the space is given once and that the objective has its parameter."""
        data = super().clean() or {}
        if {"dice_set", "size"} & set(self.errors):
            return data
        dice_set, size = data.get("dice_set"), data.get("size")
        if dice_set is not None and size is not None:
            raise forms.ValidationError(SPACE_BOTH)
        if dice_set is None and size is None:
            raise forms.ValidationError(SPACE_NONE)
        objective = data.get("objective")
        if objective == BoardObjective.TARGET and data.get("target") is None:
            self.add_error("target", TARGET_MISSING)
        if objective == BoardObjective.MOST_LONG_WORDS:
            long_length, min_length = data.get("long_length"), self.rules().min_length
            if long_length is None:
                self.add_error("long_length", LONG_MISSING)
            elif long_length <= min_length:
                self.add_error("long_length", LONG_TOO_SHORT.format(min_length=min_length))
        return data

    # What the valid form asks for ---------------------------------------------------------

    def rules(self) -> Rules:
        """Return the rules: those given, else the dice set's, else classic."""
        data, dice_set = self.cleaned_data, self.cleaned_data.get("dice_set")
        return Rules(
            min_length=data.get("min_length") or (dice_set.min_length if dice_set else 3),
            adjacency=data.get("adjacency") or "king",
            scoring=data.get("scoring") or (dice_set.scoring if dice_set else "classic"),
        )

    def run_fields(self) -> dict[str, Any]:
        """Return the keyword arguments of board_search_run_start (all but started_by)."""
        data = self.cleaned_data
        dice_set = data["dice_set"]
        rows, cols = (dice_set.rows, dice_set.cols) if dice_set else data["size"]
        parameter = {
            BoardObjective.TARGET: data.get("target"),
            BoardObjective.MOST_LONG_WORDS: data.get("long_length"),
        }.get(data["objective"])
        seed = data.get("seed")
        return {
            "dictionary": data["dictionary"],
            "kind": RunKind(dice_set, rows, cols, self.rules()),
            "objective": data["objective"],
            "parameter": parameter or 0,
            "seconds": data["seconds"],
            "seed": seed if seed is not None else secrets.randbits(32),
            "jobs": data["jobs"],
        }
