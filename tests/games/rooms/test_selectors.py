"""Selectors: one seat lookup, one running-round query, one word count, the round's grace,
the snapshot's counts."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Submission
from games.rooms.selectors import room_snapshot
from games.rounds import services as rounds
from games.rounds.selectors import (
    round_public,
    round_running,
    rounds_due,
    rounds_running,
    word_counts,
)
from games.rules import clock
from games.seats import services as seats
from games.seats.selectors import player_seat
from solver.models import Dictionary
from tests.games.conftest import make_room, reschedule, seat


def test_a_seat_is_found_by_room_code_and_identity_only_while_seated(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    other, _, _ = make_room()
    assert player_seat(room_code=room.code, identity=host.identity) == host
    assert player_seat(room_code=other.code, identity=host.identity) is None
    assert player_seat(room_code=room.code, identity=None) is None
    bob, _ = seat(room, "Bob")
    seats.player_leave(room=room, player=bob, now=clock.now())
    assert player_seat(room_code=room.code, identity=bob.identity) is None


def test_running_and_due_rounds(game_data: Dictionary) -> None:
    first, host, _ = make_room()
    second, other, _ = make_room()
    running = rounds.round_start(room=first, player=host, now=clock.now(), seed=1)
    overdue = reschedule(
        rounds.round_start(room=second, player=other, now=clock.now(), seed=2),
        starts_in=-60,
        ends_in=-1,
    )
    assert round_running(first.id) == running and round_running(second.id) == overdue
    assert set(rounds_running()) == {running, overdue}
    assert list(rounds_running([second.id])) == [overdue]
    assert list(rounds_due(clock.now())) == [overdue]
    assert list(rounds_due(overdue.ends_at + clock.GRACE - timedelta(milliseconds=1))) == []  # type: ignore[operator]


def test_word_counts_per_player_for_one_or_many_rounds(game_data: Dictionary) -> None:
    first, host, _ = make_room()
    second, other, _ = make_room()
    bob, _ = seat(first, "Bob")
    a = rounds.round_start(room=first, player=host, now=clock.now(), seed=1)
    b = rounds.round_start(room=second, player=other, now=clock.now(), seed=2)
    now = clock.now()
    for n, (rnd, player) in enumerate([(a, host), (a, host), (a, bob), (b, other)]):
        Submission.objects.create(
            round=rnd, player=player, word=f"W{n}", path=[], points=1, client_id=str(n),
            created_at=now,
        )  # fmt: skip
    assert word_counts([a.id]) == {a.id: {str(host.id): 2, str(bob.id): 1}}
    assert word_counts([a.id, b.id]) == {
        a.id: {str(host.id): 2, str(bob.id): 1},
        b.id: {str(other.id): 1},
    }
    assert word_counts([]) == {}


def test_a_round_tells_clients_its_grace(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    assert (
        round_public(rnd, clock.now())["grace_ms"] == 400 == clock.GRACE / timedelta(milliseconds=1)
    )


def test_a_snapshot_counts_a_lone_seat_s_words_from_its_own_list(game_data: Dictionary) -> None:
    """Alone in the room (a daily attempt, a solo round), the player's count is the length
    of their words, read anyway: no count query. With others seated, every seat's count."""
    room, host, _ = make_room()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    now = clock.now()
    for n in range(2):
        Submission.objects.create(
            round=rnd, player=host, word=f"W{n}", path=[], points=1, client_id=str(n),
            created_at=now,
        )  # fmt: skip
    room.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        alone = room_snapshot(room, host, now)["round"]
    assert alone["counts"] == {str(host.id): 2} and len(alone["my_words"]) == 2
    assert not [q for q in captured if 'COUNT("games_submission"' in q["sql"]]
    bob, _ = seat(room, "Bob")
    Submission.objects.create(
        round=rnd, player=bob, word="W9", path=[], points=1, client_id="9", created_at=now
    )
    room.refresh_from_db()
    for player in (host, None):  # a seat among others, and a spectator
        counts = room_snapshot(room, player, now)["round"]["counts"]
        assert counts == {str(host.id): 2, str(bob.id): 1}
