"""An account from the browser: sign up, play a solo round, find it on the record page and
open its results again; log in on another device and see the same record."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.csp import CSPWatch
from tests.browser.pages import fill_home_form, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser

PASSWORD = "plum-orchard-79"
# Where to save the pages' screenshots, when asked (BOGGLE_SCREENSHOTS=dir).
SHOTS = os.environ.get("BOGGLE_SCREENSHOTS", "")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def sign_up(page: Any, username: str) -> None:
    page.goto("/")
    shot(page, f"home-{page.viewport_size['width']}")
    page.get_by_test_id("signup-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create an account")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    shot(page, f"signup-{page.viewport_size['width']}")
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(re.compile(r"/me/$"))
    expect(page.get_by_test_id("signed-in")).to_contain_text(username)


def play_solo_round(page: Any, game_server: GameServer) -> str:
    """Play a solo round on the fixed dice with one word; return the word."""
    fill_home_form(page, "Ann", duration=None, dice=FIXED_DICE_SLUG)
    page.get_by_test_id("play-solo").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    word, _ = game_server.running_round(code).word()
    entry = page.get_by_test_id("word-input")
    entry.press_sequentially(word.lower(), delay=10)
    entry.press("Enter")
    expect(page.get_by_test_id("found-words").locator(f"[data-word={word}]")).to_have_count(1)
    page.get_by_test_id("end-round").click()
    expect(page.get_by_test_id("results").locator(".verdict")).to_be_visible()
    return str(word)


def test_sign_up_play_and_find_the_round_on_the_record_page(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    watch = CSPWatch(page)
    sign_up(page, "browserann")
    expect(page.get_by_test_id("record-empty")).to_be_visible()
    word = play_solo_round(page, game_server)

    page.goto("/")
    page.get_by_test_id("record-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your record")
    expect(page.get_by_test_id("rounds-played")).to_have_text("1")
    expect(page.get_by_test_id("words")).to_have_text("1")
    expect(page.get_by_test_id("longest-word")).to_have_text(word)
    expect(page.get_by_test_id("past-round")).to_have_count(1)
    shot(page, "record-1280")

    page.get_by_test_id("past-round-link").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/rounds/1/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("round 1")
    results = page.get_by_test_id("results")
    mine = results.locator(f"[data-testid=result-word][data-word={word}]")
    expect(mine).to_have_count(1)
    expect(page.locator("[data-testid=cell]")).to_have_count(4)
    expect(results.locator("[data-testid=board-word]").first).to_be_attached()  # the solution
    mine.hover()  # its path lights up on the board, as on the room's results
    expect(page.locator("[data-testid=cell][data-highlighted=true]")).to_have_count(len(word))
    shot(page, "past-round-1280")
    assert watch.violations() == []

    phone = open_page(PHONE)
    phone_watch = CSPWatch(phone)
    phone.goto("/")
    shot(phone, "home-360")
    phone.get_by_test_id("login-link").click()
    phone.get_by_label("Username").fill("browserann")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_test_id("login-submit").click()
    phone.wait_for_url(re.compile(r"/me/$"))
    expect(phone.get_by_test_id("rounds-played")).to_have_text("1")
    shot(phone, "record-360")
    phone.get_by_test_id("past-round-link").click()
    expect(phone.get_by_test_id("results").locator(f"[data-word={word}]").first).to_be_visible()
    shot(phone, "past-round-360")
    phone.get_by_test_id("logout").click()
    phone.wait_for_url(re.compile(r"/$"))
    expect(phone.get_by_test_id("login-link")).to_be_visible()
    phone.goto("/me/")
    expect(phone.get_by_test_id("record-empty")).to_be_visible()
    assert phone_watch.violations() == []


def test_a_taken_username_is_refused_in_the_browser_with_the_reason(open_page: Any) -> None:
    page = open_page()
    sign_up(page, "takenname")
    other = open_page(PHONE)
    other.goto("/account/signup/")
    other.get_by_label("Username").fill("TakenName")
    other.get_by_label("Password", exact=True).fill(PASSWORD)
    other.get_by_label("Password confirmation").fill(PASSWORD)
    other.get_by_test_id("signup-submit").click()
    expect(other.get_by_test_id("username-errors")).to_have_text(
        "That username is taken. Choose another."
    )
    shot(other, "signup-error-360")
