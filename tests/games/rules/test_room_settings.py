"""Room settings: presets, custom values and their limits."""

from __future__ import annotations

import pytest

from games.rules.room_settings import (
    MAX_MIN_WORDS,
    PRESETS,
    SettingsError,
    settings_from,
    stored_settings,
)
from solver.engine.standing import BANDS


def test_presets() -> None:
    classic = settings_from({"preset": "classic"})
    assert (classic.dice, classic.min_length, classic.duration, classic.scoring) == (
        "new16",
        3,
        180,
        "classic",
    )
    assert settings_from({"preset": "big"}).min_length == 4
    superbig = settings_from({"preset": "superbig"})
    assert (superbig.dice, superbig.rows, superbig.min_length) == ("superbig36", 6, 4)
    assert settings_from({"preset": "rook"}).adjacency == "rook"


def test_a_preset_keeps_its_rules_but_takes_dictionary_duration_and_duplicates() -> None:
    s = settings_from(
        {
            "preset": "classic",
            "min_length": 9,
            "duration": 60,
            "duplicates": "count",
            "dictionary": "enable2k",
        }
    )
    assert (s.min_length, s.duration, s.duplicates, s.dictionary) == (3, 60, "count", "enable2k")


def test_custom_settings() -> None:
    s = settings_from(
        {
            "preset": "custom",
            "dice": "english-letters",
            "rows": 10,
            "cols": 7,
            "min_length": 5,
            "duration": 0,
            "scoring": "linear",
            "adjacency": "rook",
            "duplicates": "count",
        }
    )
    assert (s.rows, s.cols, s.timed, s.rules.adjacency, s.rules.scoring) == (
        10,
        7,
        False,
        "rook",
        "linear",
    )
    assert stored_settings(s.as_dict()) == s


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"preset": "giant"},
        {"preset": "custom", "rows": 11},
        {"preset": "custom", "cols": 0},
        {"preset": "custom", "duration": 29},
        {"preset": "custom", "duration": 1801},
        {"preset": "custom", "duration": "long"},
        {"preset": "custom", "min_length": True},
        {"preset": "custom", "scoring": "double"},
        {"preset": "custom", "adjacency": "queen"},
        {"preset": "classic", "duplicates": "sometimes"},
        {"preset": "custom", "dictionary": "../../etc/passwd"},
        {"preset": "classic", "band": "huge"},
        {"preset": "custom", "band": 3},
        {"preset": "classic", "min_words": -1},
        {"preset": "classic", "min_words": MAX_MIN_WORDS + 1},
        {"preset": "custom", "min_words": "many"},
    ],
)
def test_bad_settings_are_refused(data: object) -> None:
    with pytest.raises(SettingsError):
        settings_from(data)


def test_presets_are_listed() -> None:
    assert set(PRESETS) == {"classic", "big", "superbig", "rook"}


def test_every_board_will_do_unless_a_band_or_a_word_count_is_chosen() -> None:
    assert settings_from({"preset": "classic"}).any_board
    assert settings_from({"preset": "custom"}).any_board


@pytest.mark.parametrize("preset", [*PRESETS, "custom"])
def test_every_game_takes_a_band_and_a_least_word_count(preset: str) -> None:
    for band in BANDS:
        chosen = settings_from({"preset": preset, "band": band})
        assert (chosen.band, chosen.min_words, chosen.any_board) == (band, 0, False)
    words = settings_from({"preset": preset, "min_words": 40})
    assert (words.band, words.min_words, words.any_board) == ("", 40, False)


def test_a_bad_band_is_refused_naming_the_bands() -> None:
    with pytest.raises(SettingsError) as info:
        settings_from({"preset": "classic", "band": "huge"})
    assert all(band in str(info.value) for band in BANDS)


def test_settings_stored_before_the_richness_existed_read_as_any_board() -> None:
    old = {k: v for k, v in PRESETS["big"].as_dict().items() if k not in ("band", "min_words")}
    assert stored_settings(old) == PRESETS["big"]
    assert stored_settings(old).any_board
