"""On a 360-pixel phone: a whole round played by touch, without the page scrolling or zooming."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.pages import cell, centre, create_room, touch_drag, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser


def fits_the_screen(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_phone_plays_a_round_by_touch(open_page: Any, game_server: GameServer) -> None:
    phone = open_page(PHONE)
    code = create_room(phone, "Pip", dice=FIXED_DICE_SLUG)  # a board with words every time
    assert fits_the_screen(phone)
    phone.get_by_test_id("start-round").tap()
    wait_for_board(phone)
    assert fits_the_screen(phone)
    game = game_server.running_round(code)
    game.words_needed(2)
    tapped, tapped_path = game.word()
    dragged, dragged_path = game.word(avoid=(tapped,))
    found = phone.get_by_test_id("found-words")

    # Tap the dice one by one; tapping the last one again takes it back, twice sends the word.
    lit = phone.locator("[data-testid=cell][data-highlighted=true]")
    last = centre(phone, tapped_path[-1], game.cols)
    for index in tapped_path:
        phone.touchscreen.tap(*centre(phone, index, game.cols))
    expect(lit).to_have_count(len(tapped_path))
    phone.wait_for_timeout(600)  # a moment later: a single tap, not a double one
    phone.touchscreen.tap(*last)
    expect(lit).to_have_count(len(tapped_path) - 1)
    phone.wait_for_timeout(600)
    phone.touchscreen.tap(*last)
    expect(lit).to_have_count(len(tapped_path))
    phone.touchscreen.tap(*last)
    expect(found.locator(f"[data-word={tapped}]")).to_have_count(1)
    expect(lit).to_have_count(0)

    # Drag a finger through a word: the page neither scrolls nor zooms, release sends it.
    before = phone.evaluate("[window.scrollY, visualViewport.scale]")
    touch_drag(phone, dragged_path, game.cols)
    expect(found.locator(f"[data-word={dragged}]")).to_have_count(1)
    assert phone.evaluate("[window.scrollY, visualViewport.scale]") == before
    assert phone.get_by_test_id("word-input").evaluate("el => el !== document.activeElement")

    phone.get_by_test_id("end-round").tap()
    results = phone.get_by_test_id("results")
    expect(results).to_be_visible()
    assert fits_the_screen(phone)
    results.locator(f"[data-testid=result-word][data-word={dragged}]").tap()
    lit = phone.locator("[data-testid=cell][data-highlighted=true]")
    expect(lit).to_have_count(len(dragged_path))
    expect(cell(phone, dragged_path[0], game.cols)).to_have_attribute("data-step", "1")
