"""The home page offers Everyday English for a quick game, and a room can be made with it."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Room
from solver.models import Dictionary

pytestmark = pytest.mark.usefixtures("shipped_data")


def test_the_home_page_links_to_a_game_of_everyday_words(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'href="/?dictionary=everyday#create-title">Everyday words only</a>' in html
    chosen = client.get("/?dictionary=everyday").content.decode()
    assert '<option value="everyday" selected>Everyday English</option>' in chosen
    assert '<details class="more" open>' in chosen
    assert "Words: Everyday English, everyday words only" in chosen


def test_a_room_made_with_everyday_words_plays_with_them(client: Client) -> None:
    response = client.post("/", {"nickname": "Ann", "preset": "classic", "dictionary": "everyday"})
    assert response.status_code == 302
    assert Room.objects.get().settings["dictionary"] == "everyday"


def test_without_everyday_english_the_home_page_offers_nothing(client: Client) -> None:
    Dictionary.objects.filter(slug="everyday").update(is_active=False)
    assert 'data-testid="quick-everyday"' not in client.get("/").content.decode()
