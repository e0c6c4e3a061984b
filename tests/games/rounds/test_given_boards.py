"""A board the host gives: refused for each reason with nothing changed, or kept server-side
and played by the next round only."""

from __future__ import annotations

import threading
from random import Random

import pytest
from django.db import connection

from games import protocol
from games.models import Room, RoomEvent, Round
from games.protocol import ProtocolError
from games.rooms import services as rooms
from games.rooms.selectors import room_snapshot
from games.rounds import services as rounds
from games.rounds.given_boards import BoardRefused, board_given_check
from games.rules import clock
from games.rules.room_settings import RoomSettings, settings_from
from games.seats.services import JoinError
from solver.dictionaries import selectors as solver_selectors
from solver.models import DiceSet, Dictionary
from tests.fixed_dice import FIXED_DICE_SLUG, FIXED_ROOM
from tests.games.conftest import make_room, new_identity, reschedule, seat

CLASSIC = settings_from({"preset": "classic"})
LETTERS_4X4 = settings_from({"preset": "custom", "dice": "english-letters", "rows": 4, "cols": 4})


@pytest.mark.parametrize(
    ("text", "chosen", "reason"),
    [
        ("", CLASSIC, "the board is empty"),
        ("PERS/LATG/SIN", CLASSIC, "the board cannot be read: row 3 has 3 faces, expected 4"),
        ("4x4-PERS", CLASSIC, "the board cannot be read: a 4×4 board needs 16 faces, not 4"),
        ("PE[RS/LATG", CLASSIC, "the board cannot be read: row 1: '[' at position 3"),
        ("PE1S/LATG/SINE/TERS", CLASSIC, "the board cannot be read"),
        ("PERSL/ATGSI/NETER/SPERS/LATGS", CLASSIC, "the board is 5×5, but these settings "),
        ("PER/LAT/SIN", LETTERS_4X4, "the board is 3×3, but these settings play on 4×4"),
        ("PERS/LATG/SINE/TER[Th]", CLASSIC, "Th is on none of the New 4×4 (1992 Hasbro dice) dice"),
        ("PERS/LATG/SINE/TER_", CLASSIC, "a blank is on none of the"),
        (
            "PERS/LATG/SINE/TER[Th]",
            LETTERS_4X4,
            "English letter frequencies (any size) never draws Th",
        ),
        ("EEEE/EEEE/EEEE/EEEE", CLASSIC, "the dice cannot roll this board: "),
    ],
)
def test_a_board_is_refused_saying_why(
    game_data: Dictionary, text: str, chosen: RoomSettings, reason: str
) -> None:
    with pytest.raises(BoardRefused) as info:
        board_given_check(text=text, settings=chosen)
    assert reason in str(info.value)


def test_a_board_the_dice_cannot_roll_names_the_dice_it_lacks(game_data: Dictionary) -> None:
    with pytest.raises(BoardRefused) as info:
        board_given_check(text="EEEE/EEEE/EEEE/EEEE", settings=CLASSIC)
    assert "E" in str(info.value).split("the dice cannot roll this board: ")[1]


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("PERS/LATG/SINE/TERS", CLASSIC),  # the best 4×4 ENABLE2K board: new16 can roll it
        ("4x4-PERSLATGSINETERS", CLASSIC),
        ("pers latg sine ters", CLASSIC),
        ("QERS/LATG/SINE/TERS", LETTERS_4X4),  # Q is Qu, a face of the letter table too
    ],
)
def test_a_board_the_settings_can_play_is_read_in_any_form(
    game_data: Dictionary, text: str, chosen: RoomSettings
) -> None:
    board = board_given_check(text=text, settings=chosen)
    assert (board.rows, board.cols) == (4, 4)


def test_a_given_board_is_played_by_the_next_round_then_boards_are_drawn_again(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    assert rooms.room_board_give(room=room, player=host, text="ts/ie") is True
    room.refresh_from_db()
    assert room.next_board == "2x2-TSIE"
    first = rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    assert (first.board, first.given) == ("2x2-TSIE", True)
    room.refresh_from_db()
    assert room.next_board == ""
    reschedule(first, starts_in=-10, ends_in=-5)
    rounds.rounds_end_due(now=clock.now())
    second = rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    assert not second.given
    rolled = solver_selectors.dice_set_roll(DiceSet.objects.get(slug=FIXED_DICE_SLUG), Random(1))
    assert second.board == rolled.share_code()  # drawn from its seed again
    assert Round.objects.filter(room=room, given=True).count() == 1


def test_a_refused_board_changes_nothing(game_data: Dictionary) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    rooms.room_board_give(room=room, player=host, text="TS/IE")
    events = RoomEvent.objects.filter(room=room).count()
    for bad in ("SS/IE", "TSI/E", "TS/IE/TS", "T$/IE"):
        with pytest.raises(BoardRefused):
            rooms.room_board_give(room=room, player=host, text=bad)
    room.refresh_from_db()
    assert room.next_board == "2x2-TSIE"
    assert RoomEvent.objects.filter(room=room).count() == events


def test_only_the_host_gives_a_board_and_never_during_a_round(game_data: Dictionary) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    bob, _ = seat(room, "Bob")
    with pytest.raises(ProtocolError) as info:
        rooms.room_board_give(room=room, player=bob, text="TS/IE")
    assert info.value.code == protocol.NOT_HOST
    rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    with pytest.raises(ProtocolError) as info:
        rooms.room_board_give(room=room, player=host, text="TS/IE")
    assert info.value.code == protocol.ROUND_RUNNING


def test_an_empty_board_forgets_the_given_one(game_data: Dictionary) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    rooms.room_board_give(room=room, player=host, text="TS/IE")
    assert rooms.room_board_give(room=room, player=host, text="  ") is False
    room.refresh_from_db()
    assert room.next_board == ""
    told = RoomEvent.objects.filter(room=room, type=protocol.SETTINGS_CHANGED).last()
    assert told is not None and told.payload["board_given"] is False


def test_new_settings_the_given_board_does_not_fit_drop_it(game_data: Dictionary) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    rooms.room_board_give(room=room, player=host, text="TS/IE")
    rooms.room_settings_update(room=room, player=host, settings={**FIXED_ROOM, "duration": 60})
    room.refresh_from_db()
    assert room.next_board == "2x2-TSIE"  # still fits: kept
    rooms.room_settings_update(room=room, player=host, settings={"preset": "classic"})
    room.refresh_from_db()
    assert room.next_board == ""
    told = RoomEvent.objects.filter(room=room, type=protocol.SETTINGS_CHANGED).last()
    assert told is not None and told.payload["board_given"] is False


def test_the_given_board_is_never_in_what_players_are_sent_before_its_round(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room(dict(FIXED_ROOM))
    bob, _ = seat(room, "Bob")
    rooms.room_board_give(room=room, player=host, text="ST/EI")
    room.refresh_from_db()  # as a socket's arrival reads it
    snapshot = room_snapshot(room, bob, clock.now())
    assert snapshot["room"]["board_given"] is True
    payloads = list(RoomEvent.objects.filter(room=room).values_list("payload", flat=True))
    for sent in (snapshot, *payloads):
        assert "STEI" not in str(sent) and "ST/EI" not in str(sent)


def test_a_room_is_created_with_a_board_for_its_first_round(game_data: Dictionary) -> None:
    room, host = rooms.room_create(
        identity=new_identity(), nickname="Ann", settings=dict(FIXED_ROOM), board="2x2-ESIT"
    )
    assert room.next_board == "2x2-ESIT"
    assert rounds.round_start(room=room, player=host, now=clock.now()).board == "2x2-ESIT"


def test_a_room_with_a_board_the_dice_cannot_roll_is_not_created(game_data: Dictionary) -> None:
    with pytest.raises(JoinError) as info:
        rooms.room_create(
            identity=new_identity(), nickname="Ann", settings={"preset": "classic"}, board="TS/IE"
        )
    assert str(info.value) == (
        "That board cannot be played: the board is 2×2, but these settings play on 4×4."
    )
    assert not Room.objects.exists()


@pytest.mark.postgres
def test_a_board_given_while_settings_change_is_never_lost(
    game_data_committed: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings saved in one tab while another tab gives a board: the board given last stays.

    The settings change pauses where it decides whether to keep the given board; the other
    tab gives a board meanwhile. Under the row lock that tab waits its turn, so its board is
    the one kept; before, the settings change wrote back the board it had read first.
    """
    room, host, _ = make_room(dict(FIXED_ROOM))
    rooms.room_board_give(room=room, player=host, text="TS/IE")
    deciding, given = threading.Event(), threading.Event()
    fits = rooms.board_given_still_fits

    def slow_fits(code: str, settings: RoomSettings) -> bool:
        deciding.set()
        given.wait(timeout=1)  # under the lock the other tab cannot finish: this times out
        return fits(code, settings)

    monkeypatch.setattr(rooms, "board_given_still_fits", slow_fits)

    def other_tab() -> None:
        try:
            deciding.wait(timeout=5)
            rooms.room_board_give(room=room, player=host, text="SI/TE")
            given.set()
        finally:
            connection.close()

    tab = threading.Thread(target=other_tab)
    tab.start()
    rooms.room_settings_update(room=room, player=host, settings={**FIXED_ROOM, "duration": 60})
    tab.join(timeout=10)
    room.refresh_from_db()
    assert room.next_board == "2x2-SITE"
    told = RoomEvent.objects.filter(room=room, type=protocol.SETTINGS_CHANGED).last()
    assert told is not None and told.payload["board_given"] is True
