"""Board richness: a room's band or least word count, from its settings to its rounds' boards,
refused when the settings are saved if no board of that kind can meet it."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.bots import services as bots
from games.models import Room, RoomEvent, Round, Submission
from games.rooms import services as rooms
from games.rounds import services as rounds
from games.rules import clock
from games.rules.room_settings import SettingsError
from games.seats.services import JoinError
from solver.boardlab import boards
from solver.boardlab.boards import board_standing
from solver.dictionaries import selectors as solver_selectors
from solver.engine.rules import Rules
from solver.engine.standing import BANDS, Standing
from solver.models import DiceSet, Dictionary
from tests.fixed_dice import FIXED_DICE_SLUG, FIXED_ROOM
from tests.games.conftest import make_room, new_identity

SEED = 20261123  # its first new16 roll is a middling board (asserted below, not assumed)
CLASSIC = Rules(3, "king", "classic")


@pytest.fixture(autouse=True)
def fixed_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings checks weigh a band against how fast boards solve: 1 ms a board here, whatever
    the machine, so that a draw may expect 200 boards (1 board in 200 will do)."""
    monkeypatch.setattr(boards, "board_seconds", lambda **kind: 0.001)


def standing(dictionary: Dictionary, dice: str = "new16") -> Standing:
    dice_set = DiceSet.objects.get(slug=dice)
    return board_standing(dictionary=dictionary, dice_set=dice_set, rows=4, cols=4, rules=CLASSIC)


def start(settings: dict[str, object], seed: int = SEED, solo: bool = False) -> Round:
    room, host = rooms.room_create(
        identity=new_identity(), nickname="Ann", settings=settings, solo=solo
    )
    return rounds.round_start(room=room, player=host, now=clock.now(), seed=seed)


@pytest.mark.parametrize("band", list(BANDS))
def test_a_band_in_the_settings_draws_every_round_in_that_band(
    game_data: Dictionary, band: str
) -> None:
    low, high = standing(game_data).band_range(band)
    for seed in (SEED, SEED + 1):
        rnd = start({"preset": "classic", "band": band}, seed=seed)
        assert low <= rnd.max_score <= high, (band, rnd.board, rnd.max_score)
        assert rnd.settings["band"] == band


def test_the_band_is_what_changes_the_board(game_data: Dictionary) -> None:
    """The same seed draws its first roll when any board will do; a band it misses makes
    the server roll on, and the round is seeded: the same seed gives the same board."""
    first_roll = solver_selectors.dice_set_roll(
        DiceSet.objects.get(slug="new16"), random.Random(SEED)
    )
    any_board = start({"preset": "classic"})
    assert any_board.board == first_roll.share_code()
    monster_low, _ = standing(game_data).band_range("monster")
    assert any_board.max_score < monster_low  # the seed's first roll is no monster
    monster = start({"preset": "classic", "band": "monster"})
    assert monster.board != any_board.board and monster.max_score >= monster_low
    assert start({"preset": "classic", "band": "monster"}).board == monster.board


def test_a_least_word_count_draws_boards_with_at_least_that_many_words(
    game_data: Dictionary,
) -> None:
    wanted = standing(game_data).words_at(90)
    rnd = start({"preset": "classic", "min_words": wanted})
    assert len(rnd.solution) >= wanted
    assert rnd.settings["min_words"] == wanted


def test_a_least_word_count_no_board_reaches_is_refused_when_the_room_is_made(
    game_data: Dictionary,
) -> None:
    with pytest.raises(JoinError) as info:
        make_room({**FIXED_ROOM, "min_words": 7})  # the fixed dice always spell 6 words
    assert "7 words is too many" in str(info.value)
    assert str(info.value).startswith("Those settings cannot be used: ")
    assert not Room.objects.exists()
    make_room({**FIXED_ROOM, "min_words": 6})  # exactly what every board holds: fine


def test_a_band_no_board_meets_is_refused_when_saved_and_nothing_changes(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room({"preset": "classic", "band": "rich"})
    before = RoomEvent.objects.filter(room=room).count()
    with pytest.raises(SettingsError) as info:
        rooms.room_settings_update(
            room=room, player=host, settings={"preset": "classic", "min_words": 5000}
        )
    assert "5,000 words is too many" in str(info.value)
    room.refresh_from_db()
    assert room.settings["band"] == "rich" and room.settings["min_words"] == 0
    assert RoomEvent.objects.filter(room=room).count() == before


def test_a_solo_game_draws_in_its_band(game_data: Dictionary) -> None:
    low, high = standing(game_data).band_range("monster")
    rnd = start({"preset": "classic", "band": "monster"}, solo=True)
    assert rnd.room.is_solo and low <= rnd.max_score <= high


def test_computer_players_play_the_banded_board(game_data: Dictionary) -> None:
    low, _ = standing(game_data).band_range("rich")
    room, host, _ = make_room({"preset": "classic", "band": "rich"})
    bot = bots.bot_add(room=room, by=host, level="hard")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    assert rnd.max_score >= low
    bots.bots_play(now=rnd.starts_at + timedelta(seconds=170))
    played = set(Submission.objects.filter(round=rnd, player=bot).values_list("word", flat=True))
    assert played and played <= {word for word, _, _ in rnd.solution}


def test_rooms_saved_before_the_richness_existed_still_start_rounds(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    old = {k: v for k, v in room.settings.items() if k not in ("band", "min_words")}
    Room.objects.filter(pk=room.pk).update(settings=old)
    room.refresh_from_db()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    assert rnd.settings["band"] == "" and rnd.settings["min_words"] == 0
    assert rnd.settings["dice"] == FIXED_DICE_SLUG


def test_a_word_count_a_round_start_would_often_miss_is_refused_when_the_room_is_made(
    game_data: Dictionary,
) -> None:
    """1 board in 200 has the 99.5th percentile's word count: the most a room may ask for at
    1 ms a board (its draw, 2 s, expects 200 boards ten times over); one word more is refused
    with what to choose instead, and nothing is made."""
    limit = standing(game_data).words_at(99.5)
    with pytest.raises(JoinError) as info:
        make_room({"preset": "classic", "min_words": limit + 1})
    assert f"at most {limit:,} words with these dice and this dictionary; choose fewer" in str(
        info.value
    )
    assert not Room.objects.exists()
    room, host, _ = make_room({"preset": "classic", "min_words": limit})
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    assert len(rnd.solution) >= limit
