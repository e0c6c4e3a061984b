"""The host's board messages over the socket: a band refused with its reason when saved, a
board given for the next round (refused with the reason, or kept unseen and played once)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import protocol
from games.models import Room, Round
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM
from tests.games.conftest import connect, make_room, receive_until, seat

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


async def test_a_band_no_board_meets_is_refused_with_the_reason_and_changes_nothing(
    game_data: Dictionary,
) -> None:
    room, _, key = await db(make_room)(dict(FIXED_ROOM))
    socket = await connect(room, key)
    await receive_until(socket, "snapshot")
    await socket.send_json_to(
        {"type": "update_settings", "settings": {**FIXED_ROOM, "min_words": 7}}
    )
    error = await receive_until(socket, "error")
    assert error["code"] == protocol.BAD_SETTINGS
    assert error["message"].startswith("Those settings cannot be used: 7 words is too many")
    assert (await db(Room.objects.get)(pk=room.pk)).settings["min_words"] == 0
    await socket.send_json_to(
        {"type": "update_settings", "settings": {**FIXED_ROOM, "band": "monster"}}
    )
    changed = await receive_until(socket, protocol.SETTINGS_CHANGED)
    assert changed["data"]["settings"]["band"] == "monster"
    assert (await db(Room.objects.get)(pk=room.pk)).settings["band"] == "monster"
    await socket.disconnect(timeout=10)


async def test_a_given_board_is_kept_unseen_and_played_by_the_next_round_only(
    game_data: Dictionary,
) -> None:
    room, _, host_key = await db(make_room)(dict(FIXED_ROOM))
    _, bob_key = await db(seat)(room, "Bob")
    host, bob = await connect(room, host_key), await connect(room, bob_key)
    await receive_until(bob, "snapshot")
    await host.send_json_to({"type": "give_board", "board": "ts/ie"})
    told = await receive_until(bob, protocol.SETTINGS_CHANGED)
    assert told["data"]["board_given"] is True
    assert "TSIE" not in str(told) and "ts/ie" not in str(told)
    late = await connect(room, bob_key)
    snapshot = await receive_until(late, "snapshot")
    assert snapshot["room"]["board_given"] is True and "TSIE" not in str(snapshot)
    await host.send_json_to({"type": "start_round"})
    started = await receive_until(bob, protocol.ROUND_STARTED)
    assert "board" not in started["data"]["round"]  # still a secret during the countdown
    rnd = await db(Round.objects.get)(room=room, number=1)
    assert rnd.board == "2x2-TSIE" and rnd.given
    assert (await db(Room.objects.get)(pk=room.pk)).next_board == ""
    for socket in (host, bob, late):
        await socket.disconnect(timeout=10)


async def test_a_board_the_dice_cannot_roll_is_refused_with_the_reason(
    game_data: Dictionary,
) -> None:
    room, _, key = await db(make_room)(dict(FIXED_ROOM))
    _, bob_key = await db(seat)(room, "Bob")
    socket = await connect(room, key)
    await receive_until(socket, "snapshot")
    await socket.send_json_to({"type": "give_board", "board": "SS/IE"})
    error = await receive_until(socket, "error")
    assert error["code"] == protocol.BAD_BOARD
    assert error["message"].startswith("That board cannot be played: the dice cannot roll")
    assert (await db(Room.objects.get)(pk=room.pk)).next_board == ""
    bob = await connect(room, bob_key)
    await receive_until(bob, "snapshot")
    await bob.send_json_to({"type": "give_board", "board": "TS/IE"})
    assert (await receive_until(bob, "error"))["code"] == protocol.NOT_HOST
    await socket.disconnect(timeout=10)
    await bob.disconnect(timeout=10)
