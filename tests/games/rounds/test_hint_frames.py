"""Every frame a client receives, read whole: with hints on, a hint carries counts and never a
word or a path; with hints off, nothing the server sends before the end is derived from the
solution. And hints over the socket: refusals, the rate limit, and turning them on."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import protocol
from games.identity import cookie_value
from games.limits.buckets import TokenBucket
from games.models import Hint, Round
from games.rules.room_settings import stored_settings
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM, FIXED_WORDS_ALGS4
from tests.games.conftest import connect, make_room, reschedule, seat
from tests.solution_leaks import leaks as solution_leaks

pytestmark = pytest.mark.django_db
db = database_sync_to_async


class Client:
    """A socket and every frame it has received, in order."""

    def __init__(self, socket: WebsocketCommunicator) -> None:
        self.socket = socket
        self.frames: list[dict[str, Any]] = []
        self.submitted: set[str] = set()

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "submit":
            self.submitted.add(message["word"].upper())
        await self.socket.send_json_to(message)

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Return the next frame of a type (or event kind) with these fields, keeping all."""
        while True:
            frame = await self.socket.receive_json_from(timeout=5)
            self.frames.append(frame)
            if kind in (frame["type"], frame.get("event")) and all(
                frame.get(k) == v for k, v in fields.items()
            ):
                return frame


def leaks(value: Any, own: set[str]) -> list[str]:
    """Return where a frame names the fixed board's words the player has not found, or
    holds solution words or paths (tests/solution_leaks.py)."""
    return solution_leaks(value, secret=FIXED_WORDS_ALGS4, own=own)


def test_the_leak_check_sees_a_word_a_path_and_a_list_of_words() -> None:
    assert leaks({"type": "hint", "counts": {"3": 4, "S": 2}}, set()) == []
    assert leaks({"data": {"note": "sit"}}, set()) == [".data.note = 'sit'"]
    assert leaks({"round": {"missed": []}}, set()) == [".round.missed"]
    assert leaks({"word": "TIE", "path": [0, 1, 2]}, {"TIE"}) == []
    assert leaks({"word": "TIE", "path": [0, 1, 2]}, set()) == [".word = 'TIE'", ".path"]
    assert leaks({"board": {"code": "2x2-SITE"}}, set()) == []  # the board is not a word


async def room_with(settings: dict[str, Any]) -> tuple[Any, Client, Client, Round]:
    """Open a room on the fixed board with two players' sockets and start a round that takes
    words now; return the room, both clients (host first) and the round."""
    room, _, ann_key = await db(make_room)({**FIXED_ROOM, "duration": 0, **settings})
    _, bob_key = await db(seat)(room, "Bob")
    ann, bob = Client(await connect(room, ann_key)), Client(await connect(room, bob_key))
    await ann.until("snapshot")
    await bob.until("snapshot")
    await ann.send({"type": "start_round"})
    await ann.until(protocol.ROUND_STARTED)
    await bob.until(protocol.ROUND_STARTED)
    rnd = await db(Round.objects.get)(room=room)
    await db(reschedule)(rnd, starts_in=-1, ends_in=None)
    return room, ann, bob, rnd


async def test_with_hints_on_the_frames_carry_counts_and_never_a_word_or_a_path(
    game_data_committed: Dictionary,
) -> None:
    room, ann, bob, rnd = await room_with({"hints": True, "hint_cost": 1})
    await ann.send({"type": "hint", "kind": "lengths"})
    first = await ann.until("hint")
    await ann.send({"type": "submit", "client_id": "c1", "word": "sit"})
    assert (await ann.until("submit_result"))["accepted"]
    await ann.send({"type": "hint", "kind": "letters"})
    second = await ann.until("hint")
    await bob.send({"type": "hint", "kind": "letters"})
    bobs = await bob.until("hint")
    # A reconnect restores the hints taken, with the counts as they are now.
    again = Client(await connect(room, await db(lambda: ann_session(rnd))()))
    snapshot = await again.until("snapshot")
    await ann.send({"type": "end_round"})
    for client in (ann, bob, again):
        await client.until(protocol.ROUND_ENDED)

    assert (first["counts"], first["taken"], first["cost"]) == ({"3": 4, "4": 2}, 1, 1)
    assert (second["counts"], second["taken"]) == ({"I": 1, "S": 2, "T": 2}, 2)
    assert (bobs["counts"], bobs["taken"]) == ({"I": 1, "S": 3, "T": 2}, 1)
    assert snapshot["round"]["hints"] == {
        "cost": 1, "taken": 2, "counts": {"lengths": {"3": 3, "4": 2}, "letters": second["counts"]},
    }  # fmt: skip
    for client, own in ((ann, {"SIT"}), (bob, set()), (again, {"SIT"})):
        assert client.frames[-1]["event"] == protocol.ROUND_ENDED
        for frame in client.frames:
            assert leaks(frame, own) == [], frame
            if frame["type"] == protocol.HINT:
                assert set(frame) == {"type", "kind", "round", "counts", "taken", "cost"} | {
                    "server_time"
                }
                assert all(k.isdigit() or k in "IST" for k in frame["counts"])
                assert all(isinstance(n, int) for n in frame["counts"].values())
    results = await db(lambda: Round.objects.get(pk=rnd.pk).results)()
    assert {row["nickname"]: row["score"] for row in results["players"]} == {"Ann": -1, "Bob": -1}
    for client in (ann, bob, again):
        await client.socket.disconnect(timeout=10)


def ann_session(rnd: Round) -> str:
    """Return the host's identity cookie (the host's browser opens another tab)."""
    identity = rnd.room.host.identity
    assert identity is not None
    return cookie_value(identity)


async def test_with_hints_off_nothing_sent_before_the_end_comes_from_the_solution(
    game_data_committed: Dictionary,
) -> None:
    room, ann, bob, rnd = await room_with({})
    await ann.send({"type": "hint", "kind": "lengths"})
    refusal = await ann.until("error")
    await bob.send({"type": "hint", "kind": "letters"})
    await bob.until("error", code=protocol.HINTS_OFF)
    await bob.send({"type": "submit", "client_id": "c1", "word": "ties"})
    assert (await bob.until("submit_result"))["accepted"]
    again = Client(await connect(room, await db(lambda: ann_session(rnd))()))
    snapshot = await again.until("snapshot")
    await ann.send({"type": "end_round"})
    for client in (ann, bob, again):
        await client.until(protocol.ROUND_ENDED)

    assert refusal == {
        "type": "error", "code": protocol.HINTS_OFF, "message": "Hints are off in this room.",
        "server_time": refusal["server_time"],
    }  # fmt: skip
    assert "hints" not in snapshot["round"]
    for client, own in ((ann, set()), (bob, {"TIES"}), (again, set())):
        assert protocol.HINT not in {frame["type"] for frame in client.frames}
        for frame in client.frames:
            assert leaks(frame, own) == [], frame
            assert "hints" not in str(frame.get("round", {}))
    assert not await db(Hint.objects.exists)()
    results = await db(lambda: Round.objects.get(pk=rnd.pk).results)()
    assert all("hints" not in row for row in results["players"])
    for client in (ann, bob, again):
        await client.socket.disconnect(timeout=10)


async def test_a_bad_hint_gets_a_clear_error_and_stores_nothing(
    game_data_committed: Dictionary,
) -> None:
    room, ann_player, key = await db(make_room)({**FIXED_ROOM, "duration": 0, "hints": True})
    ann = Client(await connect(room, key))
    await ann.until("snapshot")
    await ann.send({"type": "hint", "kind": "lengths"})  # no round yet
    assert (await ann.until("error"))["code"] == protocol.ROUND_NOT_RUNNING
    await ann.send({"type": "start_round"})
    await ann.until(protocol.ROUND_STARTED)
    await db(reschedule)(await db(Round.objects.get)(room=room), starts_in=-1, ends_in=None)
    for bad in ({"kind": "words"}, {"kind": 3}, {}, {"kind": "lengths", "word": "SIT"}):
        await ann.send({"type": "hint", **bad})
        error = await ann.until("error")
        assert error["code"] in (protocol.BAD_HINT, protocol.BAD_MESSAGE), (bad, error)
    await ann.send({"type": "hint", "kind": "words"})
    assert (await ann.until("error"))[
        "message"
    ] == "There is no such hint: ask for lengths or letters."
    assert not await db(Hint.objects.exists)()
    await ann.send({"type": "hint", "kind": "letters"})  # the socket is still open
    assert (await ann.until("hint"))["taken"] == 1
    await ann.socket.disconnect(timeout=10)


async def test_hints_faster_than_the_limit_are_refused_and_not_charged(
    game_data_committed: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bucket that never refills: the refusal does not depend on how fast the machine is.
    monkeypatch.setattr("games.rooms.consumer.hint_bucket", lambda: TokenBucket(0, 2, 2))
    room, ann, bob, rnd = await room_with({"hints": True})
    for kind in ("lengths", "letters", "lengths"):
        await ann.send({"type": "hint", "kind": kind})
    await ann.until("hint", taken=2)
    assert (await ann.until("error"))["code"] == protocol.RATE_LIMITED
    assert await db(Hint.objects.filter(round=rnd).count)() == 2
    await ann.send({"type": "submit", "client_id": "c1", "word": "tie"})  # other messages pass
    assert (await ann.until("submit_result"))["accepted"]
    for client in (ann, bob):
        await client.socket.disconnect(timeout=10)


async def test_the_host_turns_hints_on_between_rounds(game_data_committed: Dictionary) -> None:
    room, _, key = await db(make_room)(FIXED_ROOM)
    ann = Client(await connect(room, key))
    snapshot = await ann.until("snapshot")
    assert snapshot["room"]["settings"]["hints"] is False
    settings = {**snapshot["room"]["settings"], "hints": True, "hint_cost": 3}
    await ann.send({"type": "update_settings", "settings": settings})
    changed = await ann.until(protocol.SETTINGS_CHANGED)
    assert (changed["data"]["settings"]["hints"], changed["data"]["settings"]["hint_cost"]) == (
        True,
        3,
    )
    await ann.send({"type": "update_settings", "settings": {**settings, "hint_cost": 99}})
    error = await ann.until("error")
    assert error["code"] == protocol.BAD_SETTINGS and "hint_cost" in error["message"]
    stored = await db(lambda: stored_settings(type(room).objects.get(pk=room.pk).settings))()
    assert (stored.hints, stored.hint_cost) == (True, 3)
    await ann.socket.disconnect(timeout=10)
