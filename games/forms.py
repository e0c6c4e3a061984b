"""Forms for creating and joining rooms over HTTP (the game itself runs on the websocket),
and the choices the settings fields offer on the home page and in the room."""

from __future__ import annotations

from typing import Any

from django import forms

from games.room_settings import (
    MAX_DURATION,
    MAX_SIDE,
    MIN_DURATION,
    PRESET_NAMES,
    PRESETS,
    UNTIMED,
)
from games.services.rooms import CODE_LENGTH
from games.services.seats import NICKNAME_MAX
from solver import selectors as solver_selectors

DURATIONS = [30, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800]
SCORING_CHOICES = [
    ("classic", "Classic: 1, 1, 2, 3, 5, 11 points"),
    ("linear", "Linear: letters − 3"),
]
ADJACENCY_CHOICES = [("king", "8 neighbours (diagonals too)"), ("rook", "4 neighbours only")]
DUPLICATE_CHOICES = [("cancel", "Shared words cancel"), ("count", "Every word counts")]


def duration_label(seconds: int) -> str:
    """Return a round length as players read it: '30 s', '3 min', '1½ min', 'untimed'."""
    if seconds == UNTIMED:
        return "Untimed (the host ends it)"
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min" if not rest else f"{minutes} min {rest} s"


def dictionary_choices() -> list[tuple[str, str]]:
    """Return the dictionaries a host may pick, the site default first (as '')."""
    try:
        default = f"Default ({solver_selectors.dictionary_default().name})"
    except solver_selectors.NoDefaultDictionary:
        default = "Default"
    return [("", default)] + [(d.slug, d.name) for d in solver_selectors.dictionary_active_list()]


def dice_label(name: str, rows: int, cols: int, any_size: bool) -> str:
    """Return a dice set as the list shows it: its name, with the board size it makes unless
    the name says it already ("Classic 4×4 (1983 dice)") or letter sets, which fit any size."""
    size = f"{rows}×{cols}"
    if any_size or size in name or size.replace("×", "x") in name.lower():
        return name
    return f"{name} ({size})"


def dice_choices() -> list[dict[str, Any]]:
    """Return the dice sets a host may pick: slug, label, size, and whether any size fits."""
    return [
        {
            "slug": d.slug,
            "name": dice_label(d.name, d.rows, d.cols, d.uses_frequencies),
            "rows": d.rows,
            "cols": d.cols,
            "letters": d.uses_frequencies,
        }
        for d in solver_selectors.dice_set_active_list()
    ]


def settings_choices() -> dict[str, Any]:
    """Return every choice the settings fields offer (rendered by _settings_fields.html)."""
    return {
        "presets": list(PRESET_NAMES.items()),
        "dictionaries": dictionary_choices(),
        "dice": dice_choices(),
        "durations": [(s, duration_label(s)) for s in [*DURATIONS, UNTIMED]],
        "scorings": SCORING_CHOICES,
        "adjacencies": ADJACENCY_CHOICES,
        "duplicates": DUPLICATE_CHOICES,
        "max_side": MAX_SIDE,
    }


class CreateRoomForm(forms.Form):
    """A nickname and the settings for a new room (the services validate the settings)."""

    nickname = forms.CharField(max_length=NICKNAME_MAX)
    preset = forms.ChoiceField(choices=list(PRESET_NAMES.items()), initial="classic")
    dictionary = forms.CharField(required=False, max_length=50)
    dice = forms.CharField(required=False, max_length=50)
    rows = forms.IntegerField(required=False, min_value=1, max_value=MAX_SIDE)
    cols = forms.IntegerField(required=False, min_value=1, max_value=MAX_SIDE)
    min_length = forms.IntegerField(required=False, min_value=1, max_value=10)
    duration = forms.IntegerField(required=False, min_value=UNTIMED, max_value=MAX_DURATION)
    scoring = forms.ChoiceField(required=False, choices=SCORING_CHOICES)
    adjacency = forms.ChoiceField(required=False, choices=ADJACENCY_CHOICES)
    duplicates = forms.ChoiceField(required=False, choices=DUPLICATE_CHOICES)

    def clean_duration(self) -> int | None:
        value: int | None = self.cleaned_data.get("duration")
        if value is not None and value != UNTIMED and value < MIN_DURATION:
            raise forms.ValidationError(
                f"A round lasts {MIN_DURATION} s to {MAX_DURATION // 60} min, or is untimed."
            )
        return value

    def room_settings(self) -> dict[str, object]:
        """Return the settings as the room services take them (blank fields left out)."""
        return {
            k: v for k, v in self.cleaned_data.items() if k != "nickname" and v not in (None, "")
        }

    def values(self) -> dict[str, Any]:
        """Return the values to show in the fields: what was posted, else the defaults."""
        shown: dict[str, Any] = PRESETS["classic"].as_dict()
        if self.is_bound:
            shown.update({k: v for k, v in self.data.items() if k in shown and v != ""})
        return shown


class JoinRoomForm(forms.Form):
    """A room code (when not in the link) and a nickname."""

    code = forms.CharField(max_length=CODE_LENGTH + 6, required=False)
    nickname = forms.CharField(max_length=NICKNAME_MAX)

    def clean_code(self) -> str:
        return "".join(self.cleaned_data.get("code", "").split()).upper()
