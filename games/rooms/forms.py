"""Forms for creating and joining rooms over HTTP (the game itself runs on the websocket),
and the choices the settings fields offer on the home page and in the room."""

from __future__ import annotations

from typing import Any

from django import forms

from games.rooms.services import CODE_LENGTH
from games.rounds.given_boards import MAX_BOARD_TEXT
from games.rules.room_settings import (
    ANY_BAND,
    MAX_DURATION,
    MAX_HINT_COST,
    MAX_MIN_WORDS,
    MAX_SIDE,
    MIN_DURATION,
    PRESET_NAMES,
    PRESETS,
    UNTIMED,
)
from games.seats.services import NICKNAME_MAX
from solver.dictionaries import selectors as solver_selectors
from solver.engine.standing import BANDS

DURATIONS = [30, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800]
SCORING_CHOICES = [
    ("classic", "Classic: 1, 1, 2, 3, 5, 11 points"),
    ("linear", "Linear: letters − 3"),
]
ADJACENCY_CHOICES = [("king", "8 neighbours (diagonals too)"), ("rook", "4 neighbours only")]
DUPLICATE_CHOICES = [("cancel", "Shared words cancel"), ("count", "Every word counts")]
# The richness select: any board, a named band, or at least some words (MIN_WORDS_CHOICE).
MIN_WORDS_CHOICE = "words"
MIN_WORDS_SHOWN = 50  # what the words field offers before the host types a number


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


def band_reach(low: float, high: float) -> str:
    """Return a band's percentile range as players read it: 'the top 5%', 'the lowest 35%',
    'the top 30% but not the top 5%'."""
    if low <= 0:
        return f"the lowest {high:g}%"
    if high >= 100:
        return f"the top {100 - low:g}%"
    return f"the top {100 - low:g}% but not the top {100 - high:g}%"


def richness_choices() -> list[dict[str, str]]:
    """Return the board richness a host may pick, each with a one-line explanation."""
    kind = "for these dice and this dictionary"
    return [
        {"value": ANY_BAND, "label": "Any board", "explain": "Any board the dice roll."},
        *(
            {
                "value": name,
                "label": name.capitalize(),
                "explain": f"{name.capitalize()}: boards in {band_reach(low, high)} "
                f"by total points {kind}.",
            }
            for name, (low, high) in BANDS.items()
        ),
        {
            "value": MIN_WORDS_CHOICE,
            "label": "Minimum words…",
            "explain": "Boards with at least this many words on them.",
        },
    ]


def richness_of(values: dict[str, Any]) -> str:
    """Return which richness choice settings show: their band, else words, else any."""
    if values.get("band"):
        return str(values["band"])
    return MIN_WORDS_CHOICE if values.get("min_words") else ANY_BAND


def settings_shown(settings: dict[str, Any]) -> dict[str, Any]:
    """Return stored settings as the fields show them (with the richness choice)."""
    return {
        **settings,
        "richness": richness_of(settings),
        "min_words": settings.get("min_words") or MIN_WORDS_SHOWN,
    }


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
        "richness": richness_choices(),
        "max_side": MAX_SIDE,
        "max_min_words": MAX_MIN_WORDS,
        "max_hint_cost": MAX_HINT_COST,
        "max_board": MAX_BOARD_TEXT,
    }


# The fields that make a game Custom when a link to the home page names them.
CUSTOM_FIELDS = {"dice", "rows", "cols", "min_length", "scoring", "adjacency"}


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
    richness = forms.ChoiceField(
        required=False,
        choices=[(ANY_BAND, "Any board"), *((b, b) for b in BANDS), (MIN_WORDS_CHOICE, "")],
    )
    min_words = forms.IntegerField(required=False, min_value=1, max_value=MAX_MIN_WORDS)
    board = forms.CharField(required=False, max_length=MAX_BOARD_TEXT, strip=True)
    hints = forms.BooleanField(required=False)
    hint_cost = forms.IntegerField(required=False, min_value=0, max_value=MAX_HINT_COST)
    chat_in_rounds = forms.BooleanField(required=False)

    def clean_duration(self) -> int | None:
        value: int | None = self.cleaned_data.get("duration")
        if value is not None and value != UNTIMED and value < MIN_DURATION:
            raise forms.ValidationError(
                f"A round lasts {MIN_DURATION} s to {MAX_DURATION // 60} min, or is untimed."
            )
        return value

    def room_settings(self) -> dict[str, object]:
        """Return the settings as the room services take them (blank fields left out; the
        richness becomes a band or a minimum number of words)."""
        data = self.cleaned_data
        settings = {
            k: v
            for k, v in data.items()
            if k not in ("nickname", "richness", "min_words", "board") and v not in (None, "")
        }
        richness = data.get("richness") or ANY_BAND
        if richness == MIN_WORDS_CHOICE:
            settings["min_words"] = data.get("min_words") or MIN_WORDS_SHOWN
        elif richness != ANY_BAND:
            settings["band"] = richness
        return settings

    def values(self, prefill: dict[str, str] | None = None) -> dict[str, Any]:
        """Return the values to show in the fields: what was posted, else what the link
        asked for (`prefill`, from the query string), else the defaults."""
        shown: dict[str, Any] = {**PRESETS["classic"].as_dict(), "board": ""}
        given = self.data if self.is_bound else prefill or {}
        shown.update({k: v for k, v in given.items() if k in shown and v != ""})
        if not self.is_bound and set(given) & CUSTOM_FIELDS:
            shown["preset"] = "custom"  # a link that names the dice or rules opens a custom game
        if self.is_bound:
            words = shown["min_words"] or MIN_WORDS_SHOWN
            return {**shown, "richness": given.get("richness", ""), "min_words": words}
        return settings_shown(shown)


class JoinRoomForm(forms.Form):
    """A room code (when not in the link) and a nickname."""

    code = forms.CharField(max_length=CODE_LENGTH + 6, required=False)
    nickname = forms.CharField(max_length=NICKNAME_MAX)

    def clean_code(self) -> str:
        return "".join(self.cleaned_data.get("code", "").split()).upper()


def form_error(form: CreateRoomForm | JoinRoomForm) -> str:
    """Return the first problem with a posted form, in words a player understands."""
    for name, errors in form.errors.items():
        label = name.replace("_", " ")
        if not str(form.data.get(name, "")).strip():
            return "Choose a nickname." if name == "nickname" else f"Fill in the {label}."
        return f"{label.capitalize()}: {errors[0]}"
    return ""
