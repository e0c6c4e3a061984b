"""The room socket: snapshot, every message type, resume, timers, limits and refusals."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import protocol
from games.models import Player, Room, Round, Submission
from games.rounds import services as rounds
from games.rules import clock
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM, words_needed
from tests.games.conftest import (
    application,
    connect,
    make_room,
    receive_until,
    reschedule,
    results_get,
    seat,
)

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


async def open_room(
    settings: dict[str, object] | None = None,
) -> tuple[Room, Player, str, Player, str]:
    room, host, host_key = await db(make_room)(settings)
    bob, bob_key = await db(seat)(room, "Bob")
    return room, host, host_key, bob, bob_key


async def start_round(host_socket: WebsocketCommunicator, room: Room) -> Round:
    await host_socket.send_json_to({"type": "start_round"})
    await receive_until(host_socket, "round_started")
    rnd = await db(Round.objects.get)(room=room, status=Round.RUNNING)
    return await db(reschedule)(rnd, starts_in=-1, ends_in=60)


async def test_a_browser_without_a_seat_is_refused(game_data: Dictionary) -> None:
    room, _, _ = await db(make_room)()
    communicator = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/")
    connected, code = await communicator.connect(timeout=10)
    assert not connected and code == 4403


async def test_connecting_sends_a_snapshot_and_tells_the_room(game_data: Dictionary) -> None:
    room, host, host_key, bob, bob_key = await open_room()
    host_socket = await connect(room, host_key)
    snapshot = await receive_until(host_socket, "snapshot")
    assert snapshot["me"] == host.id and snapshot["room"]["host_id"] == host.id
    assert {p["nickname"] for p in snapshot["players"]} == {"Ann", "Bob"}
    assert isinstance(snapshot["server_time"], int)
    bob_socket = await connect(room, bob_key)
    await receive_until(bob_socket, "snapshot")

    def about_bob(message: dict[str, object]) -> bool:
        return message["data"]["player"]["id"] == bob.id  # type: ignore[index]

    joined = await receive_until(host_socket, "player_updated", where=about_bob)
    assert joined["data"]["player"]["connected"]
    await bob_socket.disconnect(timeout=10)
    left = await receive_until(host_socket, "player_updated", where=about_bob)
    assert left["data"]["player"]["connected"] is False
    await host_socket.disconnect(timeout=10)


async def test_a_round_from_start_to_results(game_data: Dictionary) -> None:
    room, host, host_key, bob, bob_key = await open_room(FIXED_ROOM)  # a board with words
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await host_socket.send_json_to({"type": "start_round"})
    started = await receive_until(bob_socket, "round_started")
    assert "board" not in started["data"]["round"]
    rnd = await db(Round.objects.get)(room=room)
    await db(reschedule)(rnd, starts_in=0.2, ends_in=1.0)
    await bob_socket.send_json_to({"type": "resume", "last_seq": started["seq"]})  # re-arm timers
    board = await receive_until(bob_socket, "board")
    assert len(board["board"]["faces"]) == 4
    shared, own = words_needed(rnd.solution, 2, rnd.board)
    for socket, words in ((host_socket, [shared, own]), (bob_socket, [shared])):
        for n, word in enumerate(words):
            await socket.send_json_to({"type": "submit", "client_id": f"c{n}", "word": word})
            answer = await receive_until(socket, "submit_result")
            assert answer["accepted"], answer
    counts = await receive_until(host_socket, "word_counts", where=lambda m: len(m["counts"]) == 2)
    assert counts["counts"] == {str(host.id): 2, str(bob.id): 1} and counts["round"] == 1
    ended = await receive_until(bob_socket, "round_ended", timeout=5)
    assert "results" not in ended["data"]  # announced only: the results come over HTTP
    assert ended["data"]["round"] == {**ended["data"]["round"], "number": 1, "status": "finished"}
    results = await db(results_get)(ended["data"]["results_url"], bob_key)
    scores = {row["id"]: row["score"] for row in results["players"]}
    assert scores == {host.id: rnd.solution[1][2], bob.id: 0}
    assert len(results["missed"]) == len(rnd.solution) - 2 and results["solution"][0]["path"]
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)


async def test_submissions_get_rejection_codes_only_to_their_sender(game_data: Dictionary) -> None:
    room, _, host_key, _, bob_key = await open_room()
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await receive_until(bob_socket, "snapshot")
    await host_socket.send_json_to({"type": "submit", "client_id": "x", "word": "word"})
    answer = await receive_until(host_socket, "submit_result")
    assert answer["reason"] == protocol.ROUND_NOT_RUNNING
    await start_round(host_socket, room)
    await host_socket.send_json_to({"type": "submit", "client_id": "y", "word": "ab"})
    assert (await receive_until(host_socket, "submit_result"))["reason"] == protocol.TOO_SHORT
    while not await bob_socket.receive_nothing(timeout=0.1):
        message = await bob_socket.receive_json_from()
        assert message["type"] != "submit_result"
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)


async def test_host_commands_and_refusals(game_data: Dictionary) -> None:
    room, host, host_key, bob, bob_key = await open_room()
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await bob_socket.send_json_to({"type": "start_round"})
    assert (await receive_until(bob_socket, "error"))["code"] == protocol.NOT_HOST
    await host_socket.send_json_to(
        {"type": "update_settings", "settings": {"preset": "custom", "rows": 99}}
    )
    assert (await receive_until(host_socket, "error"))["code"] == protocol.BAD_SETTINGS
    await host_socket.send_json_to({"type": "update_settings", "settings": {"preset": "big"}})
    changed = await receive_until(bob_socket, "settings_changed")
    assert changed["data"]["settings"]["dice"] == "big25"
    await host_socket.send_json_to({"type": "transfer_host", "player_id": bob.id})
    assert (await receive_until(host_socket, "host_changed"))["data"]["host_id"] == bob.id
    await host_socket.send_json_to({"type": "remove_player", "player_id": bob.id})
    assert (await receive_until(host_socket, "error"))["code"] == protocol.NOT_HOST
    await bob_socket.send_json_to({"type": "remove_player", "player_id": 999999})
    assert (await receive_until(bob_socket, "error"))["code"] == protocol.NO_SUCH_PLAYER
    await bob_socket.send_json_to({"type": "remove_player", "player_id": host.id})
    assert (await receive_until(bob_socket, "player_removed"))["data"]["player_id"] == host.id
    assert (await host_socket.receive_output(timeout=2))["type"] in (
        "websocket.send",
        "websocket.close",
    )
    await bob_socket.send_json_to({"type": "ping"})
    assert (await receive_until(bob_socket, "pong"))["server_time"] > 0
    await bob_socket.disconnect(timeout=10)


async def test_the_host_ends_an_untimed_round_and_clock_zero_ends_a_due_one(
    game_data: Dictionary,
) -> None:
    room, _, host_key, _, bob_key = await open_room({"preset": "classic", "duration": 0})
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await start_round(host_socket, room)
    await host_socket.send_json_to({"type": "end_round"})
    await receive_until(bob_socket, "round_ended")
    await host_socket.send_json_to({"type": "update_settings", "settings": {"preset": "classic"}})
    await receive_until(host_socket, "settings_changed")
    rnd = await start_round(host_socket, room)
    await db(reschedule)(rnd, starts_in=-100, ends_in=-1)
    await bob_socket.send_json_to({"type": "clock_zero", "round": rnd.number})
    await receive_until(host_socket, "round_ended")
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)


async def test_resume_sends_missed_events_or_a_snapshot(game_data: Dictionary) -> None:
    room, host, host_key, _, bob_key = await open_room()
    bob_socket = await connect(room, bob_key)
    snapshot = await receive_until(bob_socket, "snapshot")
    await bob_socket.disconnect(timeout=10)
    host_socket = await connect(room, host_key)
    await host_socket.send_json_to({"type": "update_settings", "settings": {"preset": "big"}})
    await receive_until(host_socket, "settings_changed")
    again = await connect(room, bob_key, query=f"?last_seq={snapshot['seq']}")
    missed = await again.receive_json_from()
    assert missed["type"] == "event" and missed["seq"] == snapshot["seq"] + 1
    kinds = [missed["event"]]
    while not await again.receive_nothing(timeout=0.2):
        kinds.append((await again.receive_json_from())["event"])
    assert "settings_changed" in kinds
    await again.send_json_to({"type": "resume", "last_seq": None})
    assert (await again.receive_json_from())["type"] == "snapshot"
    await again.send_json_to({"type": "resume", "last_seq": 0})
    assert (await again.receive_json_from())["type"] in ("event", "snapshot")
    await again.disconnect(timeout=10)
    await host_socket.disconnect(timeout=10)


async def test_a_reconnecting_player_keeps_seat_words_and_score(game_data: Dictionary) -> None:
    room, host, host_key, _, _ = await open_room(FIXED_ROOM)  # a board with words
    socket = await connect(room, host_key)
    rnd = await start_round(socket, room)
    (word,) = words_needed(rnd.solution, 1, rnd.board)
    await socket.send_json_to({"type": "submit", "client_id": "c1", "word": word})
    await receive_until(socket, "submit_result")
    await socket.disconnect(timeout=10)
    second_tab = await connect(room, host_key)
    snapshot = await receive_until(second_tab, "snapshot")
    assert snapshot["me"] == host.id
    assert [w["word"] for w in snapshot["round"]["my_words"]] == [word]
    await second_tab.send_json_to({"type": "submit", "client_id": "c1", "word": word})
    assert (await receive_until(second_tab, "submit_result"))["accepted"] is True
    assert await db(Submission.objects.filter(player=host).count)() == 1
    await second_tab.disconnect(timeout=10)


async def test_malformed_frames_get_errors_and_large_ones_close_the_socket(
    game_data: Dictionary,
) -> None:
    room, _, host_key, _, bob_key = await open_room()
    socket, other = await connect(room, host_key), await connect(room, bob_key)
    for frame in ("nonsense", "{}", '{"type": "submit", "client_id": 3}', '{"type": "fly"}'):
        await socket.send_to(text_data=frame)
        assert (await receive_until(socket, "error"))["code"] == protocol.BAD_MESSAGE
    await socket.send_to(bytes_data=b"\x00\x01")
    assert (await receive_until(socket, "error"))["code"] == protocol.BAD_MESSAGE
    await socket.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert (await receive_until(socket, "error"))["code"] == protocol.TOO_LARGE
    assert (await socket.receive_output(timeout=1))["type"] == "websocket.close"
    await other.send_json_to({"type": "ping"})
    assert (await receive_until(other, "pong"))["type"] == "pong"
    await other.disconnect(timeout=10)


async def test_a_flood_is_rate_limited_then_cut_off(game_data: Dictionary) -> None:
    room, _, host_key, _, _ = await open_room()
    socket = await connect(room, host_key)
    await receive_until(socket, "snapshot")
    for _ in range(50):
        await socket.send_json_to({"type": "ping"})
    codes = []
    while True:
        output = await socket.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        message = json.loads(output["text"])
        codes.append(message.get("code"))
    assert protocol.RATE_LIMITED in codes
    assert output["code"] == 4429


async def test_origins_other_than_the_allowed_hosts_are_refused(game_data: Dictionary) -> None:
    from boggle_site.asgi import application as site

    room, _, host_key, _, _ = await open_room()
    communicator = WebsocketCommunicator(
        site,
        f"/ws/rooms/{room.code}/",
        headers=[
            (b"cookie", f"player={host_key}".encode()),
            (b"origin", b"http://evil.example"),
        ],
    )
    connected, _ = await communicator.connect(timeout=10)
    assert not connected
    good = WebsocketCommunicator(
        site,
        f"/ws/rooms/{room.code}/",
        headers=[(b"cookie", f"player={host_key}".encode()), (b"origin", b"http://localhost")],
    )
    connected, _ = await good.connect(timeout=10)
    assert connected
    await good.disconnect(timeout=10)


async def test_the_round_ends_on_time_from_the_socket_timer(game_data: Dictionary) -> None:
    room, _, host_key, _, _ = await open_room()
    socket = await connect(room, host_key)
    rnd = await start_round(socket, room)
    await db(reschedule)(rnd, starts_in=-1, ends_in=0.3)
    await socket.send_json_to({"type": "resume", "last_seq": None})
    ended = await receive_until(socket, "round_ended", timeout=5)
    assert ended["data"]["round"]["number"] == rnd.number
    assert ended["data"]["results_url"] == f"/r/{room.code}/rounds/{rnd.number}/results.json"
    finished = await db(Round.objects.get)(pk=rnd.pk)
    lag = (finished.finished_at - finished.ends_at).total_seconds()
    assert clock.GRACE.total_seconds() <= lag < 1.5
    await socket.disconnect(timeout=10)
    assert not await db(rounds.rounds_end_due)(now=clock.now())
    await asyncio.sleep(0)


async def test_the_host_adds_and_removes_computer_players(game_data: Dictionary) -> None:
    room, _, host_key, _, bob_key = await open_room()
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await bob_socket.send_json_to({"type": "add_bot", "level": "easy"})
    assert (await receive_until(bob_socket, "error"))["code"] == protocol.NOT_HOST
    await host_socket.send_json_to({"type": "add_bot", "level": "wizard"})
    assert (await receive_until(host_socket, "error"))["code"] == protocol.BAD_BOT
    await host_socket.send_json_to({"type": "add_bot", "level": "hard", "dictionary": "test"})
    joined = await receive_until(bob_socket, "player_joined")
    bot = joined["data"]["player"]
    assert bot["bot"] == "hard" and bot["nickname"] == "Computer (hard)"
    await host_socket.send_json_to({"type": "remove_player", "player_id": bot["id"]})
    assert (await receive_until(bob_socket, "player_removed"))["data"]["player_id"] == bot["id"]
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)


async def test_clock_zero_for_a_round_already_over_gets_a_snapshot(game_data: Dictionary) -> None:
    room, _, host_key, _, _ = await open_room({"preset": "classic", "duration": 0})
    socket = await connect(room, host_key)
    rnd = await start_round(socket, room)
    await socket.send_json_to({"type": "end_round"})
    await receive_until(socket, "round_ended")
    await socket.send_json_to({"type": "clock_zero", "round": rnd.number})  # e.g. a lost event
    snapshot = await receive_until(socket, "snapshot")
    assert snapshot["round"]["number"] == rnd.number and snapshot["round"]["status"] == "finished"
    assert snapshot["results_url"] == f"/r/{room.code}/rounds/{rnd.number}/results.json"
    assert (await db(results_get)(snapshot["results_url"], host_key))["round"]["number"] == 1
    await socket.disconnect(timeout=10)


async def test_a_socket_arrives_in_two_trips_to_the_database_threads(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat found and counted in one trip, then the snapshot with the running round's
    timing in one read: each trip queues behind every other socket's when a crowd arrives
    at once."""
    from games.rooms import consumer as consumers
    from games.rooms import timers as room_timers

    room, host, host_key, _, _ = await open_room(FIXED_ROOM)
    host_socket = await connect(room, host_key)
    await receive_until(host_socket, "snapshot")
    await start_round(host_socket, room)  # a running round, whose timers the socket follows
    await host_socket.disconnect()
    trips: list[str] = []
    real = consumers.service_run

    async def counted(action, lane=None):  # type: ignore[no-untyped-def]
        trips.append(getattr(action, "__qualname__", "?"))
        return await real(action, lane)

    monkeypatch.setattr(consumers, "service_run", counted)
    monkeypatch.setattr(room_timers, "service_run", counted)
    socket = await connect(room, host_key)
    await receive_until(socket, "snapshot")
    await receive_until(socket, "board")  # sent by the room's timers here: they follow it
    assert len(trips) == 2, trips
    await socket.disconnect()
