"""Playing the daily board end to end in Chromium: from the home page's link to the board, a
word, a reload that keeps the clock, the end, and the day's page with rank and share text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.csp import CSPWatch
from tests.browser.pages import type_word, wait_for_board
from tests.browser.server import GameServer

pytestmark = pytest.mark.browser


def test_a_player_plays_todays_daily_board_and_shares_the_result(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    csp = CSPWatch(page)
    page.goto("/")
    page.get_by_test_id("daily-4x4").click()
    page.wait_for_url(re.compile(r"/daily/4x4/\d{4}-\d\d-\d\d/$"))
    day_url = page.url
    expect(page.locator("h1")).to_contain_text(re.compile(r"Daily 4×4 #\d+"))
    expect(page.get_by_test_id("board")).to_have_count(0)  # nothing of the board before start
    page.get_by_test_id("nickname").fill("Dana")
    page.get_by_test_id("daily-start").click()
    # The first start of the day draws the board (and its kind's standing, once): a while.
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"), timeout=60_000)
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    wait_for_board(page)
    game = game_server.running_round(code)
    game.words_needed(1)
    word, _ = game.word()
    type_word(page, word)
    found = page.get_by_test_id("found-words").locator(f"[data-word={word}]")
    expect(found).to_have_count(1)
    expect(page.get_by_test_id("start-round")).to_be_hidden()  # one round, no next one

    # Leaving and coming back: the same attempt, the same words, the clock still running.
    page.goto(day_url)
    expect(page.get_by_test_id("daily-running")).to_be_visible()
    page.get_by_test_id("daily-continue").click()
    page.wait_for_url(re.compile(rf"/r/{code}/$"))
    wait_for_board(page)
    expect(found).to_have_count(1)
    assert game_server.running_round(code).board == game.board

    end = page.get_by_test_id("end-round")
    expect(end).to_have_text("I'm done: show the results")  # not a game against the computer
    end.click()  # done early: the attempt ends
    expect(page.get_by_test_id("results")).to_be_visible()
    page.get_by_test_id("daily-after").get_by_role("link").click()
    page.wait_for_url(day_url)
    expect(page.get_by_test_id("daily-result")).to_be_visible()
    expect(page.get_by_test_id("daily-standing")).to_contain_text("the first to play this board")
    expect(page.get_by_test_id("my-row")).to_contain_text("Dana")
    share = page.get_by_test_id("share-text")
    expect(share).to_contain_text(re.compile(r"Daily 4×4 #\d+"))
    expect(share).to_contain_text("1 word")
    assert word not in share.inner_text().upper()
    expect(page.get_by_test_id("daily-solution")).to_contain_text(word)
    page.get_by_test_id("copy-share").click()
    expect(page.locator("[data-copied]")).to_have_text("Copied: paste it anywhere.")
    assert page.evaluate("navigator.clipboard.readText()") == share.inner_text()

    # A second start today is refused, and says why.
    page.goto(day_url)
    expect(page.get_by_test_id("daily-start")).to_have_count(0)
    assert csp.violations() == []
