"""The arena in Chromium: from the home page's link, drop in with a nickname, play a word of
the round under way (on the fixed S I T E dice), watch the live top 10, and see the rank; and
the arena's chat, closed while a board is in play and open once the round is over."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations
from tests.browser.pages import cell, type_word, wait_for_board
from tests.browser.server import GameServer

pytestmark = pytest.mark.browser

ARENA = (
    "from datetime import timedelta; from games.rules import clock; "
    "from games.arena.services import arena_create; "
    "from tests.fixed_dice import FIXED_DICE_SLUG; "
    "arena_create(slug='{slug}', name='{name}', now=clock.now() - timedelta(seconds=2), "
    "dice=FIXED_DICE_SLUG, band='', min_length=3, order=0)"
)
MARKUP = '<img src=x onerror="document.title=1"> gg <b>all</b>'


def drop_in(page: Any, slug: str, nickname: str) -> None:
    """Open an arena's page and take a seat in it under this nickname."""
    page.goto(f"/arena/{slug}/")
    page.get_by_test_id("arena-nickname").fill(nickname)
    page.get_by_test_id("arena-join").click()
    expect(page.get_by_test_id("arena-me")).to_have_text(nickname)


def test_a_player_drops_into_the_arena_plays_and_sees_their_rank(
    open_page: Any, game_server: GameServer
) -> None:
    # an admin's arena on the fixed dice
    game_server.manage("shell", "-c", ARENA.format(slug="fixed", name="Fixed arena"))
    page = open_page()
    page.goto("/")
    page.get_by_test_id("arena-fixed").click()
    page.wait_for_url(re.compile(r"/arena/fixed/$"))
    page.get_by_test_id("arena-join").click()  # no name yet: the browser asks for one
    expect(page.get_by_test_id("arena-nickname")).to_be_focused()
    page.get_by_test_id("arena-nickname").fill("Ines")
    page.get_by_test_id("arena-join").click()
    expect(page.get_by_test_id("arena-me")).to_have_text("Ines")
    wait_for_board(page)  # the round under way, with the time it has left
    faces = {cell(page, i, 2).get_attribute("data-face") for i in range(4)}
    assert faces == {"S", "I", "T", "E"}  # the fixed dice, in the order the round's seed rolled
    type_word(page, "site")
    expect(page.get_by_test_id("found-words").locator("[data-word=SITE]")).to_have_count(1)
    top = page.get_by_test_id("arena-top")
    expect(top.get_by_test_id("top-row")).to_have_count(1, timeout=15_000)  # live, coalesced
    expect(top).to_contain_text("Ines")
    expect(top).not_to_contain_text("SITE")  # points only, never words

    game_server.end_round_in("AFIXED", 0.5)  # nobody waits two minutes: the sweep ends it
    results = page.get_by_test_id("results")
    expect(results).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("arena-rank")).to_contain_text("You ranked 1st of 1 player")
    expect(page.get_by_test_id("arena-only-me")).to_contain_text("SITE")
    mine = results.locator("[data-testid=result-word][data-word=SITE][data-player=Ines]")
    expect(mine).to_have_attribute("data-struck", "false")  # an arena never strikes
    expect(mine.get_by_test_id("commonness")).not_to_be_empty()  # the round's, added back
    expect(page.get_by_test_id("arena-top-final")).to_contain_text("Ines")
    expect(page.get_by_test_id("arena-next")).to_contain_text("Next board")


def test_arena_players_chat_after_a_round_and_never_during_it(
    open_page: Any, game_server: GameServer
) -> None:
    game_server.manage("shell", "-c", ARENA.format(slug="talk", name="Talking arena"))
    ines, jo = open_page(), open_page()
    drop_in(ines, "talk", "Ines")
    drop_in(jo, "talk", "Jo")
    for page in (ines, jo):
        wait_for_board(page)  # a board in play: strangers must not pass words
        expect(page.get_by_test_id("chat-input")).to_be_disabled()
        expect(page.get_by_test_id("chat-status")).to_contain_text("Chat opens when the round ends")

    game_server.end_round_in("ATALK", 0.5)
    for page in (ines, jo):
        expect(page.get_by_test_id("results")).to_be_visible(timeout=15_000)
        expect(page.get_by_test_id("chat-input")).to_be_enabled()
        expect(page.get_by_test_id("chat-status")).to_have_text("")
    ines.get_by_test_id("chat-input").fill(MARKUP)
    ines.get_by_test_id("chat-input").press("Enter")
    line = jo.get_by_test_id("chat-line")
    expect(line).to_have_count(1)
    expect(line.locator(".chat-name")).to_have_text("Ines")
    expect(line.locator(".chat-text")).to_have_text(MARKUP)  # as text, never as HTML
    expect(jo.get_by_test_id("chat").locator("img, b")).to_have_count(0)
    assert jo.title() != "1"
    assert axe_violations(jo) == []
    jo.reload()  # the arena's snapshot brings the chat back
    expect(jo.get_by_test_id("chat-line").locator(".chat-text")).to_have_text([MARKUP])
