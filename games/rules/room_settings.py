"""Room settings: the presets and the validation of custom settings (no database access)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.engine.standing import BANDS

MIN_DURATION, MAX_DURATION = 30, 30 * 60
UNTIMED = 0
MAX_SIDE = 10
DUPLICATE_RULES = ("cancel", "count")
ANY_BAND = ""  # any board at all: no draw is refused
BAND_NAMES = (ANY_BAND, *BANDS)
MAX_MIN_WORDS = 5000  # more than any 10×10 board of the shipped lists holds
MAX_HINT_COST = 10  # points one hint may cost (0: hints are free)


class SettingsError(ValueError):
    """Settings a host asked for that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class RoomSettings:
    """Everything that decides how a round is drawn, timed and scored."""

    preset: str = "classic"
    dictionary: str = ""  # a Dictionary slug; empty means the site's default
    dice: str = "new16"  # a DiceSet slug (dice, or a letter-frequency table)
    rows: int = 4  # used by letter-frequency sets; dice sets bring their own size
    cols: int = 4
    min_length: int = 3
    duration: int = 180  # seconds; 0 means untimed, ended by the host
    scoring: str = "classic"
    adjacency: str = "king"
    duplicates: str = "cancel"
    band: str = ANY_BAND  # how rich the board is: a band of total points (solver BANDS)
    min_words: int = 0  # and/or at least this many words on it (0: no minimum)
    hints: bool = False  # players may ask for counts of the words left (games.rounds.hints)
    hint_cost: int = 1  # points each hint taken costs, taken off the round's score
    # Whether players may chat while a round runs; off by default, so no one passes words.
    chat_in_rounds: bool = False

    @property
    def rules(self) -> Rules:
        """Return the engine rules these settings play by."""
        return Rules(self.min_length, self.adjacency, self.scoring)  # type: ignore[arg-type]

    @property
    def timed(self) -> bool:
        """Return whether rounds end by the clock (else the host ends them)."""
        return self.duration != UNTIMED

    @property
    def any_board(self) -> bool:
        """Return whether every board will do (no band and no minimum of words)."""
        return self.band == ANY_BAND and not self.min_words

    def as_dict(self) -> dict[str, Any]:
        """Return the settings as stored and sent to clients (every field is a plain value,
        so a shallow copy: `dataclasses.asdict` deep-copies, a millisecond a call where each
        daily start asks twice)."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(f.name for f in fields(RoomSettings))
DEFAULTS = RoomSettings()  # what a custom room gets for every field the host leaves out
PRESETS: dict[str, RoomSettings] = {
    "classic": DEFAULTS,
    "big": RoomSettings(preset="big", dice="big25", rows=5, cols=5, min_length=4),
    "superbig": RoomSettings(preset="superbig", dice="superbig36", rows=6, cols=6, min_length=4),
    "rook": RoomSettings(preset="rook", dice="big25", rows=5, cols=5, adjacency="rook"),
}
PRESET_NAMES = {
    "classic": "Classic 4×4",
    "big": "Big Boggle 5×5",
    "superbig": "Super Big Boggle 6×6",
    "rook": "Rook variant 5×5",
    "custom": "Custom",
}


def _int(data: dict[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{key} must be a whole number")
    if not low <= value <= high:
        raise SettingsError(f"{key} must be between {low} and {high}")
    return value


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise SettingsError(f"{key} must be true or false")
    return value


def _choice(data: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise SettingsError(f"{key} must be one of {', '.join(choices)}")
    return str(value)


def _slug(data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if (
        not isinstance(value, str)
        or len(value) > 50
        or not all(c.isalnum() or c in "-_" for c in value)
    ):
        raise SettingsError(f"{key} must be the short name of a {key}")
    return value


def settings_from(data: object) -> RoomSettings:
    """Return validated settings from what a host sent: a preset name, or custom fields."""
    if not isinstance(data, dict):
        raise SettingsError("settings must be an object")
    preset = data.get("preset", "classic")
    if preset in PRESETS:
        base = PRESETS[preset]
        # A preset fixes the board and the rules; the host may still pick the rest.
        return replace(
            base,
            dictionary=_slug(data, "dictionary", base.dictionary),
            duration=_duration(data, base.duration),
            duplicates=_choice(data, "duplicates", DUPLICATE_RULES, base.duplicates),
            band=_band(data, base.band),
            min_words=_int(data, "min_words", 0, MAX_MIN_WORDS, base.min_words),
            hints=_bool(data, "hints", base.hints),
            hint_cost=_int(data, "hint_cost", 0, MAX_HINT_COST, base.hint_cost),
            chat_in_rounds=_bool(data, "chat_in_rounds", base.chat_in_rounds),
        )
    if preset != "custom":
        raise SettingsError(f"preset must be one of {', '.join([*PRESETS, 'custom'])}")
    return RoomSettings(
        preset="custom",
        dictionary=_slug(data, "dictionary", DEFAULTS.dictionary),
        dice=_slug(data, "dice", DEFAULTS.dice),
        rows=_int(data, "rows", 1, MAX_SIDE, DEFAULTS.rows),
        cols=_int(data, "cols", 1, MAX_SIDE, DEFAULTS.cols),
        min_length=_int(data, "min_length", 1, 10, DEFAULTS.min_length),
        duration=_duration(data, DEFAULTS.duration),
        scoring=_choice(data, "scoring", SCORINGS, DEFAULTS.scoring),
        adjacency=_choice(data, "adjacency", ADJACENCIES, DEFAULTS.adjacency),
        duplicates=_choice(data, "duplicates", DUPLICATE_RULES, DEFAULTS.duplicates),
        band=_band(data, DEFAULTS.band),
        min_words=_int(data, "min_words", 0, MAX_MIN_WORDS, DEFAULTS.min_words),
        hints=_bool(data, "hints", DEFAULTS.hints),
        hint_cost=_int(data, "hint_cost", 0, MAX_HINT_COST, DEFAULTS.hint_cost),
        chat_in_rounds=_bool(data, "chat_in_rounds", DEFAULTS.chat_in_rounds),
    )


def _band(data: dict[str, Any], default: str) -> str:
    value = data.get("band", default)
    if value not in BAND_NAMES:
        raise SettingsError(f"band must be one of {', '.join(BANDS)}, or empty for any board")
    return str(value)


def _duration(data: dict[str, Any], default: int) -> int:
    if data.get("duration", default) == UNTIMED:
        return UNTIMED
    return _int(data, "duration", MIN_DURATION, MAX_DURATION, default)


def stored_settings(data: dict[str, Any]) -> RoomSettings:
    """Return the settings saved on a room or round (already validated when saved; rooms
    saved before a field existed get its default)."""
    known = {k: v for k, v in data.items() if k in RoomSettings.__dataclass_fields__}
    return RoomSettings(**known)
