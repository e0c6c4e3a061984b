"""What a keyboard or screen-reader player meets: where the focus goes at time-up, what the live
region says as time runs out and after a reconnect, and the Tab order before there is a board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations
from tests.browser.pages import create_room, join_by_link, wait_for_board
from tests.browser.server import GameServer
from tests.browser.test_connection import SOCKET, Relay
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser

# Every text the live region receives, in order (a screen reader hears each), kept per document.
_RECORD_ANNOUNCEMENTS = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.querySelector("[data-announcer]");
  if (!region) return;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) window.__said.push(node.textContent);
    }
  }).observe(region, { childList: true });
});
"""


def record_announcements(page: Any) -> None:
    """Keep what the page's live region says from the next document on."""
    page.add_init_script(_RECORD_ANNOUNCEMENTS)


def said(page: Any) -> list[str]:
    """Return what the live region has said since the page loaded."""
    return list(page.evaluate("window.__said"))


def next_frames(page: Any) -> None:
    """Return after the page has drawn two more frames (every state it had is drawn)."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def results_heading(page: Any) -> Any:
    return page.get_by_test_id("results").get_by_role("heading", level=2)


def seconds_shown(page: Any) -> int:
    """Return the whole seconds the round's timer shows ("1:28" is 88)."""
    text = page.get_by_test_id("timer").inner_text().strip()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_at_time_up_the_focus_goes_to_the_results_heading_not_the_page_body(
    open_page: Any, game_server: GameServer
) -> None:
    typist, stepper = open_page(), open_page()
    code = create_room(typist, "Tess", duration="30", dice=FIXED_DICE_SLUG)
    join_by_link(stepper, code, "Uwe")
    typist.get_by_test_id("start-round").click()
    for page in (typist, stepper):
        wait_for_board(page)
    expect(typist.get_by_test_id("word-input")).to_be_focused()  # a wide screen types at once
    stepper.get_by_test_id("word-input").press("Shift+Tab")  # the other one is on the board
    expect(stepper.locator("[data-testid=cell]").first).to_be_focused()

    game_server.end_round_in(code, -1)  # the sweeper ends it
    for page in (typist, stepper):
        expect(page.locator(".score-card").first).to_be_visible(timeout=15_000)
        heading = results_heading(page)
        expect(heading).to_have_text("Round 1: results")
        expect(heading).to_be_focused()  # the results' own heading, once they came
        # From there Tab reads on through the results, and Shift+Tab reaches the host's
        # button to start the next round.
        page.keyboard.press("Shift+Tab")
        if page is typist:
            expect(page.get_by_test_id("start-round")).to_be_focused()
        assert page.evaluate("document.activeElement !== document.body")


def test_the_time_left_is_said_at_one_minute_thirty_and_ten_seconds_once_each(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    page.clock.install()  # the page's own clock, moved on by the test: the server's stays put
    record_announcements(page)
    relay = Relay()
    page.route_web_socket(SOCKET, relay.route)
    create_room(page, "Vera", duration="90", dice=FIXED_DICE_SLUG)
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    region = page.locator("[data-announcer]")
    expect(region).to_have_text("Round 1: go!")

    # The page's clock jumps to the middle of each gap between warnings: a player whose
    # device slept past a warning hears the latest one it passed.
    for left, words in ((45, "1 minute left."), (20, "30 seconds left."), (5, "10 seconds left.")):
        page.clock.fast_forward((seconds_shown(page) - left) * 1000)
        expect(region).to_have_text(words)
        # The page's clock runs on from there: on a loaded machine a second or two may have
        # gone by when the timer is read.
        shown = "|".join(f"0:{s:02d}" for s in range(left, left - 3, -1))
        expect(page.get_by_test_id("timer")).to_have_text(re.compile(rf"^\s*({shown})\s*$"))
    assert axe_violations(page) == []  # the red timer of the last ten seconds too
    warnings = ["1 minute left.", "30 seconds left.", "10 seconds left."]
    assert said(page) == ["Round 1 is starting.", "Round 1: go!", *warnings]

    # A dropped socket: the snapshot that follows draws the round again, and says nothing
    # about the time that was already said.
    relay.drop()
    expect(page.get_by_test_id("connection")).to_have_text("Connection lost. Reconnecting…")
    expect(page.get_by_test_id("connection")).to_be_hidden(timeout=15_000)
    expect(page.get_by_test_id("timer")).to_have_text(re.compile(r"^\s*0:0[1-5]\s*$"))
    next_frames(page)
    assert said(page) == ["Round 1 is starting.", "Round 1: go!", *warnings]

    # Past zero the page waits for the server to count the scores (here it will not yet: only
    # the page's clock moved), and says the time is up once.
    page.clock.fast_forward(10_000)
    expect(page.locator("[data-round-title]")).to_have_text("Round 1: time! Counting the scores…")
    assert axe_violations(page) == []
    assert said(page) == ["Round 1 is starting.", "Round 1: go!", *warnings, "Time is up."]


def test_a_round_that_ended_while_the_socket_was_away_is_said_on_reconnect(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    record_announcements(page)
    relay = Relay()
    page.route_web_socket(SOCKET, relay.route)
    code = create_room(page, "Wim", duration="30", dice=FIXED_DICE_SLUG)
    page.get_by_test_id("start-round").click()
    wait_for_board(page)

    relay.refuse = True  # the network goes down...
    relay.drop()
    expect(page.get_by_test_id("connection")).to_have_text("Connection lost. Reconnecting…")
    game_server.end_round_in(code, -1)  # ...and the round ends meanwhile
    game_server.wait_for_round_status(code, 1, "finished")
    relay.refuse = False
    expect(page.locator(".score-card").first).to_be_visible(timeout=15_000)
    expect(page.locator("[data-announcer]")).to_have_text("Round 1 is over. The results are shown.")
    expect(results_heading(page)).to_be_focused()


def test_a_round_that_started_while_the_socket_was_away_is_said_on_reconnect(
    open_page: Any, game_server: GameServer
) -> None:
    host, guest = open_page(), open_page()
    record_announcements(guest)
    relay = Relay()
    guest.route_web_socket(SOCKET, relay.route)
    code = create_room(host, "Xia", duration="90", dice=FIXED_DICE_SLUG)
    join_by_link(guest, code, "Yan")
    expect(guest.get_by_test_id("player")).to_have_count(2)

    relay.refuse = True
    relay.drop()
    expect(guest.get_by_test_id("connection")).to_have_text("Connection lost. Reconnecting…")
    host.get_by_test_id("start-round").click()
    wait_for_board(host)
    # Come back well into the round: a board drawn within 2 s of the start is a plain "go!"
    # (stage.js GO_LATE_MS), so wait until the host's clock shows 1:25 or less of the 1:30.
    expect(host.get_by_test_id("timer")).to_have_text(
        re.compile(r"^\s*1:(2[0-5]|[01]\d)\s*$"), timeout=20_000
    )
    relay.refuse = False
    # The network comes back: the client tries at once rather than after its backoff, which
    # after these refusals may be up to 15 s away (socket.js MAX_DELAY_MS).
    guest.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for_board(guest)
    expect(guest.locator("[data-announcer]")).to_have_text(
        re.compile(r"^Round 1 is under way: 1 minute( \d+ seconds?)? left\.$")
    )


def test_the_lobby_has_no_tab_stop_on_the_empty_board(
    open_page: Any, game_server: GameServer
) -> None:
    host, guest = open_page(), open_page()
    code = create_room(host, "Zoe", duration="90", dice=FIXED_DICE_SLUG)
    join_by_link(guest, code, "Abe")
    for page, after_leave in ((host, "start-round"), (guest, None)):
        expect(page.locator("[data-testid=cell]").first).to_be_visible()  # the empty dice
        page.get_by_role("button", name="Leave").focus()
        page.keyboard.press("Tab")
        if after_leave:
            expect(page.get_by_test_id(after_leave)).to_be_focused()
        else:  # the guest's next stop is the room's link to share
            expect(page.locator("[data-room-link]")).to_be_focused()

    # Once the board is drawn, its dice take one Tab stop, as before.
    host.get_by_test_id("start-round").click()
    wait_for_board(host)
    host.get_by_role("button", name="Leave").focus()
    host.keyboard.press("Tab")
    expect(host.locator("[data-testid=cell]").first).to_be_focused()
