"""Hints: counts of the words a player has left, per length or first letter, worked out from
the round's solution and the player's own words; stored before they are answered, charged in
the results, and refused (nothing stored, nothing charged) when they cannot be given."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games import protocol
from games.models import Hint, Player, Room, Round
from games.rooms.selectors import room_snapshot
from games.rooms.services import room_board_give
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.hints import hint_counts, hint_take
from games.rules import clock
from games.rules.room_settings import SettingsError, settings_from
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM, FIXED_WORDS_ALGS4
from tests.games.conftest import make_room, reschedule, seat

pytestmark = pytest.mark.django_db
HINTS_ON = {**FIXED_ROOM, "duration": 0, "hints": True, "hint_cost": 2}


def play(settings: dict[str, Any]) -> tuple[Room, Player, Round]:
    """Create a room with these settings, start a round and let it take words now."""
    room, host, _ = make_room(settings)
    rnd = rounds.round_start(room=room, player=host, now=clock.now())
    return room, host, reschedule(rnd, starts_in=-1, ends_in=None)


def take(room: Room, player: Player, kind: str) -> dict[str, Any]:
    """Take a hint as the consumer does, with fresh copies of the room and player."""
    room.refresh_from_db()
    return hint_take(room=room, player=player, kind=kind, now=clock.now())


def find(room: Room, player: Player, word: str) -> None:
    answer = submissions.submission_create(
        player_id=player.id, room_id=room.id, client_id=word, word=word, path=None,
        now=clock.now(),
    )  # fmt: skip
    assert answer["accepted"], answer


# Counting ---------------------------------------------------------------------------------


def test_counts_are_per_length_in_letters_or_per_first_letter_and_leave_out_zeros() -> None:
    words = ["QUIT", "QUITE", "SIT", "SITE", "TIE", "ITS"]
    assert hint_counts(kind="lengths", solution=words, found=set()) == {"3": 3, "4": 2, "5": 1}
    assert hint_counts(kind="letters", solution=words, found=set()) == {
        "I": 1, "Q": 2, "S": 2, "T": 1,
    }  # fmt: skip
    found = {"QUITE", "SIT", "ITS"}
    assert hint_counts(kind="lengths", solution=words, found=found) == {"3": 1, "4": 2}
    assert hint_counts(kind="letters", solution=words, found=found) == {"Q": 1, "S": 1, "T": 1}
    assert hint_counts(kind="lengths", solution=words, found=set(words)) == {}


def test_lengths_sort_as_numbers() -> None:
    words = ["ABCDEFGHIJ", "ABC", "ABCDEFGHIJK", "ABCD"]
    assert list(hint_counts(kind="lengths", solution=words, found=set())) == ["3", "4", "10", "11"]


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(protocol.ProtocolError) as refused:
        hint_counts(kind="words", solution=["SIT"], found=set())
    assert refused.value.code == protocol.BAD_HINT


# Against a round's solution ----------------------------------------------------------------


def test_hint_counts_on_the_fixed_board_follow_the_players_own_words(game_data: Dictionary) -> None:
    room, host, rnd = play(HINTS_ON)
    assert {entry[0] for entry in rnd.solution} == FIXED_WORDS_ALGS4  # ITS SET SIT SITE TIE TIES
    bob, _ = seat(room, "Bob")
    assert take(room, host, "lengths") == {
        "type": "hint", "kind": "lengths", "round": 1, "counts": {"3": 4, "4": 2}, "taken": 1,
        "cost": 2,
    }  # fmt: skip
    find(room, host, "SIT")
    find(room, host, "TIES")
    find(room, bob, "SET")  # another player's words change nothing in the host's counts
    assert take(room, host, "letters")["counts"] == {"I": 1, "S": 2, "T": 1}
    answer = take(room, host, "lengths")
    assert (answer["counts"], answer["taken"]) == ({"3": 3, "4": 1}, 3)
    assert take(room, bob, "letters")["counts"] == {"I": 1, "S": 2, "T": 2}
    stored = Hint.objects.filter(round=rnd).order_by("id")
    assert [(h.player_id, h.kind, h.cost) for h in stored] == [
        (host.id, "lengths", 2), (host.id, "letters", 2), (host.id, "lengths", 2),
        (bob.id, "letters", 2),
    ]  # fmt: skip


def test_hint_counts_on_a_given_4x4_board_add_up_to_the_words_not_found(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room({"preset": "classic", "duration": 0, "hints": True})
    room_board_give(room=room, player=host, text="PERS/LATG/SINE/TERS")
    rnd = rounds.round_start(room=room, player=host, now=clock.now())
    reschedule(rnd, starts_in=-1, ends_in=None)
    words = sorted(entry[0] for entry in rnd.solution)
    assert rnd.board == "4x4-PERSLATGSINETERS" and len(words) > 40
    for word in words[::3]:
        find(room, host, word)
    left = [w for w in words if w not in words[::3]]
    lengths = take(room, host, "lengths")["counts"]
    letters = take(room, host, "letters")["counts"]
    assert lengths == {str(n): c for n, c in sorted(Counter(len(w) for w in left).items())}
    assert letters == dict(sorted(Counter(w[0] for w in left).items()))
    assert sum(lengths.values()) == sum(letters.values()) == len(left)


def test_a_hint_never_names_a_word_or_a_path(game_data: Dictionary) -> None:
    room, host, _ = play(HINTS_ON)
    for kind in protocol.HINT_KINDS:
        answer = take(room, host, kind)
        assert set(answer) == {"type", "kind", "round", "counts", "taken", "cost"}
        assert all(isinstance(n, int) for n in answer["counts"].values())
        assert all(key.isdigit() or len(key) == 1 for key in answer["counts"])


# Charged in the results ---------------------------------------------------------------------


def test_each_hint_costs_the_stated_points_in_the_results(game_data: Dictionary) -> None:
    room, host, rnd = play(HINTS_ON)
    bob, _ = seat(room, "Bob")
    find(room, host, "SITE")  # 1 point
    find(room, host, "TIES")  # 1 point
    find(room, bob, "SIT")
    take(room, host, "lengths")
    take(room, host, "letters")
    assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    rows = {row["nickname"]: row for row in rnd.results["players"]}
    assert rows["Ann"]["score"] == 2 - 2 * 2
    assert rows["Ann"]["hints"] == {"taken": 2, "cost": 2, "points": 4}
    assert rows["Ann"]["total"] == -2
    assert rows["Bob"]["score"] == 1 and "hints" not in rows["Bob"]
    assert Player.objects.get(pk=host.pk).total_score == -2


def test_free_hints_are_listed_but_cost_nothing(game_data: Dictionary) -> None:
    room, host, rnd = play({**HINTS_ON, "hint_cost": 0})
    find(room, host, "SITE")
    take(room, host, "lengths")
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    (row,) = rnd.results["players"]
    assert (row["score"], row["hints"]) == (1, {"taken": 1, "cost": 0, "points": 0})


def test_a_solo_players_hints_count_against_them_in_the_verdict(game_data: Dictionary) -> None:
    room, host, rnd = play({**HINTS_ON, "hint_cost": 1})
    Room.objects.filter(pk=room.pk).update(is_solo=True)
    for word in ("SITE", "TIES", "SIT", "SET"):
        find(room, host, word)  # 4 points; the computer takes ITS and TIE, 2
    take(room, host, "lengths")
    take(room, host, "letters")
    take(room, host, "lengths")
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    assert rnd.results["players"][0]["score"] == 1
    assert rnd.results["computer"]["verdict"] == "The computer wins by 1 point."


def test_a_player_removed_after_taking_a_hint_is_still_charged(game_data: Dictionary) -> None:
    room, host, rnd = play(HINTS_ON)
    bob, _ = seat(room, "Bob")
    take(room, bob, "letters")
    Player.objects.filter(pk=bob.pk).update(removed_at=clock.now())
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    rows = {row["nickname"]: row for row in rnd.results["players"]}
    assert rows["Bob"]["score"] == -2


# Refused, with nothing stored or charged ------------------------------------------------------


def refused(room: Room, player: Player, kind: str) -> str:
    with pytest.raises(protocol.ProtocolError) as refusal:
        take(room, player, kind)
    return refusal.value.code


def test_a_room_with_hints_off_refuses_them(game_data: Dictionary) -> None:
    room, host, rnd = play({**FIXED_ROOM, "duration": 0})
    assert refused(room, host, "lengths") == protocol.HINTS_OFF
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    assert refused(room, host, "lengths") == protocol.HINTS_OFF  # between rounds too
    assert not Hint.objects.exists()


def test_the_rounds_settings_decide_not_the_rooms_changed_since(game_data: Dictionary) -> None:
    room, host, _ = play({**FIXED_ROOM, "duration": 0})
    Room.objects.filter(pk=room.pk).update(settings={**room.settings, "hints": True})
    assert refused(room, host, "letters") == protocol.HINTS_OFF
    assert not Hint.objects.exists()


def test_no_hint_without_a_round_taking_words(game_data: Dictionary) -> None:
    room, host, _ = make_room(HINTS_ON)
    assert refused(room, host, "lengths") == protocol.ROUND_NOT_RUNNING  # no round yet
    rnd = rounds.round_start(room=room, player=host, now=clock.now())
    reschedule(rnd, starts_in=5, ends_in=None)
    assert refused(room, host, "lengths") == protocol.ROUND_NOT_RUNNING  # the countdown
    reschedule(rnd, starts_in=-60, ends_in=-5)
    assert refused(room, host, "letters") == protocol.ROUND_NOT_RUNNING  # time is up
    rounds.round_end(round_id=rnd.id, now=clock.now())
    assert refused(room, host, "letters") == protocol.ROUND_NOT_RUNNING  # over
    assert not Hint.objects.exists()
    rnd.refresh_from_db()
    assert "hints" not in rnd.results["players"][0]


def test_an_unknown_kind_stores_nothing(game_data: Dictionary) -> None:
    room, host, _ = play(HINTS_ON)
    assert refused(room, host, "words") == protocol.BAD_HINT
    assert not Hint.objects.exists()


def test_a_hint_that_loses_the_race_with_the_end_is_refused_and_not_stored(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, host, rnd = play(HINTS_ON)
    real = Hint.objects.create

    def create_then_end(**fields: Any) -> Hint:
        # The round ends (another trigger) after this hint's first look at it.
        Round.objects.filter(pk=rnd.pk).update(status=Round.FINISHED)
        return real(**fields)

    monkeypatch.setattr(Hint.objects, "create", create_then_end)
    assert refused(room, host, "lengths") == protocol.ROUND_NOT_RUNNING
    assert not Hint.objects.exists()


# The snapshot ---------------------------------------------------------------------------------


def test_a_snapshot_restores_the_hints_taken_with_counts_as_they_are_now(
    game_data: Dictionary,
) -> None:
    room, host, _ = play(HINTS_ON)
    assert room_snapshot(room, host, clock.now())["round"]["hints"] == {
        "cost": 2, "taken": 0, "counts": {},
    }  # fmt: skip
    take(room, host, "letters")
    find(room, host, "TIE")
    hints = room_snapshot(room, host, clock.now())["round"]["hints"]
    assert hints == {"cost": 2, "taken": 1, "counts": {"letters": {"I": 1, "S": 3, "T": 1}}}


def test_a_snapshot_of_a_room_with_hints_off_says_nothing_about_them(
    game_data: Dictionary,
) -> None:
    room, host, _ = play({**FIXED_ROOM, "duration": 0})
    assert "hints" not in room_snapshot(room, host, clock.now())["round"]


# Settings -------------------------------------------------------------------------------------


def test_hints_are_off_unless_the_host_turns_them_on_and_cost_one_point() -> None:
    default = settings_from({"preset": "classic"})
    assert (default.hints, default.hint_cost) == (False, 1)
    big = settings_from({"preset": "big", "hints": True, "hint_cost": 3})
    assert (big.hints, big.hint_cost) == (True, 3)
    custom = settings_from({"preset": "custom", "hints": True, "hint_cost": 0})
    assert (custom.hints, custom.hint_cost) == (True, 0)


@pytest.mark.parametrize(
    "data",
    [
        {"hints": "yes"},
        {"hints": 1},
        {"hint_cost": -1},
        {"hint_cost": 11},
        {"hint_cost": 1.5},
        {"hint_cost": True},
    ],
)
def test_bad_hint_settings_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(SettingsError, match="hint"):
        settings_from({"preset": "classic", **data})
