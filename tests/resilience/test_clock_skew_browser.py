"""In Chromium, a page whose computer clock is five minutes off counts down the server's time
(static/js/clock.js corrects it from every frame's server_time)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import chromium, game_server, open_page  # noqa: F401 (fixtures)
from tests.browser.pages import create_room, wait_for_board
from tests.browser.server import GameServer

pytestmark = [pytest.mark.resilience, pytest.mark.browser]

# Runs before the page's own scripts: this computer's clock is `skew` ms off.
SKEWED_CLOCK = """(() => {
  const skew = %d, realNow = Date.now.bind(Date);
  Date.now = () => realNow() + skew;
})();"""


@pytest.mark.parametrize("skew_ms", [-300_000, 300_000], ids=["behind", "ahead"])
def test_a_page_five_minutes_off_counts_down_the_servers_time(
    open_page: Any,  # noqa: F811
    game_server: GameServer,  # noqa: F811
    skew_ms: int,
) -> None:
    page = open_page()
    page.add_init_script(SKEWED_CLOCK % skew_ms)
    code = create_room(page, "Skew", duration="30")
    page_clock = page.evaluate("Date.now() - (performance.timeOrigin + performance.now())")
    assert abs(page_clock - skew_ms) < 1000  # the page's clock is off indeed
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    timer = page.get_by_test_id("timer")
    expect(timer).to_have_text(re.compile(r"^\s*0:(2\d|30)\s*$"))  # not 5:29, not 0:00
    game_server.end_round_in(code, 4)
    page.reload()
    wait_for_board(page)
    expect(timer).to_have_text(re.compile(r"^\s*0:0[0-4]\s*$"))
    expect(page.get_by_test_id("results")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("word-input")).to_be_hidden()  # nothing to play after the end
