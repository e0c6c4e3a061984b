"""Watching a room through its watch link: the lobby, the clock, the counts and the results,
never a word before time-up (every frame read), nothing a spectator may change, and the
spectators' own cap; the players see how many watch, coalesced. And the chat over the
socket: two players talking, floods, refusals."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client as HttpClient

from games import protocol
from games.chat import services as chat
from games.limits import throttle
from games.models import ChatMessage, Player, Room, Round, Spectator, Submission
from games.protocol import CLOSE_NOT_IN_ROOM, CLOSE_TOO_MANY_SOCKETS
from games.realtime import counts
from games.realtime.outbox import room_group
from games.realtime.runner import service_run_sync
from games.rounds import services as rounds
from games.rules import clock
from games.spectators import counts as spectator_counts
from games.spectators import services as spectators
from games.sweeper import sweep_once
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM, FIXED_WORDS_ALGS4
from tests.games.conftest import application, connect, in_room, make_room, reschedule, seat
from tests.solution_leaks import leaks

pytestmark = pytest.mark.django_db
db = database_sync_to_async
WAIT_S = 15  # the longest a test waits for a frame or a closed socket (it goes on when it comes)
ADDRESS = "198.51.100.15"  # the watch views' 404s count as room guesses: not 127.0.0.1's


class Frames:
    """A socket and every frame it has received, in order."""

    def __init__(self, socket: WebsocketCommunicator) -> None:
        self.socket = socket
        self.frames: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send_json_to(message)

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Return the next frame of a type (or event kind) with these fields, keeping all."""
        while True:
            frame = await self.socket.receive_json_from(timeout=WAIT_S)
            self.frames.append(frame)
            if kind in (frame["type"], frame.get("event")) and all(
                frame.get(k) == v for k, v in fields.items()
            ):
                return frame


async def watch(room: Room, query: str = "") -> WebsocketCommunicator:
    """Open a spectator socket on the room's watch link, with no identity cookie."""
    socket = WebsocketCommunicator(
        application,
        f"/ws/rooms/{room.code}/watch/{query}",
        headers=[(b"origin", b"http://testserver")],
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    if "last_seq=" not in query:
        await in_room(socket)
    return socket


async def test_a_spectator_sees_the_round_go_by_and_never_a_word_before_time_up(
    game_data_committed: Dictionary,
) -> None:
    room, _, ann_key = await db(make_room)({**FIXED_ROOM, "duration": 0})
    _, bob_key = await db(seat)(room, "Bob")
    ann, bob = Frames(await connect(room, ann_key)), Frames(await connect(room, bob_key))
    spectator = Frames(await watch(room))
    lobby = await spectator.until("snapshot")
    await ann.until("snapshot")
    await bob.until("snapshot")
    await ann.send({"type": "chat", "text": "watch this"})
    await spectator.until(protocol.CHAT_MESSAGE)
    await ann.send({"type": "start_round"})
    await spectator.until(protocol.ROUND_STARTED)
    rnd = await db(Round.objects.get)(room=room)
    await db(reschedule)(rnd, starts_in=-1, ends_in=None)
    # A spectator arriving mid-round gets a snapshot with the counts and no words.
    late = Frames(await watch(room))
    for word, player in (("sit", ann), ("ties", bob), ("tie", ann), ("set", bob)):
        await player.send({"type": "submit", "client_id": word, "word": word})
        assert (await player.until("submit_result"))["accepted"]
    counts = await spectator.until("word_counts")
    await late.until("snapshot")
    await ann.send({"type": "end_round"})
    ended = await spectator.until(protocol.ROUND_ENDED)
    await late.until(protocol.ROUND_ENDED)

    assert lobby["me"] is None and lobby["round"] is None
    assert [line["text"] for line in lobby["chat"]] == []
    assert sum(counts["counts"].values()) >= 1
    mid = late.frames[0]
    assert (
        mid["type"] == "snapshot" and "my_words" not in mid["round"] and "hints" not in mid["round"]
    )
    for client in (spectator, late):
        seen_end = False
        for frame in client.frames:
            if frame.get("event") == protocol.ROUND_ENDED:
                seen_end = True
            if not seen_end:
                assert leaks(frame, secret=FIXED_WORDS_ALGS4, own=()) == [], frame
                assert frame["type"] not in (protocol.SUBMIT_RESULT, protocol.HINT), frame
    url = ended["data"]["results_url"]
    assert url == f"/r/{room.code}/watch/rounds/1/results.json"
    results = await db(lambda: HttpClient(REMOTE_ADDR=ADDRESS).get(url))()
    assert results.status_code == 200
    assert {p["nickname"]: len(p["words"]) for p in results.json()["players"]} == {
        "Ann": 2,
        "Bob": 2,
    }
    seated = f"/r/{room.code}/rounds/1/results.json"
    seated_only = await db(lambda: HttpClient(REMOTE_ADDR=ADDRESS).get(seated))()
    assert seated_only.status_code == 403
    for client in (ann, bob, spectator, late):
        await client.socket.disconnect(timeout=10)


async def test_a_spectator_cannot_play_write_or_run_the_room(
    game_data_committed: Dictionary,
) -> None:
    room, host, host_key = await db(make_room)({**FIXED_ROOM, "duration": 0})
    ann = Frames(await connect(room, host_key))
    await ann.until("snapshot")
    await ann.send({"type": "start_round"})
    await ann.until(protocol.ROUND_STARTED)
    rnd = await db(Round.objects.get)(room=room)
    await db(reschedule)(rnd, starts_in=-1, ends_in=None)
    spectator = Frames(await watch(room))
    await spectator.until("snapshot")
    attempts: list[dict[str, Any]] = [
        {"type": "submit", "client_id": "x", "word": "sit"},
        {"type": "chat", "text": "psst: SITE"},
        {"type": "end_round"},
        {"type": "start_round"},
        {"type": "hint", "kind": "lengths"},
        {"type": "update_settings", "settings": {"preset": "big"}},
        {"type": "remove_player", "player_id": host.id},
        {"type": "mute_player", "player_id": host.id, "muted": True},
        {"type": "add_bot", "level": "easy", "dictionary": ""},
    ]
    for attempt in attempts:
        await spectator.send(attempt)
        error = await spectator.until("error")
        assert error["code"] == protocol.SPECTATING, attempt
        assert error["message"] == protocol.ERROR_MESSAGES[protocol.SPECTATING]
    await spectator.send({"type": "ping"})
    await spectator.until("pong")

    assert await db(Submission.objects.count)() == 0
    assert await db(ChatMessage.objects.count)() == 0
    assert await db(lambda: Round.objects.get(pk=rnd.pk).status)() == Round.RUNNING
    assert await db(lambda: Player.objects.get(pk=host.id).chat_muted)() is False
    assert await db(Player.objects.filter(room=room).count)() == 1
    for client in (ann, spectator):
        await client.socket.disconnect(timeout=10)


async def test_spectators_have_their_own_cap_and_take_no_seat(
    game_data_committed: Dictionary, settings: Any
) -> None:
    settings.BOGGLE_ROOM_SPECTATORS_MAX = 2
    settings.BOGGLE_ROOM_PLAYERS_MAX = 2
    room, _, _ = await db(make_room)()
    first, second = await watch(room), await watch(room)
    for admitted in (first, second):  # counted (a socket is counted after its accept)
        assert (await admitted.receive_json_from(timeout=WAIT_S))["type"] == "snapshot"
    third = await watch(room)
    refusal = await third.receive_json_from(timeout=WAIT_S)
    closed = await third.receive_output(timeout=WAIT_S)
    _, bob_key = await db(seat)(room, "Bob")  # the second seat: spectators are not players
    bob = await connect(room, bob_key)
    assert (await bob.receive_json_from(timeout=WAIT_S))["type"] == "snapshot"

    assert refusal["code"] == protocol.SPECTATORS_FULL
    assert (closed["type"], closed["code"]) == ("websocket.close", CLOSE_TOO_MANY_SOCKETS)
    assert await db(Spectator.objects.filter(room=room).count)() == 2
    await first.disconnect(timeout=WAIT_S)  # until its row is gone, however slow the machine
    assert await db(Spectator.objects.filter(room=room).count)() == 1
    again = await watch(room)
    assert (await again.receive_json_from(timeout=WAIT_S))["type"] == "snapshot"
    # A spectator row its worker left behind (not seen for a while) no longer counts.
    await db(Spectator.objects.filter(room=room).update)(
        seen_at=clock.now() - clock.PRESENCE_TIMEOUT - timedelta(seconds=1)
    )
    fresh = await watch(room)
    assert (await fresh.receive_json_from(timeout=WAIT_S))["type"] == "snapshot"
    await db(Spectator.objects.filter(room=room).update)(
        seen_at=clock.now() - clock.PRESENCE_TIMEOUT - timedelta(seconds=1)
    )
    assert await db(sweep_once)() == 0  # no round ended; the stale rows go
    assert await db(Spectator.objects.count)() == 0
    for socket in (second, again, fresh, bob):
        await socket.disconnect(timeout=10)


async def test_a_daily_attempt_and_a_room_that_does_not_exist_cannot_be_watched(
    game_data_committed: Dictionary,
) -> None:
    room, _, _ = await db(make_room)()
    await db(Room.objects.filter(pk=room.pk).update)(is_daily=True)
    for code in (room.code, "NOSUCH"):
        socket = WebsocketCommunicator(
            application, f"/ws/rooms/{code}/watch/", headers=[(b"origin", b"http://testserver")]
        )
        connected, close_code = await socket.connect(timeout=10)
        assert (connected, close_code) == (False, CLOSE_NOT_IN_ROOM)
        page = await db(lambda c=code: HttpClient(REMOTE_ADDR=ADDRESS).get(f"/r/{c}/watch/"))()
        assert page.status_code == 404


async def test_guessed_watch_links_count_as_room_guesses_and_are_refused_like_them(
    game_data_committed: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watch socket answered 403 or a snapshot, and its misses went uncounted: 5 guesses a
    second, against 10 a minute over HTTP. Now an address's misses over the socket and over
    HTTP are one count; past it, even a right code is refused, unlooked-up."""
    monkeypatch.setattr(throttle, "_now", lambda: 3600 * 500_000 + 30.0)  # one window
    room, _, _ = await db(make_room)()
    guesser = "198.51.100.77"

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await application({**scope, "client": [guesser, 50_000]}, receive, send)

    async def opens(code: str) -> bool:
        socket = WebsocketCommunicator(
            app, f"/ws/rooms/{code}/watch/", headers=[(b"origin", b"http://testserver")]
        )
        connected, _ = await socket.connect(timeout=10)
        if connected:
            await in_room(socket)
            await socket.disconnect(timeout=10)
        return connected

    assert await opens(room.code)  # a right code: watched, nothing counted
    for n in range(5):
        assert not await opens(f"NOSUC{'BCDFG'[n]}")
    for _ in range(5):
        page = await db(lambda: HttpClient(REMOTE_ADDR=guesser).get("/r/NOSUCH/watch/"))()
        assert page.status_code == 404
    assert not await opens(room.code)  # ten misses in the minute: refused, right code or not
    page = await db(lambda: HttpClient(REMOTE_ADDR=guesser).get(f"/r/{room.code}/watch/"))()
    assert page.status_code == 429
    assert await db(Spectator.objects.count)() == 0


async def test_two_players_chat_and_a_flood_or_an_oversized_line_changes_nothing(
    game_data_committed: Dictionary,
) -> None:
    room, _, ann_key = await db(make_room)()
    _, bob_key = await db(seat)(room, "Bob")
    ann, bob = Frames(await connect(room, ann_key)), Frames(await connect(room, bob_key))
    await ann.until("snapshot")
    await bob.until("snapshot")
    await ann.send({"type": "chat", "text": "<b>hi</b> Bob"})
    heard = await bob.until(protocol.CHAT_MESSAGE)
    assert heard["data"]["message"]["text"] == "<b>hi</b> Bob"
    assert heard["data"]["message"]["nickname"] == "Ann"
    await bob.send({"type": "chat", "text": "x" * (protocol.CHAT_MAX_CHARS + 1)})
    assert (await bob.until("error"))["code"] == protocol.CHAT_TOO_LONG
    for i in range(chat.CHAT_BURST + 3):
        await bob.send({"type": "chat", "text": f"spam {i}"})
    codes = []
    while len(codes) < chat.CHAT_BURST + 3:  # lines and refusals, in whatever order they come
        frame = await bob.socket.receive_json_from(timeout=WAIT_S)
        if frame.get("event") == protocol.CHAT_MESSAGE:
            codes.append("sent")
        elif frame["type"] == "error":
            codes.append(frame["code"])
    await bob.send({"type": "ping"})
    await bob.until("pong")
    stored = await db(
        lambda: list(ChatMessage.objects.order_by("id").values_list("text", flat=True))
    )()

    assert sorted(codes) == [protocol.CHAT_TOO_FAST] * 3 + ["sent"] * chat.CHAT_BURST
    assert stored == ["<b>hi</b> Bob"] + [f"spam {i}" for i in range(chat.CHAT_BURST)]
    # Ann, reconnecting after the last line she saw, gets the ones she missed, in order.
    last_seen = heard["seq"]
    await ann.socket.disconnect(timeout=WAIT_S)
    again = Frames(await connect(room, ann_key, f"?last_seq={last_seen}"))
    await again.send({"type": "ping"})
    await again.until("pong")
    missed = [
        f["data"]["message"]["text"]
        for f in again.frames
        if f.get("event") == protocol.CHAT_MESSAGE
    ]
    assert missed == [f"spam {i}" for i in range(chat.CHAT_BURST)]
    assert not any(f["type"] == "snapshot" for f in again.frames)
    for client in (bob, again):
        await client.socket.disconnect(timeout=10)


def test_the_watch_page_needs_no_seat_and_its_links_say_nothing_before_the_end(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room({**FIXED_ROOM, "duration": 0})
    anyone = HttpClient(REMOTE_ADDR=ADDRESS)
    page = anyone.get(f"/r/{room.code}/watch/")
    data = page.context["client"]
    assert page.status_code == 200 and page.context["spectator"] is True
    assert (data["me"], data["spectator"], data["reportsUrl"]) == (None, True, None)
    assert (data["wsPath"], data["roundsPath"]) == (
        f"/ws/rooms/{room.code}/watch/",
        f"/r/{room.code}/watch/rounds/",
    )
    assert b'data-testid="watching"' in page.content and b"Leave</button>" not in page.content
    rounds.round_start(room=room, player=host, now=clock.now())
    running = f"/r/{room.code}/watch/rounds/1/"
    assert anyone.get(running + "results.json").status_code == 409
    assert anyone.get(running + "words/SITE/definition.json").status_code == 409
    room.refresh_from_db()
    rounds.round_end_by_host(room=room, player=host, now=clock.now())
    assert anyone.get(running + "words/SITE/definition.json").status_code == 200
    assert anyone.get(f"/r/{room.code}/watch/rounds/2/results.json").status_code == 404


# How many watch, as the players see it ----------------------------------------------------


@pytest.fixture
def fresh_spectator_counts() -> Iterator[None]:
    """Start with no spectator count sent or waiting in this process."""
    spectator_counts.SPECTATORS.forget()
    yield
    spectator_counts.SPECTATORS.forget()


async def test_players_see_how_many_watch_as_spectators_come_and_go(
    game_data_committed: Dictionary, fresh_spectator_counts: None
) -> None:
    room, _, ann_key = await db(make_room)()
    ann = Frames(await connect(room, ann_key))
    assert (await ann.until(protocol.SNAPSHOT))["spectators"] == 0
    first = await watch(room)
    assert (await ann.until(protocol.SPECTATORS, count=1))["count"] == 1
    second = await watch(room)
    await ann.until(protocol.SPECTATORS, count=2)
    _, bob_key = await db(seat)(room, "Bob")
    bob = Frames(await connect(room, bob_key))
    assert (await bob.until(protocol.SNAPSHOT))["spectators"] == 2  # a newcomer knows at once
    await first.disconnect(timeout=WAIT_S)
    await ann.until(protocol.SPECTATORS, count=1)
    await bob.until(protocol.SPECTATORS, count=1)
    await second.disconnect(timeout=WAIT_S)
    await ann.until(protocol.SPECTATORS, count=0)
    notices = [f for f in ann.frames if f["type"] == protocol.SPECTATORS]
    assert all(set(f) == {"type", "count", "server_time"} for f in notices)  # a count, no names
    for socket in (ann.socket, bob.socket):
        await socket.disconnect(timeout=WAIT_S)


async def _listen(room: Room) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(room_group(room.id), channel)
    return channel


async def _received(channel: str) -> list[dict[str, Any]]:
    layer, messages = get_channel_layer(), []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), 0.2))
        except TimeoutError:
            return messages


def test_a_crowd_of_spectators_costs_the_room_one_count_per_period(
    game_data: Dictionary,
    fresh_spectator_counts: None,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    room, _, _ = make_room()
    channel = async_to_sync(_listen)(room)
    at = [100.0]
    monkeypatch.setattr(counts, "monotonic", lambda: at[0])

    def run(action: Callable[[], Any]) -> Any:
        """Run a service as the sweeper does, its commit's effects included (the test's own
        transaction never commits: they run as the service returns, into the runner's outbox)."""

        def committed() -> Any:
            with django_capture_on_commit_callbacks(execute=True):
                return action()

        return service_run_sync(committed)

    def open_one(i: int) -> None:
        refusal = run(
            lambda: spectators.spectator_open(
                room_id=room.id, channel=f"watcher-{i}", place=None, now=clock.now()
            )
        )
        assert refusal is None

    def counts_sent() -> list[int]:
        return [m["message"]["count"] for m in async_to_sync(_received)(channel)]

    open_one(0)
    assert counts_sent() == [1]  # the first change goes out at once
    for i in range(1, 8):
        open_one(i)  # seven more within the period: held, not one message each
    assert counts_sent() == []
    at[0] += spectator_counts.SPECTATORS_EVERY_S
    spectator_counts.SPECTATORS.send_due()  # the sweeper's next tick sends the count now, once
    assert counts_sent() == [8]
    run(lambda: spectators.spectator_close(channel="watcher-3", place=None))
    assert counts_sent() == []  # sent less than a period ago: it waits
    at[0] += spectator_counts.SPECTATORS_EVERY_S
    spectator_counts.SPECTATORS.send_due()
    assert counts_sent() == [7]
