"""What the server sends is a closed set too: named types and event kinds, all documented,
built by name, and nothing else ever reaches a socket."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from games import protocol as p
from games.models import Round
from games.realtime.outbox import event_emit
from solver.models import Dictionary
from tests.games.conftest import connect, make_room, reschedule, seat

ROOT = Path(__file__).resolve().parents[3]
DOCS = (ROOT / "docs" / "protocol.md").read_text()
db = database_sync_to_async


def _server_to_client() -> str:
    return DOCS.split("## Server to client", 1)[1]


@pytest.mark.parametrize("kind", sorted(p.OUTGOING))
def test_every_outgoing_type_is_documented(kind: str) -> None:
    assert f"`{kind}`" in _server_to_client()


@pytest.mark.parametrize("kind", sorted(p.EVENT_KINDS))
def test_every_room_event_kind_is_documented(kind: str) -> None:
    assert f"| `{kind}` |" in _server_to_client()


def test_the_documented_types_are_exactly_the_set() -> None:
    headings = set(re.findall(r"^### `(\w+)`", _server_to_client(), re.MULTILINE))
    headings |= set(re.findall(r"^### `\w+` and `(\w+)`", _server_to_client(), re.MULTILINE))
    assert headings == p.OUTGOING
    rows = set(re.findall(r"^\| `(\w+)` \|", _server_to_client(), re.MULTILINE))
    assert rows == p.EVENT_KINDS


def test_a_message_outside_the_set_is_never_sent() -> None:
    with pytest.raises(ValueError, match="unknown outgoing message type"):
        p.dump({"type": "surprise"})
    with pytest.raises(ValueError, match="unknown room event kind"):
        p.event(1, "surprise", {})
    assert p.dump(p.pong()) == '{"type":"pong"}'


def test_a_room_event_of_an_unknown_kind_is_refused_before_it_is_stored(
    game_data: Dictionary,
) -> None:
    room, _, _ = make_room()
    with pytest.raises(ValueError):
        event_emit(room_id=room.id, kind="surprise", data={})
    assert not room.events.filter(type="surprise").exists()


GAMES = ROOT / "games"


def test_the_server_builds_every_message_by_the_types_name() -> None:
    # A message's type, or a stored event's kind, written as a string instead of its name.
    literal = re.compile(r"""(?:["']type["']\s*:\s*|\bkind=)["']([a-z_]+)["']""")
    found = {
        f"{path.relative_to(ROOT)}: {match}"
        for path in GAMES.rglob("*.py")
        if "management" not in path.parts
        for match in literal.findall(path.read_text())
    }
    assert found == set()


@pytest.mark.django_db(transaction=True)
async def test_a_whole_round_sends_only_types_of_the_set(game_data: Dictionary) -> None:
    room, host, host_key = await db(make_room)()
    _, bob_key = await db(seat)(room, "Bob")
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    await host_socket.send_json_to({"type": "start_round"})
    rnd = None
    seen: list[dict[str, object]] = []
    while True:
        # Generous: the round ends 0.5 s after it starts; a loaded machine may take longer.
        message = await bob_socket.receive_json_from(timeout=20)
        seen.append(message)
        if message.get("event") == p.ROUND_STARTED and rnd is None:
            rnd = await db(Round.objects.get)(room=room)
            await db(reschedule)(rnd, starts_in=-1, ends_in=0.5)
            await bob_socket.send_json_to({"type": "resume", "last_seq": message["seq"]})
            await bob_socket.send_json_to({"type": "submit", "client_id": "c", "word": "zzz"})
            await bob_socket.send_json_to({"type": "ping"})
            await bob_socket.send_json_to({"type": "start_round"})  # not the host: an error
        if message.get("event") == p.ROUND_ENDED:
            break
    assert {m["type"] for m in seen} <= p.OUTGOING
    assert {m["event"] for m in seen if m["type"] == p.EVENT} <= p.EVENT_KINDS
    assert {p.SNAPSHOT, p.BOARD, p.SUBMIT_RESULT, p.PONG, p.ERROR, p.EVENT} <= {
        m["type"] for m in seen
    }
    await host_socket.disconnect(timeout=10)
    await bob_socket.disconnect(timeout=10)
