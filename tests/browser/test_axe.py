"""axe-core on every page state a player or an admin meets: each must pass every rule.

A test walks through its pages and runs axe-core at each state, then fails listing every state
that broke a rule (so one run shows all of them, not only the first)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import PHONE
from tests.browser.pages import (
    create_room,
    fill_home_form,
    join_by_link,
    open_settings,
    wait_for_board,
)
from tests.browser.server import GameServer
from tests.browser.test_admin_board_search import PASSWORD, SUPERUSER
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser


class AxeLog:
    """The states checked so far and what axe-core found broken in each."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def check(self, state: str, page: Any) -> None:
        """Run axe-core on the page as it is now, under the state's name."""
        self.found[state] = axe_violations(page)

    def both(self, state: str, page: Any) -> None:
        """Run axe-core in the light and in the dark colour scheme (colour contrast differs)."""
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            self.check(f"{state}, {scheme}", page)
        page.emulate_media(color_scheme="light")

    def assert_clean(self) -> None:
        broken = {state: v for state, v in self.found.items() if v}
        report = "\n".join(f"{state}:\n  " + "\n  ".join(v) for state, v in broken.items())
        assert not broken, f"axe-core found violations in {len(broken)} states:\n{report}"


def test_the_home_and_join_pages_pass_axe(open_page: Any, game_server: GameServer) -> None:
    log = AxeLog()
    for name, options in (("desktop", None), ("phone", PHONE)):
        page = open_page(options)
        page.goto("/")
        log.both(f"home ({name})", page)
        page.get_by_text("More settings").click()
        log.check(f"home, more settings open ({name})", page)
    host, guest = open_page(), open_page()
    code = create_room(host, "Hana")
    guest.goto(f"/r/{code}/")
    expect(guest.get_by_test_id("room-code")).to_have_value(code)
    log.check("join form of a room's link", guest)
    guest.get_by_test_id("join-room").click()  # no nickname: the form says what is missing
    log.check("join form with an error", guest)
    log.assert_clean()


def _frame_type(message: str | bytes) -> str:
    return str(json.loads(message).get("type", "")) if isinstance(message, str) else ""


class HeldSocket:
    """The page's room socket, relayed through Playwright so that the server's board reveal
    (and every frame after it) can be held back for a while, then delivered in order: the
    page stays in its countdown however long a check takes on a slow machine."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.page_side: Any = None
        page.route_web_socket(re.compile(r"/ws/rooms/"), self._route)

    def _route(self, socket: Any) -> None:
        server = socket.connect_to_server()
        self.page_side = socket
        socket.on_message(server.send)
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding and (self.held or _frame_type(message) == "board"):
            self.held.append(message)
        else:
            self.page_side.send(message)

    def hold(self) -> None:
        self.holding = True

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


def test_every_state_of_a_round_passes_axe(open_page: Any, game_server: GameServer) -> None:
    log = AxeLog()
    host, guest = open_page(), open_page()
    host.clock.install()  # to hold the countdown still while axe-core runs
    held = HeldSocket(host)  # and the server's board reveal, which the check may outlast
    code = create_room(host, "Ines", duration="90", dice=FIXED_DICE_SLUG)
    join_by_link(guest, code, "Joao")
    expect(host.get_by_test_id("player")).to_have_count(2)
    log.check("lobby (host)", host)
    log.both("lobby (guest)", guest)
    open_settings(host)
    log.check("lobby, settings editor open (host)", host)

    # The page's time stands still from before the start, so the countdown cannot run out
    # before axe-core has read it, however slow the machine (seconds, in Python).
    host.clock.set_fixed_time(host.evaluate("Date.now()") / 1000)
    held.hold()
    host.get_by_test_id("start-round").click()
    expect(host.locator(".board-overlay")).to_have_text(re.compile(r"^[1-3]$"))
    log.check("countdown (host)", host)
    expect(host.locator(".board-overlay")).to_be_visible()  # it was checked still counting
    held.release()
    host.clock.resume()
    for page in (host, guest):
        wait_for_board(page)
    log.check("round running (host)", host)
    log.both("round running (guest)", guest)
    host.get_by_test_id("word-input").fill("zzz")
    host.get_by_test_id("word-input").press("Enter")
    expect(host.get_by_test_id("feedback")).not_to_be_empty()
    log.check("round running, a word refused", host)

    game_server.end_round_in(code, -1)  # the sweeper ends it within a second
    for page in (host, guest):
        expect(page.locator(".score-card").first).to_be_visible(timeout=15_000)
    log.check("results (host)", host)
    log.both("results (guest)", guest)
    log.assert_clean()


def test_a_solo_game_passes_axe(open_page: Any, game_server: GameServer) -> None:
    log = AxeLog()
    page = open_page()
    fill_home_form(page, "Sol", duration=None, dice=FIXED_DICE_SLUG)
    page.get_by_test_id("play-solo").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    expect(page.get_by_test_id("start-round")).to_be_visible()
    log.check("solo lobby", page)
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    log.check("solo round", page)
    page.get_by_test_id("end-round").click()
    expect(page.get_by_test_id("results").locator(".verdict")).to_be_visible()
    log.both("solo results with the computer's turn", page)
    log.assert_clean()


def test_the_admin_login_and_dictionary_pages_pass_axe(
    open_page: Any, game_server: GameServer
) -> None:
    log = AxeLog()
    game_server.manage("shell", "-c", SUPERUSER)
    page = open_page()
    page.goto("/admin/login/")
    log.check("admin login", page)
    page.fill("#id_username", "lab")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()
    log.check("admin index", page)
    page.goto("/admin/solver/dictionary/")
    log.check("admin dictionaries", page)
    page.locator("#result_list tbody a").first.click()
    expect(page.locator("#dictionary_form")).to_be_visible()
    log.check("admin dictionary", page)
    page.goto("/admin/solver/dictionary/derive-everyday/")
    log.check("admin derive an everyday dictionary", page)
    page.goto("/admin/solver/diceset/")
    log.check("admin dice sets", page)
    log.assert_clean()
