"""The arena's socket and pages: dropping in, playing a word, the host's commands refused,
a forged arena refused, each player's own results over HTTP, and the arena's chat: open
between rounds, closed while a board is in play (docs/arena.md)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games import protocol
from games.accounts.record import ARENA, player_record
from games.accounts.services import account_delete
from games.arena import services as arena_service
from games.arena.selectors import arena_snapshot, arena_snapshot_frames
from games.chat.selectors import CHAT_SHOWN
from games.chat.services import CHAT_BURST
from games.identity import COOKIE_NAME, account_identity, cookie_value, identities_of_player
from games.models import Arena, ArenaEntry, ChatMessage, Player, Room, Round, Submission
from games.realtime import relay as local_relay
from games.realtime.outbox import relay_group
from games.realtime.relay import relay_join, relay_joined, relay_leave, relay_sockets
from games.rounds.selectors import results_url
from games.rounds.services import round_end
from games.rounds.submissions import submission_create
from games.rules import clock
from tests.fixed_dice import FIXED_DICE_SLUG, FIXED_WORDS_ALGS4
from tests.games.conftest import application, in_room, new_identity, receive_until

pytestmark = pytest.mark.django_db
db = database_sync_to_async
ADDRESS = "198.18.200.15"  # its own: the forged slugs' 404s must not count against others


def open_arena(started_ago: float = 5) -> Arena:
    """An arena on the fixed 2×2 dice whose first round began `started_ago` seconds ago."""
    return arena_service.arena_create(
        slug="test", name="Test arena", now=clock.now() - timedelta(seconds=started_ago),
        dice=FIXED_DICE_SLUG, band="", min_length=3,
    )  # fmt: skip


def drop_in(arena: Arena, nickname: str) -> tuple[Player, str]:
    identity = new_identity()
    player = arena_service.arena_join(arena=arena, identity=identity, nickname=nickname)
    return player, cookie_value(identity)


async def connect(slug: str, cookie: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application,
        f"/ws/arena/{slug}/",
        headers=[
            (b"cookie", f"{COOKIE_NAME}={cookie}".encode()),
            (b"origin", b"http://testserver"),
        ],
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await in_room(communicator)
    return communicator


async def ann_and_bob_in(
    arena: Arena,
) -> tuple[tuple[Player, str], tuple[Player, str], list[WebsocketCommunicator]]:
    """Seat Ann and Bob in the arena (each with their identity cookie) and connect each,
    past their snapshot."""
    ann, bob = await db(drop_in)(arena, "Ann"), await db(drop_in)(arena, "Bob")
    sockets = [await connect("test", key) for _, key in (ann, bob)]
    for socket in sockets:
        await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    return ann, bob, sockets


def browser(cookie: str = "") -> Client:
    client = Client(REMOTE_ADDR=ADDRESS)
    if cookie:
        client.cookies[COOKIE_NAME] = cookie
    return client


def round_played(arena: Arena, found: list[tuple[Player, str]]) -> Round:
    """Store the arena's round under way, find these words in it, and end it."""
    rnd = arena_service.arena_round_ensure(arena=arena, now=clock.now())
    assert rnd is not None
    for player, word in found:
        submission_create(
            player_id=player.id, room_id=arena.room_id, client_id=word, word=word, path=None,
            now=clock.now(),
        )  # fmt: skip
    assert round_end(round_id=rnd.id, now=clock.now(), force=True)
    return rnd


async def test_a_player_drops_in_plays_and_sees_no_one_elses_words(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)()
    ann, ann_key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", ann_key)
    snapshot = await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    assert snapshot["me"] == ann.id and "players" not in snapshot
    assert snapshot["round"]["number"] == 1 and snapshot["round"]["my_words"] == []
    left = snapshot["round"]["ends_at"] - snapshot["server_time"]
    assert 110_000 <= left <= 115_000  # joined the round under way with the time it has left
    await socket.send_json_to({"type": "submit", "client_id": "a1", "word": "site"})
    answer = await receive_until(socket, protocol.SUBMIT_RESULT)
    assert answer["accepted"] and answer["word"] == "SITE"
    await socket.disconnect(timeout=10)


async def test_nobody_can_start_end_or_set_an_arena_round(game_data_committed: object) -> None:
    arena = await db(open_arena)()
    _, key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", key)
    await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    for message in (
        {"type": "start_round"},
        {"type": "end_round"},
        {"type": "update_settings", "settings": {"preset": "big"}},
        {"type": "add_bot", "level": "easy"},
    ):
        await socket.send_json_to(message)
        error = await receive_until(socket, protocol.ERROR)
        assert error["code"] == protocol.ARENA_RULES
    assert await db(Round.objects.filter(room=arena.room).count)() == 1
    assert await db(lambda: Round.objects.get(room=arena.room).status)() == Round.RUNNING
    await socket.disconnect(timeout=10)


async def test_a_forged_arena_or_a_browser_without_a_seat_is_refused(
    game_data_committed: object,
) -> None:
    await db(open_arena)()
    _, key = await db(drop_in)(await db(Arena.objects.get)(slug="test"), "Ann")
    forged = WebsocketCommunicator(
        application, "/ws/arena/nope/", headers=[(b"cookie", f"{COOKIE_NAME}={key}".encode())]
    )
    connected, code = await forged.connect(timeout=10)
    assert not connected and code == 4403
    stranger = WebsocketCommunicator(application, "/ws/arena/test/")
    connected, code = await stranger.connect(timeout=10)
    assert not connected and code == 4403


def test_a_forged_arena_page_is_a_clear_404(game_data: object) -> None:
    open_arena()
    assert browser().get("/arena/nope/").status_code == 404
    response = browser().post("/arena/nope/join/", {"nickname": "Ann"})
    assert response.status_code == 404
    assert not Player.objects.exists()


def test_dropping_in_takes_a_seat_once_and_shows_the_arena(game_data: object) -> None:
    arena = open_arena()
    client = browser()
    page = client.get("/arena/test/")
    assert page.status_code == 200 and b'data-testid="arena-join"' in page.content
    refused = client.post("/arena/test/join/", {"nickname": "<b>"})
    assert refused.status_code == 400 and not Player.objects.exists()
    joined = client.post("/arena/test/join/", {"nickname": "Ann"})
    assert joined.status_code == 302 and joined["Location"] == "/arena/test/"
    page = client.get("/arena/test/")
    assert b"arena-data" in page.content and b"/ws/arena/test/" in page.content
    client.post("/arena/test/join/", {"nickname": "Ann again"})
    assert list(Player.objects.filter(room=arena.room).values_list("nickname", flat=True)) == [
        "Ann"
    ]
    home = browser().get("/")
    assert b'href="/arena/test/"' in home.content


def test_a_player_fetches_their_own_results_never_everyones(game_data: object) -> None:
    arena = open_arena()
    ann, ann_key = drop_in(arena, "Ann")
    bob, bob_key = drop_in(arena, "Bob")
    rnd = round_played(arena, [(ann, "SITE"), (ann, "TIES"), (bob, "SITE")])
    url = results_url(arena.room.code, rnd.number)
    mine = browser(bob_key).get(url).json()
    assert mine["arena"]["rank"] == 2 and mine["arena"]["only_me"] == []
    theirs = {p["id"]: p["words"] for p in mine["players"]}
    assert theirs[ann.id] == [] and [w["word"] for w in theirs[bob.id]] == ["SITE"]
    assert "TIES" not in str([p["words"] for p in mine["players"]])
    assert {w["word"] for w in mine["solution"]} == FIXED_WORDS_ALGS4
    annes = browser(ann_key).get(url).json()
    assert annes["arena"]["only_me"] == ["TIES"] and annes["arena"]["percentile"] == 50
    assert Submission.objects.filter(round=rnd).count() == 3


def test_arena_rounds_join_the_players_record_and_open_again(game_data: object) -> None:
    arena = open_arena()
    ann, ann_key = drop_in(arena, "Ann")
    round_played(arena, [(ann, "TIES")])
    assert ann.identity is not None
    record = player_record(identities_of_player(ann.identity))
    assert [(r.kind, r.number, r.score, r.rank, r.players) for r in record.rounds] == [
        (ARENA, 1, 1, 1, 1)
    ]
    assert record.words == 1 and record.longest is not None and record.longest.word == "TIES"
    page = browser(ann_key).get("/me/")
    assert b"Arena, round 1" in page.content
    past = browser(ann_key).get(f"/r/{arena.room.code}/rounds/1/")
    assert past.status_code == 200 and b"Test arena" in past.content
    assert browser().get(f"/r/{arena.room.code}/rounds/1/").status_code == 404  # not theirs


async def test_the_arena_room_is_not_played_as_a_room(game_data_committed: object) -> None:
    arena = await db(open_arena)()
    _, key = await db(drop_in)(arena, "Ann")
    room_socket = WebsocketCommunicator(
        application,
        f"/ws/rooms/{arena.room.code}/",
        headers=[(b"cookie", f"{COOKIE_NAME}={key}".encode())],
    )
    connected, code = await room_socket.connect(timeout=10)
    assert not connected and code == 4403


def test_the_arena_room_pages_lead_to_the_arena(game_data: object) -> None:
    arena = open_arena()
    assert browser().get(f"/r/{arena.room.code}/")["Location"] == "/arena/test/"
    joined = browser().post(f"/r/{arena.room.code}/join/", {"nickname": "Ann"})
    assert joined["Location"] == "/arena/test/" and not Player.objects.exists()


def test_deleting_an_account_keeps_the_arena_and_leaves_its_name_nowhere(
    game_data: object,
) -> None:
    arena = open_arena()
    user = User.objects.create_user("annika", password="a long password 1")
    ann = arena_service.arena_join(arena=arena, identity=account_identity(user), nickname="Annika")
    rnd = round_played(arena, [(ann, "TIES")])
    account_delete(user=user, now=clock.now())
    assert Arena.objects.filter(pk=arena.pk, room=arena.room).exists()  # the arena goes on
    rnd.refresh_from_db()
    assert "Annika" not in json.dumps(rnd.results)
    assert "Annika" not in ArenaEntry.objects.get(round=rnd).nickname
    assert arena_service.arena_round_ensure(arena=arena, now=clock.now()) is not None


def test_an_admin_adds_an_arena_and_retimes_it(game_data: object) -> None:
    admin = User.objects.create_superuser("root", password="a long password 1")
    client = browser()
    client.force_login(admin)
    assert client.get("/admin/games/arena/add/").status_code == 200
    fields = {
        "slug": "five", "name": "Arena 5×5", "is_active": "on", "order": "1",
        "dice": FIXED_DICE_SLUG, "rows": "4", "cols": "4", "dictionary": "", "min_length": "3",
        "scoring": "classic", "adjacency": "king", "band": "", "min_words": "0",
        "play_seconds": "120", "results_seconds": "30",
    }  # fmt: skip
    added = client.post("/admin/games/arena/add/", fields)
    assert added.status_code == 302, added.content
    arena = Arena.objects.get(slug="five")
    assert arena.room.is_arena and arena.room.code == "AFIVE"
    refused = client.post(f"/admin/games/arena/{arena.pk}/change/", {**fields, "dice": "nope"})
    assert refused.status_code == 200 and b"no dice set" in refused.content
    changed = client.post(
        f"/admin/games/arena/{arena.pk}/change/", {**fields, "play_seconds": "60"}
    )
    assert changed.status_code == 302
    arena.refresh_from_db()
    assert arena.play_seconds == 60 and arena.round_base == 1  # from round 2 on
    assert browser().get("/arena/five/").status_code == 200


# Chat ----------------------------------------------------------------------------------

RESULTS_AGO = 130  # seconds since the epoch: round 1's play (120 s) is over, round 2 is due in 20


async def line_echoed(socket: WebsocketCommunicator, text: str) -> dict[str, object]:
    """Return the chat event of this line as the socket receives it."""
    while True:
        event = await receive_until(socket, protocol.CHAT_MESSAGE)
        if event["data"]["message"]["text"] == text:
            return event


async def chat_lines(socket: WebsocketCommunicator) -> list[dict[str, object]]:
    """Return the frames a socket receives up to the answer to a ping (all it was sent)."""
    await socket.send_json_to({"type": "ping"})
    frames = []
    while (frame := await socket.receive_json_from(timeout=5))["type"] != protocol.PONG:
        frames.append(frame)
    return frames


async def test_the_arena_chat_is_open_through_the_results_until_the_next_board(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)(started_ago=RESULTS_AGO)
    ann, key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", key)
    snapshot = await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    next_round = snapshot["round"]
    assert next_round["number"] == 2 and next_round["starts_at"] > snapshot["server_time"]
    assert snapshot["chat"] == []
    await socket.send_json_to({"type": "chat", "text": "  gg <b>all</b>  "})
    line = await receive_until(socket, protocol.CHAT_MESSAGE)
    assert line["data"]["message"]["text"] == "gg <b>all</b>"
    assert line["data"]["message"]["player_id"] == ann.id
    await socket.send_json_to({"type": "mute_player", "player_id": ann.id, "muted": True})
    assert (await receive_until(socket, protocol.ERROR))["code"] == protocol.ARENA_RULES
    await socket.disconnect(timeout=10)


async def test_the_arena_chat_is_closed_while_a_board_is_in_play_and_stores_nothing(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)()
    _, key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", key)
    snapshot = await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    assert snapshot["round"]["status"] == Round.RUNNING
    await socket.send_json_to({"type": "chat", "text": "try SITE"})
    error = await receive_until(socket, protocol.ERROR)
    assert error["code"] == protocol.CHAT_CLOSED
    assert error["message"] == protocol.ERROR_MESSAGES[protocol.CHAT_CLOSED]
    assert not await db(ChatMessage.objects.exists)()
    assert await db(lambda: Room.objects.get(pk=arena.room_id).seq)() == snapshot["seq"]
    await socket.disconnect(timeout=10)


async def test_a_player_writes_five_arena_lines_in_ten_seconds_across_tabs(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)(started_ago=RESULTS_AGO)
    ann, key = await db(drop_in)(arena, "Ann")
    _, bob_key = await db(drop_in)(arena, "Bob")
    tabs = [await connect("test", key), await connect("test", key)]
    bob = await connect("test", bob_key)
    for socket in (*tabs, bob):
        await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    for i in range(CHAT_BURST):
        tab = tabs[i % 2]
        await tab.send_json_to({"type": "chat", "text": f"line {i}"})
        await line_echoed(tab, f"line {i}")
    await tabs[1].send_json_to({"type": "chat", "text": "one too many"})
    assert (await receive_until(tabs[1], protocol.ERROR))["code"] == protocol.CHAT_TOO_FAST
    await bob.send_json_to({"type": "chat", "text": "Bob is not held up by Ann"})
    await line_echoed(bob, "Bob is not held up by Ann")
    assert await db(ChatMessage.objects.filter(player=ann).count)() == CHAT_BURST
    assert not await db(ChatMessage.objects.filter(text="one too many").exists)()
    for socket in (*tabs, bob):
        await socket.disconnect(timeout=10)


async def test_a_reconnecting_arena_socket_gets_the_lines_it_missed_once(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)(started_ago=RESULTS_AGO)
    _, ann_key = await db(drop_in)(arena, "Ann")
    _, bob_key = await db(drop_in)(arena, "Bob")
    ann = await connect("test", ann_key)
    await receive_until(ann, protocol.ARENA_SNAPSHOT, timeout=20)
    bob = await connect("test", bob_key)
    seen = (await receive_until(bob, protocol.ARENA_SNAPSHOT, timeout=20))["seq"]
    await bob.disconnect(timeout=10)
    for text in ("first", "second"):
        await ann.send_json_to({"type": "chat", "text": text})
        await line_echoed(ann, text)
    back = WebsocketCommunicator(
        application,
        f"/ws/arena/test/?last_seq={seen}",
        headers=[(b"cookie", f"{COOKIE_NAME}={bob_key}".encode())],
    )
    assert (await back.connect(timeout=10))[0]
    frames = await chat_lines(back)
    assert [f["type"] for f in frames] == [protocol.EVENT, protocol.EVENT]  # no snapshot
    assert [f["data"]["message"]["text"] for f in frames] == ["first", "second"]
    assert [f["seq"] for f in frames] == [seen + 1, seen + 2]
    await back.disconnect(timeout=10)
    fresh = await connect("test", bob_key)
    snapshot = await receive_until(fresh, protocol.ARENA_SNAPSHOT, timeout=20)
    assert [line["text"] for line in snapshot["chat"]] == ["first", "second"]
    await fresh.disconnect(timeout=10)
    await ann.disconnect(timeout=10)


async def test_an_admin_deletes_an_arena_line_and_it_leaves_every_screen(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)(started_ago=RESULTS_AGO)
    _, key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", key)
    await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    await socket.send_json_to({"type": "chat", "text": "something rude"})
    line = (await receive_until(socket, protocol.CHAT_MESSAGE))["data"]["message"]

    def delete_as_admin() -> int:
        admin = User.objects.create_superuser("boss", password="a long password 1")
        client = browser()
        client.force_login(admin)
        answer = client.post(
            "/admin/games/chatmessage/",
            {"action": "delete_selected", "_selected_action": [line["id"]], "post": "yes"},
        )
        return answer.status_code

    assert await db(delete_as_admin)() == 302
    deleted = await receive_until(socket, protocol.CHAT_DELETED)
    assert deleted["data"] == {"ids": [line["id"]]}
    assert not await db(ChatMessage.objects.exists)()
    await socket.disconnect(timeout=10)
    again = await connect("test", key)
    snapshot = await receive_until(again, protocol.ARENA_SNAPSHOT, timeout=20)
    assert snapshot["chat"] == []
    await again.disconnect(timeout=10)


def test_the_arena_snapshot_carries_the_latest_lines_and_does_not_grow_with_players(
    game_data: object,
) -> None:
    arena = open_arena(started_ago=RESULTS_AGO)
    ann, _ = drop_in(arena, "Ann")
    ChatMessage.objects.bulk_create(
        ChatMessage(
            room=arena.room,
            player=ann,
            nickname="Ann",
            text=f"{i:03} " + "ü" * 290,
            created_at=clock.now(),
        )  # fmt: skip
        for i in range(CHAT_SHOWN + 10)
    )
    alone = arena_snapshot(arena, ann, clock.now())
    assert [line["text"][:3] for line in alone["chat"]] == [
        f"{i:03}" for i in range(10, CHAT_SHOWN + 10)
    ]
    for i in range(100):
        drop_in(arena, f"Player {i}")
    crowded = arena_snapshot(arena, ann, clock.now())
    assert protocol.size(crowded) == protocol.size(alone)  # a hundred more, not a byte more
    frames = arena_snapshot_frames(arena, ann, clock.now(), max_bytes=8000)
    assert frames[0]["type"] == protocol.ARENA_SNAPSHOT and frames[0]["chat"] == []
    assert all(protocol.size(frame) <= 8000 for frame in frames)
    assert {frame["type"] for frame in frames[1:]} == {protocol.SNAPSHOT_MORE}
    assert [line for frame in frames[1:] for line in frame["chat"]] == alone["chat"]


def results_put_together(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Put a player's arena_results frames together as static/js/arena.js does."""
    first, rest = frames[0], frames[1:]
    assert [f["part"] for f in frames] == list(range(first["parts"]))
    mine = first["mine"]
    row = next((p for p in mine["players"] if p["id"] == mine["id"]), None)
    own = {w["word"] for w in row["words"]} if row else set()
    solution = [w for frame in rest for w in frame["solution"]]
    return {
        **first["shared"], "players": mine["players"], "arena": mine["arena"],
        "solution": [{**w, "found_by": [mine["id"]] if w["word"] in own else []} for w in solution],
    }  # fmt: skip


async def results_frames(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Return the arena_results frames that follow the round's end on a socket."""
    await receive_until(socket, protocol.ROUND_ENDED, timeout=20)
    first = await receive_until(socket, protocol.ARENA_RESULTS, timeout=20)
    frames = [first]
    while len(frames) < first["parts"]:
        frames.append(await receive_until(socket, protocol.ARENA_RESULTS, timeout=20))
    return frames


@pytest.mark.parametrize("slice_bytes", [65536, 400])
async def test_each_player_gets_their_own_results_on_the_socket_at_time_up(
    game_data_committed: object, monkeypatch: pytest.MonkeyPatch, slice_bytes: int
) -> None:
    slices = protocol.arena_results_parts  # 400: the solution in several slices
    monkeypatch.setattr(
        protocol, "arena_results_parts", lambda words, _: slices(words, slice_bytes)
    )
    arena = await db(open_arena)()
    (ann, ann_key), (bob, bob_key), sockets = await ann_and_bob_in(arena)
    rnd = await db(round_played)(arena, [(ann, "SITE"), (ann, "TIES"), (bob, "SITE")])
    url = results_url(arena.room.code, rnd.number)
    for socket, player, key in zip(sockets, (ann, bob), (ann_key, bob_key), strict=True):
        frames = await results_frames(socket)
        assert (len(frames) > 2) == (slice_bytes == 400)
        assert all(len(json.dumps(f, separators=(",", ":"))) <= slice_bytes for f in frames[1:])
        # Exactly what the player's HTTP results say, without anyone else's words.
        over_http = await db(lambda k=key: browser(k).get(url).json())()
        assert results_put_together(frames) == over_http
        others = [p["words"] for p in frames[0]["mine"]["players"] if p["id"] != player.id]
        assert others == [[]]
        await socket.disconnect(timeout=10)
    bobs = results_put_together(frames)
    assert bobs["arena"]["rank"] == 2 and bobs["arena"]["only_me"] == []
    assert {w["word"] for w in bobs["solution"]} == FIXED_WORDS_ALGS4


async def test_results_too_large_for_a_frame_are_fetched_over_http(
    game_data_committed: object, settings: Any
) -> None:
    settings.WEBSOCKET_MAX_FRAME_BYTES = 700  # the snapshot fits, the player's own part not
    arena = await db(open_arena)()
    ann, ann_key = await db(drop_in)(arena, "Ann")
    socket = await connect("test", ann_key)
    await receive_until(socket, protocol.ARENA_SNAPSHOT, timeout=20)
    rnd = await db(round_played)(arena, [(ann, word) for word in sorted(FIXED_WORDS_ALGS4)])
    frames = await results_frames(socket)
    assert frames == [
        {
            "type": protocol.ARENA_RESULTS, "round": 1, "parts": 0,
            "results_url": results_url(arena.room.code, rnd.number),
            "server_time": frames[0]["server_time"],
        }
    ]  # fmt: skip
    await socket.disconnect(timeout=10)


def test_a_solution_is_sliced_to_fit_frames_and_put_back_in_order() -> None:
    solution = [{"word": f"W{n:03}", "path": [n % 16] * 6, "points": n % 11} for n in range(300)]
    for max_bytes in (400, 2000, 65536):
        slices = protocol.arena_results_parts(solution, max_bytes)
        frames = protocol.arena_results_frames(7, '{"id":1}', "{}", slices, 123)
        assert all(len(frame) <= max_bytes for frame in frames)
        parsed = [json.loads(frame) for frame in frames]
        assert [f["part"] for f in parsed] == list(range(len(frames)))
        assert {f["parts"] for f in parsed} == {len(frames)}
        assert [w for f in parsed[1:] for w in f["solution"]] == solution
    assert protocol.arena_results_parts([], 65536) == ["[]"]


# The live top, relayed once per worker ------------------------------------------------------


async def test_the_live_top_reaches_every_socket_through_its_workers_relay(
    game_data_committed: object,
) -> None:
    arena = await db(open_arena)()
    (ann, _), _, sockets = await ann_and_bob_in(arena)
    assert relay_sockets(arena.room_id) == 2
    await relay_joined(arena.room_id)

    def counted() -> None:
        arena_service.arena_round_ensure(arena=arena, now=clock.now())
        submission_create(
            player_id=ann.id, room_id=arena.room_id, client_id="w1", word="SITE", path=None,
            now=clock.now(),
        )  # fmt: skip
        assert arena_service.arena_top_send(arena=arena, now=clock.now())

    await db(counted)()
    for socket in sockets:
        top = await receive_until(socket, protocol.ARENA_TOP, timeout=10)
        assert top["top"] == [{"id": ann.id, "nickname": "Ann", "points": 1}]
        assert "SITE" not in json.dumps(top)  # points only, never words
        assert await socket.receive_nothing(timeout=0.3)  # once, not once per socket
    await sockets[0].disconnect(timeout=10)
    assert relay_sockets(arena.room_id) == 1
    await sockets[1].disconnect(timeout=10)
    assert relay_sockets(arena.room_id) == 0  # the worker has left the relay group


class _Written:
    def __init__(self) -> None:
        self.frames: list[str] = []
        self.times: list[float] = []  # the loop's time of each frame written

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        assert text_data is not None
        self.frames.append(text_data)
        self.times.append(asyncio.get_running_loop().time())


async def _relayed(room_id: int, sockets: list[_Written], ats: list[int], frames: int) -> None:
    """Send relay notices counted at `ats` to the room's relay, and wait (up to 10 s) until
    every socket holds `frames` frames."""
    layer = get_channel_layer()
    for at in ats:
        await layer.group_send(
            relay_group(room_id),
            {"type": "relay.notice", "message": {"type": "arena_top", "at": at}},
        )
    for _ in range(1000):
        if all(len(socket.frames) >= frames for socket in sockets):
            return
        await asyncio.sleep(0.01)


async def test_a_relay_writes_each_notice_once_to_each_socket_and_drops_an_older_one() -> None:
    sockets = [_Written() for _ in range(450)]  # many chunks
    for socket in sockets:
        relay_join(991, socket)
    await relay_joined(991)
    await _relayed(991, sockets, [2000, 1000, 3000], 2)  # 1000 arrives late: dropped
    await asyncio.sleep(2 * local_relay.SPREAD_S)  # nothing more comes
    for socket in sockets:
        assert [json.loads(frame)["at"] for frame in socket.frames] == [2000, 3000]
        assert all("server_time" in json.loads(frame) for frame in socket.frames)
    for socket in sockets:
        relay_leave(991, socket)
    assert relay_sockets(991) == 0


async def test_a_relay_spreads_a_notice_over_its_sockets_a_chunk_at_a_time() -> None:
    chunk, spread = local_relay.CHUNK, local_relay.SPREAD_S
    sockets = [_Written() for _ in range(5 * chunk)]
    for socket in sockets:
        relay_join(992, socket)
    await relay_joined(992)
    order = list(local_relay._relays[992].sockets)  # the order the relay writes them in
    await _relayed(992, sockets, [1000], 1)
    first = order[0].times[0]
    for k in range(5):  # chunk k no sooner than k/5 of the spread after the first
        times = [socket.times[0] for socket in order[k * chunk : (k + 1) * chunk]]
        assert min(times) >= first + spread * k / 5 - 0.05  # (the first may be a bit late)
    await _relayed(992, sockets, [2000], 2)  # the next notice: the sockets keep their order
    assert sorted(order, key=lambda socket: socket.times[1]) == order
    for socket in sockets:
        relay_leave(992, socket)


async def test_a_relay_writes_a_few_sockets_at_once_and_skips_one_gone_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_relay, "SPREAD_S", 60.0)  # a pause would show as a minute
    few = [_Written() for _ in range(local_relay.CHUNK)]
    for socket in few:
        relay_join(993, socket)
    await relay_joined(993)
    await _relayed(993, few, [1000], 1)
    assert all(len(socket.frames) == 1 for socket in few)  # one chunk: no pause
    for socket in few:
        relay_leave(993, socket)

    many = [_Written() for _ in range(2 * local_relay.CHUNK)]
    for socket in many:
        relay_join(994, socket)
    await relay_joined(994)
    order = list(local_relay._relays[994].sockets)
    await _relayed(994, order[: local_relay.CHUNK], [1000], 1)  # the first chunk, then a pause
    gone = order[-1]
    relay_leave(994, gone)
    assert gone.frames == []  # left during the pause: its chunk will not write to it
    for socket in order[:-1]:
        relay_leave(994, socket)
    assert relay_sockets(994) == 0
