"""The home page's lists and forms: each dice set named once with its size, and one set of
join fields shared by the home page and the join page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Room
from games.rooms.forms import dice_label
from solver.models import DiceSet

pytestmark = pytest.mark.usefixtures("shipped_data")


def dice_options(html: str) -> dict[str, str]:
    """Return the dice list's options: slug to label."""
    select = html[html.index('name="dice"') :]
    select = select[: select.index("</select>")]
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select))


def test_each_dice_set_states_its_size_once(client: Client) -> None:
    options = dice_options(client.get("/").content.decode())
    assert options["classic16"] == "Classic 4×4 (1983 dice)"
    assert options["big25"] == "Big Boggle 5×5"
    for label in options.values():
        assert len(re.findall(r"\d+\s*[×x]\s*\d+", label)) <= 1, label


def test_a_dice_set_whose_name_lacks_its_size_gets_it_and_letter_sets_get_none() -> None:
    assert dice_label("Travel dice", 3, 3, any_size=False) == "Travel dice (3×3)"
    assert dice_label("Travel 3x3", 3, 3, any_size=False) == "Travel 3x3"
    assert dice_label("English letters", 4, 4, any_size=True) == "English letters"


def test_a_dice_set_made_in_the_admin_shows_its_size(client: Client) -> None:
    fields = {
        f.name: getattr(DiceSet.objects.get(slug="classic16"), f.name) for f in DiceSet._meta.fields
    }
    DiceSet.objects.create(**{**fields, "id": None, "slug": "mine", "name": "My dice"})
    assert dice_options(client.get("/").content.decode())["mine"] == "My dice (4×4)"


def join_fields(html: str, prefix: str) -> str:
    """Return the join fields' markup with what may differ (ids, test ids, values, focus)
    taken out."""
    start = html.index(f'<label for="{prefix}code">')
    end = html.index(">", html.index(f'<input id="{prefix}nickname"')) + 1
    markup = html[start:end].replace(prefix, "")
    markup = re.sub(r'(data-testid="nickname|data-testid="join-nickname)"', "TESTID", markup)
    markup = re.sub(r'value="[^"]*"| autofocus', "", markup)
    return re.sub(r"\s+", " ", markup)


def test_the_join_fields_are_the_same_on_the_home_page_and_the_join_page(client: Client) -> None:
    Client().post("/", {"nickname": "Ann", "preset": "classic"})
    code = Room.objects.get().code
    on_home = join_fields(client.get("/").content.decode(), "id_join_")
    on_join = join_fields(client.get(f"/r/{code}/").content.decode(), "id_")
    assert on_home == on_join
    assert 'maxlength="24"' in on_home and 'maxlength="12"' in on_home


def test_a_refused_join_on_the_home_page_keeps_the_nickname_typed(client: Client) -> None:
    html = client.post("/join/", {"code": "", "nickname": "Bob"}).content.decode()
    assert re.search(r'id="id_join_nickname"[^>]*value="Bob"', html)
