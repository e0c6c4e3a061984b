"""A timed round: the countdown follows the server's clock and the server ends the round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import create_room, wait_for_board
from tests.browser.server import GameServer

pytestmark = pytest.mark.browser


def test_a_timed_round_counts_down_and_ends_with_results(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    page.clock.install()
    code = create_room(page, "Tim", duration="30")
    # The page's time stands still from before the start, so the countdown (a second on the
    # suite's server) cannot run out before it is seen, however slow the machine.
    page.clock.set_fixed_time(page.evaluate("Date.now()") / 1000)
    page.get_by_test_id("start-round").click()
    timer = page.get_by_test_id("timer")
    expect(page.locator(".board-overlay")).to_have_text(re.compile(r"^[1-3]$"))
    page.clock.resume()
    wait_for_board(page)
    expect(timer).to_have_text(re.compile(r"^\s*0:(2\d|30)\s*$"))
    expect(timer).not_to_have_class(re.compile("urgent"))
    expect(page.get_by_test_id("end-round")).to_be_hidden()  # a timed round ends by the clock

    # Move the round's end close (tests cannot wait minutes); a reload reads the new time.
    game_server.end_round_in(code, 5)
    page.reload()
    wait_for_board(page)
    expect(timer).to_have_class(re.compile("urgent"))  # the last ten seconds stand out
    expect(timer).to_have_text(re.compile(r"^\s*0:0[0-5]\s*$"))
    expect(page.get_by_test_id("results")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("word-input")).to_be_hidden()
