"""No frame the server sends exceeds the limit daphne enforces both ways
(settings.WEBSOCKET_MAX_FRAME_BYTES, its --websocket-max-message-size): each kind is bounded by
construction, a snapshot too large for one frame is split, and the consumer refuses (and logs)
anything over the limit instead of letting daphne close the socket with 1011."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings

from games import protocol
from games.models import Player, Room, RoomEvent, Round, Submission
from games.protocol import MAX_CLIENT_ID, MAX_PATH_CELLS, MAX_WORD_LETTERS
from games.rooms.selectors import events_since, room_snapshot, snapshot_frames
from games.rounds import services as rounds
from games.rounds.selectors import board_data, round_ended_data, round_public, word_counts
from games.rules import clock
from games.rules.room_settings import MAX_SIDE
from games.seats.selectors import player_data
from games.seats.services import NICKNAME_MAX
from solver.models import Dictionary
from tests.games.conftest import connect, make_room, receive_until, seat

pytestmark = pytest.mark.django_db
db = database_sync_to_async

PLAYERS = 400  # above any per-room cap the settings allow ("a few hundred")
WORDS = 3000  # one player's words on a 10×10 board, each as long as the protocol allows
SERVER_TIME = 17_637_120_010_000  # a stamp longer than any real one (ms since the epoch)
# Letters outside the Basic Multilingual Plane: 12 bytes each once JSON-escaped, the most a
# character can cost; nicknames may use any letter.
WIDE = "𝐀𝐁𝐂𝐃𝐄𝐅𝐆𝐇𝐈𝐉𝐊𝐋𝐌𝐍𝐎𝐏𝐐𝐑𝐒𝐓𝐔𝐕𝐖𝐗𝐘𝐙"


def sent_size(message: dict[str, Any]) -> int:
    """Return the bytes of a frame as the consumer sends it (stamped with the server time)."""
    return len(protocol.dump({**message, "server_time": SERVER_TIME}).encode())


def widest_name(n: int) -> str:
    """Return a distinct nickname of NICKNAME_MAX of the costliest letters."""
    digits = "".join(WIDE[int(d)] for d in str(n))
    return (WIDE * 2)[: NICKNAME_MAX - len(digits)] + digits


def crowded_round() -> tuple[Room, Player, Round]:
    """Return a room of PLAYERS seats with the widest names, in a running 10×10 round where
    the host has WORDS words of the longest shape and everyone else one."""
    settings = {"preset": "custom", "dice": "english-letters", "rows": MAX_SIDE, "cols": MAX_SIDE}
    room, host, _ = make_room(settings)
    Player.objects.filter(pk=host.pk).update(nickname=widest_name(0), total_score=10**9)
    Player.objects.bulk_create(
        Player(
            room=room,
            nickname=widest_name(n),
            total_score=10**9,
            connections=1,
            bot_level="humbling",
        )
        for n in range(1, PLAYERS)
    )
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=6)
    path = list(range(MAX_PATH_CELLS))
    Submission.objects.bulk_create(
        [
            Submission(
                round=rnd,
                player=host,
                word=f"{n:07d}".translate(str.maketrans("0123456789", "ABCDEFGHIJ")).ljust(
                    MAX_WORD_LETTERS, "Q"
                ),
                path=path,
                points=11,
                client_id=(str(n) + WIDE * 3)[:MAX_CLIENT_ID],
            )
            for n in range(WORDS)
        ]
        + [
            Submission(round=rnd, player=p, word="TEA", path=[0, 1, 2], points=1, client_id="c")
            for p in Player.objects.filter(room=room).exclude(pk=host.pk)
        ]
    )
    return room, Player.objects.get(pk=host.pk), rnd


def test_a_snapshot_too_large_for_a_frame_is_split_into_frames_that_fit(
    game_data: Dictionary,
) -> None:
    room, host, _ = crowded_round()
    whole = room_snapshot(room, host, clock.now())
    limit = django_settings.WEBSOCKET_MAX_FRAME_BYTES
    assert sent_size(whole) > 20 * limit  # megabytes: the worst case is real
    frames = snapshot_frames(room_snapshot(room, host, clock.now()))
    assert all(sent_size(frame) <= limit for frame in frames)
    head, *more = frames
    assert head["type"] == "snapshot" and {m["type"] for m in more} == {"snapshot_more"}
    assert all(m["seq"] == head["seq"] for m in more)
    # Nothing is lost, nothing doubled, in order: the client adds the parts to the head.
    players = head["players"] + [p for m in more for p in m["players"]]
    words = head["round"]["my_words"] + [w for m in more for w in m["my_words"]]
    assert players == whole["players"] and len(players) == PLAYERS
    assert words == whole["round"]["my_words"] and len(words) == WORDS
    assert {k: v for k, v in head.items() if k not in ("players", "round")} == {
        k: v for k, v in whole.items() if k not in ("players", "round")
    }
    # Each part is filled: as few frames as the budget allows, give or take one per list.
    assert len(more) <= sent_size(whole) // (limit - 2048) + 2


def test_a_snapshot_that_fits_goes_whole(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    whole = room_snapshot(room, host, clock.now())
    assert snapshot_frames(whole) == [whole]


def test_every_other_frame_is_bounded_far_below_the_limit(game_data: Dictionary) -> None:
    """The worst case of each: the largest board, the widest names, the most players."""
    room, host, rnd = crowded_round()
    now = clock.now()
    rnd.status = Round.FINISHED  # a finished round shows its board: the largest round_public
    bound = django_settings.WEBSOCKET_MAX_FRAME_BYTES // 4
    players = list(Player.objects.filter(room=room))
    frames = {
        "round_started": protocol.event(1, "round_started", {"round": round_public(rnd, now)}),
        "round_ended": protocol.event(1, "round_ended", round_ended_data(rnd, room.code, now)),
        "board": protocol.board(rnd.number, board_data(rnd.board)),
        "player_joined": protocol.event(1, "player_joined", {"player": player_data(host, room)}),
        "settings_changed": protocol.event(1, "settings_changed", {"settings": room.settings}),
        "word_counts": protocol.word_counts(1, word_counts([rnd.id])[rnd.id]),
        "submit_result": protocol.submit_result(
            (WIDE * 3)[:MAX_CLIENT_ID],
            "Q" * MAX_WORD_LETTERS,
            accepted=True,
            points=11,
            path=list(range(MAX_PATH_CELLS)),
        ),
        # An error may quote what the client sent: at most a whole client frame of it.
        "error": protocol.error(protocol.BAD_SETTINGS, "𝐀" * (protocol.MAX_FRAME_BYTES // 4)),
    }
    assert len(word_counts([rnd.id])[rnd.id]) == len(players) == PLAYERS
    sizes = {kind: sent_size(frame) for kind, frame in frames.items()}
    assert all(size <= bound for size in sizes.values()), sizes
    # The one that grows with the room: the counts, about 20 bytes a player.
    assert sizes["word_counts"] < 25 * PLAYERS


async def test_the_consumer_sends_a_large_snapshot_in_parts(
    game_data_committed: Dictionary, settings: Any
) -> None:
    room, host, host_key = await db(make_room)()
    for n in range(30):
        await db(seat)(room, f"Player {n}")
    settings.WEBSOCKET_MAX_FRAME_BYTES = 2048  # thirty players' snapshot takes four frames
    socket = await connect(room, host_key)
    head = await receive_until(socket, "snapshot")
    seen = list(head["players"])
    while len(seen) < 31:
        more = await receive_until(socket, "snapshot_more")
        assert more["seq"] == head["seq"] and more["my_words"] == []
        seen += more["players"]
    assert sorted(p["nickname"] for p in seen)[:2] == ["Ann", "Player 0"]
    await socket.disconnect(timeout=10)


async def test_a_frame_over_the_limit_is_refused_and_logged_and_the_socket_lives(
    game_data_committed: Dictionary, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    room, _, host_key = await db(make_room)()
    socket = await connect(room, host_key)
    await receive_until(socket, "snapshot")
    settings.WEBSOCKET_MAX_FRAME_BYTES = 120  # under a player_joined event, over a pong
    with caplog.at_level(logging.ERROR, logger="games.rooms.consumer"):
        await db(seat)(room, "Bob")  # its player_joined event cannot be sent
        await socket.send_json_to({"type": "ping"})
        assert (await receive_until(socket, "pong"))["type"] == "pong"
    assert any("not sending a event frame" in r.getMessage() for r in caplog.records)
    await socket.send_json_to({"type": "ping"})
    assert (await receive_until(socket, "pong"))["type"] == "pong"  # still open
    await socket.disconnect(timeout=10)


def test_a_stored_round_ended_with_its_results_is_replayed_as_an_announcement(
    game_data: Dictionary,
) -> None:
    """Events stored before results moved to HTTP carried them whole; a client catching up
    gets the announcement and the URL instead."""
    room, host, _ = make_room()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=6)
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    event = RoomEvent.objects.get(room=room, type="round_ended")
    event.payload = {"results": rnd.results}  # the old shape
    event.save(update_fields=["payload"])
    (replayed,) = events_since(room, event.seq - 1)
    assert replayed["data"] == {
        "round": rnd.results["round"],
        "results_url": f"/r/{room.code}/rounds/{rnd.number}/results.json",
    }
