"""Frames the parser once let through to crash the socket (1011): over the real consumer,
each is answered bad_message, changes nothing, and the socket stays open."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import protocol
from games.models import Player, Room, Round, Submission
from games.rounds import services as rounds
from games.rules import clock
from solver.models import Dictionary
from tests.games.conftest import connect, make_room, receive_until

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async
SEED = 7  # a board with words on it, whatever the machine (tests never play on luck)


async def test_deeply_nested_json_is_a_bad_message_and_the_socket_stays_open(
    game_data: Dictionary,
) -> None:
    room, _, key = await db(make_room)()
    socket = await connect(room, key)
    await receive_until(socket, "snapshot")
    await socket.send_to(text_data="[" * 990 + "]" * 990)  # 1,980 bytes: closed it with 1011
    error = await receive_until(socket, "error")
    assert error["code"] == protocol.BAD_MESSAGE and "nested" in error["message"]
    await socket.send_json_to({"type": "ping"})
    assert (await receive_until(socket, "pong"))["type"] == "pong"
    await socket.disconnect(timeout=10)


async def test_a_lone_surrogate_is_a_bad_message_and_reaches_nothing(
    game_data: Dictionary,
) -> None:
    room, host, key = await db(make_room)({"preset": "classic", "duration": 0})
    rnd: Round = await db(rounds.round_start)(room=room, player=host, now=clock.now(), seed=SEED)
    await db(Round.objects.filter(pk=rnd.pk).update)(starts_at=clock.now())
    word = rnd.solution[0][0]
    socket = await connect(room, key)
    await receive_until(socket, "snapshot")
    frames = [  # JSON escapes, as a hostile client sends them (UTF-8 cannot carry one)
        '{"type": "submit", "client_id": "\\ud800", "word": "WORD"}',  # was a 1011
        '{"type": "submit", "client_id": "c1", "word": "WORD\\udc00"}',
        '{"type": "submit", "client_id": "c\\u0000", "word": "WORD"}',
        '{"type": "add_bot", "level": "easy\\ud800"}',
        '{"type": "add_bot", "level": "easy", "dictionary": "\\ud800"}',
        '{"type": "update_settings", "settings": {"preset": "big\\ud800"}}',
        '{"type": "update_settings", "settings": {"\\ud800": "big"}}',
    ]
    for frame in frames:
        await socket.send_to(text_data=frame.replace("WORD", word))
        error = await receive_until(socket, "error")
        assert error["code"] == protocol.BAD_MESSAGE, (frame, error)
    await socket.send_json_to({"type": "submit", "client_id": "c2", "word": word})
    assert (await receive_until(socket, "submit_result"))["accepted"] is True  # still open
    assert await db(Submission.objects.count)() == 1
    stored = await db(Room.objects.get)(pk=room.pk)
    assert stored.settings == room.settings
    assert await db(Player.objects.filter(room=room).count)() == 1  # no bot seated
    await socket.disconnect(timeout=10)
