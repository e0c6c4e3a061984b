"""The HTTP side of the game: creating a room with settings, joining by code or link, and the
room page that hands the browser client what it needs."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games import protocol
from games.models import Player, Room

pytestmark = pytest.mark.usefixtures("shipped_data")


def room_data(html: str) -> dict[str, object]:
    """Return the JSON the room page passes to its script (json_script)."""
    found = re.search(r'<script id="room-data" type="application/json">(.*?)</script>', html)
    assert found, "the room page has no room-data"
    return dict(json.loads(found.group(1)))


def test_home_offers_the_active_dictionaries_and_dice_sets(client: Client) -> None:
    html = client.get("/").content.decode()
    for hook in ("nickname", "create-room", "room-code", "join-room"):
        assert f'data-testid="{hook}"' in html
    assert '<option value="" selected>Default (YAWL)</option>' in html
    assert '<option value="enable2k">ENABLE2K</option>' in html
    assert 'value="english-letters" data-rows="' in html and "data-letters" in html
    assert '<option value="0">Untimed (the host ends it)</option>' in html
    assert '<option value="30">30 s</option>' in html and '<option value="1800">30 min' in html


def test_creating_a_custom_room_keeps_its_settings(client: Client) -> None:
    response = client.post(
        "/",
        {
            "nickname": "Ann",
            "preset": "custom",
            "dictionary": "enable2k",
            "dice": "english-letters",
            "rows": "7",
            "cols": "10",
            "min_length": "4",
            "duration": "0",
            "scoring": "linear",
            "adjacency": "rook",
            "duplicates": "count",
        },
    )
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"
    assert room.settings == {
        "preset": "custom",
        "dictionary": "enable2k",
        "dice": "english-letters",
        "rows": 7,
        "cols": 10,
        "min_length": 4,
        "duration": 0,
        "scoring": "linear",
        "adjacency": "rook",
        "duplicates": "count",
        "band": "",
        "min_words": 0,
        "hints": False,
        "hint_cost": 1,
        "chat_in_rounds": False,
    }


def test_a_preset_ignores_the_board_fields_but_keeps_length_and_dictionary(client: Client) -> None:
    client.post(
        "/",
        {
            "nickname": "Ann",
            "preset": "big",
            "rows": "9",
            "duration": "60",
            "dictionary": "enable2k",
        },
    )
    settings = Room.objects.get().settings
    assert (settings["rows"], settings["cols"], settings["min_length"]) == (5, 5, 4)
    assert (settings["duration"], settings["dictionary"]) == (60, "enable2k")


def test_a_round_shorter_than_thirty_seconds_is_refused_with_a_reason(client: Client) -> None:
    response = client.post("/", {"nickname": "Ann", "preset": "classic", "duration": "10"})
    assert response.status_code == 400
    assert "A round lasts 30 s to 30 min, or is untimed." in response.content.decode()
    assert not Room.objects.exists()


def test_a_nickname_with_markup_is_refused_and_shown_escaped(client: Client) -> None:
    response = client.post("/", {"nickname": "<img src=x onerror=f()>", "preset": "classic"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "letters, digits, spaces" in html
    assert "<img src=x" not in html and "&lt;img src=x onerror=f()&gt;" in html


def test_the_room_page_gives_the_client_its_seat_and_socket(client: Client) -> None:
    client.post("/", {"nickname": "Ann", "preset": "classic"})
    room, ann = Room.objects.get(), Player.objects.get()
    html = client.get(f"/r/{room.code}/").content.decode()
    data = room_data(html)
    assert data["code"] == room.code and data["me"] == ann.id
    assert data["wsPath"] == f"/ws/rooms/{room.code}/"
    assert data["link"] == f"http://testserver/r/{room.code}/"
    assert set(data["presets"]) == {"classic", "big", "superbig", "rook"}  # type: ignore[arg-type]
    for hook in ("board", "word-input", "timer", "feedback", "found-words", "start-round"):
        assert f'data-testid="{hook}"' in html
    assert 'type="module"' in html and "js/room.js" in html


def test_a_room_link_opens_the_join_form_with_the_code_filled_in(client: Client) -> None:
    Client().post("/", {"nickname": "Ann", "preset": "classic"})
    code = Room.objects.get().code
    html = client.get(f"/r/{code.lower()}/").content.decode()
    assert f"Join room {code}" in html
    assert re.search(rf'data-testid="room-code"\s+value="{code}"', html)
    response = client.post("/join/", {"code": f" {code.lower()} ", "nickname": "Bob"})
    assert response.status_code == 302 and response["Location"] == f"/r/{code}/"
    assert room_data(client.get(f"/r/{code}/").content.decode())["me"] == (
        Player.objects.get(nickname="Bob").id
    )


def test_an_unknown_code_says_so_and_keeps_what_was_typed(client: Client) -> None:
    response = client.post("/join/", {"code": "ZZZZZZ", "nickname": "Bob"})
    html = response.content.decode()
    assert response.status_code == 404
    assert "There is no room with that code." in html
    assert 'value="ZZZZZZ"' in html and 'value="Bob"' in html


def test_joining_without_a_nickname_asks_for_one(client: Client) -> None:
    Client().post("/", {"nickname": "Ann", "preset": "classic"})
    code = Room.objects.get().code
    response = client.post(f"/r/{code}/join/", {"nickname": "  "})
    assert response.status_code == 400
    assert "Choose a nickname." in response.content.decode()


def test_the_room_page_hands_the_client_the_servers_close_codes(client: Client) -> None:
    # Defined once (games/protocol.py); static/js/socket.js stops reconnecting on notInRoom.
    client.post("/", {"nickname": "Ann", "preset": "classic"})
    room = Room.objects.get()
    data = room_data(client.get(f"/r/{room.code}/").content.decode())
    assert data["closeCodes"] == protocol.CLOSE_CODES
    assert data["closeCodes"]["notInRoom"] == protocol.CLOSE_NOT_IN_ROOM
