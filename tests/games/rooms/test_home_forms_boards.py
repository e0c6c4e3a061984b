"""The create-room form's board fields: the richness with its explanation, a given board, and
a link that fills them in (the admin's records page opens a room on a board with one)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Room

pytestmark = pytest.mark.usefixtures("shipped_data")

RECORD_LINK = (
    "/?board=4x4-PERSLATGSINETERS&dice=new16&dictionary=enable2k&rows=4&cols=4"
    "&min_length=3&adjacency=king&scoring=classic"
)


def selected(html: str, name: str) -> str:
    """Return the value of the option selected in the form's select of that name."""
    select = html[html.index(f'name="{name}"') :]
    select = select[: select.index("</select>")]
    found = re.search(r'<option value="([^"]*)"[^>]*\bselected\b', select)
    return found.group(1) if found else ""


def value(html: str, name: str) -> str:
    """Return the value of the form's input of that name."""
    found = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', html, re.S)
    assert found, f"no input {name}"
    shown = re.search(r'\bvalue="([^"]*)"', found.group(0))
    return shown.group(1) if shown else ""


def test_the_richness_is_offered_with_plain_names_and_a_line_that_explains_each(
    client: Client,
) -> None:
    html = client.get("/").content.decode()
    assert selected(html, "richness") == ""
    assert 'data-explain="Any board the dice roll."' in html
    assert (
        'data-explain="Rich: boards in the top 30% but not the top 5% by total points '
        'for these dice and this dictionary."' in html
    )
    assert 'data-explain="Monster: boards in the top 5% by total points' in html
    assert 'data-explain="Gentle: boards in the lowest 35% by total points' in html
    assert ">Minimum words…</option>" in html


def test_a_link_fills_in_the_board_and_its_settings(client: Client) -> None:
    html = client.get(RECORD_LINK).content.decode()
    assert value(html, "board") == "4x4-PERSLATGSINETERS"
    assert selected(html, "preset") == "custom"
    assert selected(html, "dice") == "new16"
    assert selected(html, "dictionary") == "enable2k"
    assert selected(html, "scoring") == "classic" and selected(html, "adjacency") == "king"
    assert value(html, "rows") == "4" and value(html, "min_length") == "3"
    assert '<details class="more" open>' in html
    assert not Room.objects.exists()  # a link shows the form; only posting it makes a room


def test_a_link_with_a_hostile_board_shows_it_as_text(client: Client) -> None:
    html = client.get('/?board="><script>alert(1)</script>').content.decode()
    assert "<script>alert(1)" not in html
    assert value(html, "board") == "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"


def test_posting_the_filled_in_form_opens_a_room_on_that_board(client: Client) -> None:
    response = client.post(
        "/",
        {
            "nickname": "Ann",
            "preset": "custom",
            "dice": "new16",
            "dictionary": "enable2k",
            "board": "4x4-PERSLATGSINETERS",
        },
    )
    room = Room.objects.get()
    assert response.status_code == 302
    assert room.next_board == "4x4-PERSLATGSINETERS"
    assert room.settings["dictionary"] == "enable2k"


def test_a_board_the_dice_cannot_roll_is_refused_on_the_form_with_the_reason(
    client: Client,
) -> None:
    response = client.post(
        "/", {"nickname": "Ann", "preset": "classic", "board": "EEEE/EEEE/EEEE/EEEE"}
    )
    html = response.content.decode()
    assert response.status_code == 400 and not Room.objects.exists()
    assert "That board cannot be played: the dice cannot roll this board: " in html
    assert value(html, "board") == "EEEE/EEEE/EEEE/EEEE"  # kept, to be corrected


@pytest.mark.parametrize(
    ("fields", "band", "min_words"),
    [
        ({"richness": "rich"}, "rich", 0),
        ({"richness": "words", "min_words": "40"}, "", 40),
        ({"richness": ""}, "", 0),
        ({}, "", 0),
    ],
)
def test_the_richness_chosen_on_the_form_is_the_rooms(
    client: Client, fields: dict[str, str], band: str, min_words: int
) -> None:
    response = client.post("/", {"nickname": "Ann", "preset": "big", **fields})
    assert response.status_code == 302
    room = Room.objects.get()
    assert (room.settings["band"], room.settings["min_words"]) == (band, min_words)
    assert room.settings["dice"] == "big25"


def test_a_least_word_count_no_board_reaches_is_refused_on_the_form(client: Client) -> None:
    response = client.post(
        "/", {"nickname": "Ann", "preset": "classic", "richness": "words", "min_words": "4000"}
    )
    html = response.content.decode()
    assert response.status_code == 400 and not Room.objects.exists()
    assert "Those settings cannot be used: 4,000 words is too many" in html
    assert selected(html, "richness") == "words" and value(html, "min_words") == "4000"
