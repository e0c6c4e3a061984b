"""The hint settings through the forms: off unless the host ticks them, with a cost in points,
from the home page to the room and back into the fields the host edits."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Room

pytestmark = pytest.mark.usefixtures("shipped_data")


def hint_fields(html: str, prefix: str) -> tuple[bool, str, bool]:
    """Return what the hint fields show: ticked or not, the cost, and the cost field's state."""
    box = re.search(rf'<input id="{prefix}hints"[^>]*>', html)
    cost = re.search(rf'<input id="{prefix}hint_cost"[^>]*>', html)
    assert box and cost, f"no hint fields with the prefix {prefix}"
    value = re.search(r'value="([^"]*)"', cost.group(0))
    assert value
    return " checked" in box.group(0), value.group(1), " disabled" in cost.group(0)


def test_the_home_page_offers_hints_off_at_one_point(client: Client) -> None:
    assert hint_fields(client.get("/").content.decode(), "id_") == (False, "1", True)


def test_hints_chosen_on_the_home_page_reach_the_room_and_its_settings_fields(
    client: Client,
) -> None:
    form = {"nickname": "Ann", "preset": "classic", "hints": "on", "hint_cost": "3"}
    response = client.post("/", form)
    assert response.status_code == 302
    room = Room.objects.get()
    assert (room.settings["hints"], room.settings["hint_cost"]) == (True, 3)
    page = client.get(response["Location"]).content.decode()
    assert hint_fields(page, "settings-") == (True, "3", False)


def test_hints_left_unticked_are_off(client: Client) -> None:
    client.post("/", {"nickname": "Ann", "preset": "big"})
    room = Room.objects.get()
    assert (room.settings["hints"], room.settings["hint_cost"]) == (False, 1)


def test_a_solo_game_takes_hints_too(client: Client) -> None:
    form = {"nickname": "Ann", "preset": "classic", "hints": "on", "hint_cost": "0", "solo": "1"}
    client.post("/", form)
    room = Room.objects.get()
    assert room.is_solo and (room.settings["hints"], room.settings["hint_cost"]) == (True, 0)


@pytest.mark.parametrize(
    ("cost", "error"),
    [
        ("11", "Hint cost: Ensure this value is less than or equal to 10."),
        ("-1", "Hint cost: Ensure this value is greater than or equal to 0."),
        ("two", "Hint cost: Enter a whole number."),
    ],
)
def test_a_bad_cost_is_refused_and_the_form_keeps_what_was_typed(
    client: Client, cost: str, error: str
) -> None:
    form = {"nickname": "Ann", "preset": "classic", "hints": "on", "hint_cost": cost}
    response = client.post("/", form)
    html = response.content.decode()
    assert response.status_code == 400 and error in html
    assert not Room.objects.exists()
    assert hint_fields(html, "id_") == (True, cost, False)


def test_a_link_may_ask_for_hints(client: Client) -> None:
    html = client.get("/?hints=on&hint_cost=2").content.decode()
    assert hint_fields(html, "id_") == (True, "2", False)
