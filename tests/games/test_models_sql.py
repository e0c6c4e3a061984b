"""The reads and inserts written by hand (games/models/sql.py) give what the ORM gives: the
same instances, each value converted as the ORM converts it (JSON, dates, booleans)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.db.models import Model

from games.identity import identity_create, identity_from_cookie
from games.models import Player, PlayerIdentity, Room, RoomEvent, Round
from games.models import sql as sql_rows
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.selectors import my_words, round_latest
from games.rules import clock
from games.seats.selectors import _room_players, player_seat, player_with_room
from solver.models import Dictionary
from tests.games.conftest import make_room, seat


def fields_of(obj: Model) -> dict[str, Any]:
    """Return every concrete field's value of an instance (deferred ones loaded)."""
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_a_seat_read_by_hand_is_the_orms_seat_with_its_room(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    Room.objects.filter(pk=room.pk).update(is_solo=True, settings={"rows": 4, "nested": [1]})
    by_orm = Player.objects.select_related("room").get(pk=host.pk)
    for found in (
        player_seat(room_code=room.code, identity=host.identity),
        player_with_room(host.pk),
    ):
        assert found is not None
        assert fields_of(found) == fields_of(by_orm)
        assert fields_of(found.room) == fields_of(by_orm.room)
        assert found.room.settings == {"rows": 4, "nested": [1]}  # JSON, not its text
        assert found.room.is_solo is True  # a bool, on SQLite too
        assert isinstance(found.joined_at, datetime) and found.joined_at.tzinfo is not None
        assert found._state.adding is False and found._state.db == "default"
    assert player_with_room(host.pk + 1000) is None


def test_a_rooms_players_and_latest_round_read_by_hand_are_the_orms(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    assert round_latest(room.pk) is None
    rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    assert [fields_of(p) for p in _room_players(room.pk)] == [
        fields_of(p) for p in Player.objects.filter(room=room).order_by("joined_at", "id")
    ]
    latest = round_latest(room.pk)
    assert latest is not None
    assert set(latest.get_deferred_fields()) == {"solution", "results"}
    assert fields_of(latest) == fields_of(Round.objects.get(room=room))  # loads the deferred


def test_a_players_words_read_by_hand_come_with_their_paths_as_lists(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=1)
    Round.objects.filter(pk=rnd.pk).update(starts_at=clock.now())
    word, path, points = next(w for w in rnd.solution if len(w[0]) >= 3)
    submissions.submission_create(
        player_id=host.pk, room_id=room.pk, client_id="c1", word=word, path=tuple(path),
        now=clock.now(),
    )  # fmt: skip
    assert my_words(rnd, host) == [
        {"word": word, "points": points, "path": path, "client_id": "c1"}
    ]


def test_an_identity_read_by_hand_is_the_anonymous_one_its_cookie_names(
    game_data: Dictionary,
) -> None:
    from games.identity import cookie_value

    identity = identity_create()
    found = identity_from_cookie(cookie_value(identity))
    assert found is not None and fields_of(found) == fields_of(
        PlayerIdentity.objects.get(pk=identity.pk)
    )
    assert identity_from_cookie(cookie_value(identity) + "x") is None  # tampered


def test_an_insert_by_hand_stores_what_the_orm_would(game_data: Dictionary) -> None:
    room, _, _ = make_room()
    event = sql_rows.insert(
        RoomEvent(room_id=room.pk, seq=7, type="round_started", payload={"a": [1, True]})
    )
    stored = RoomEvent.objects.get(pk=event.pk)
    assert fields_of(stored) == fields_of(event)
    assert stored.payload == {"a": [1, True]} and stored.created_at is not None  # auto_now_add
    assert event._state.adding is False


def test_an_insert_by_hand_refuses_a_model_with_a_save_of_its_own(
    game_data: Dictionary,
) -> None:
    room, _, _ = make_room()
    with pytest.raises(TypeError, match="save"):
        sql_rows.insert(Player(room=room, nickname="Eve"))
    assert not Player.objects.filter(nickname="Eve").exists()
