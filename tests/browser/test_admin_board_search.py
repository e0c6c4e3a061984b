"""In Debian's Chromium: an admin starts a short board search, watches its progress and then
sees the boards it found, each with a link that opens a room on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.csp import CSPWatch
from tests.browser.server import GameServer

pytestmark = pytest.mark.browser

PASSWORD = "a-long-admin-password"
SUPERUSER = (
    "from django.contrib.auth.models import User;"
    "User.objects.filter(username='lab').exists() or "
    f"User.objects.create_superuser('lab', 'lab@example.com', '{PASSWORD}')"
)


def test_an_admin_starts_a_search_watches_it_and_opens_its_best_board(
    game_server: GameServer, open_page: Callable[..., Any]
) -> None:
    game_server.manage("shell", "-c", SUPERUSER)
    page = open_page()
    watch = CSPWatch(page)
    page.goto("/admin/login/")
    page.fill("#id_username", "lab")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()

    page.goto("/admin/solver/boardsearchrun/add/")
    page.select_option("#id_dice_set", label="New 4×4 (1992 Hasbro dice)")
    page.fill("#id_seconds", "4")
    page.fill("#id_seed", "2026")
    page.click("input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text(re.compile(r"Search #\d+ started"))

    # While it runs, the page's script shows the best board so far, polled once a second.
    panel = page.locator("#run")
    expect(panel.locator(".board-status")).to_have_text("running", timeout=20_000)
    expect(panel.locator('[data-field="best_value"]')).to_have_text(re.compile(r"^\d+$"))
    expect(panel.locator(".board-run-best td")).to_have_count(16)
    assert page.locator(".board-run-stop button").is_visible()

    # Then the page reloads itself with what the search stored.
    expect(panel.locator(".board-status")).to_have_text("done", timeout=30_000)
    found = page.locator("#found .board-record")
    expect(found.first).to_be_visible()
    best = found.first.get_attribute("data-board")
    assert best and best.startswith("4x4-")
    link = found.first.locator(".board-room-link")
    assert link.get_attribute("href").startswith(f"/?board={best}&dice=new16&dictionary=yawl")
    assert watch.violations() == []

    page.goto("/admin/solver/boardrecord/best/yawl/dice/new16/")
    expect(page.locator(f'.board-record[data-board="{best}"]').first).to_be_visible()
    assert watch.violations() == []

    # The link opens the home page with the create-room form filled in for that board.
    page.locator(f'.board-record[data-board="{best}"] .board-room-link').first.click()
    expect(page.get_by_test_id("given-board")).to_have_value(best)


def test_an_admin_stops_a_long_search_and_keeps_its_best_boards(
    game_server: GameServer, open_page: Callable[..., Any]
) -> None:
    game_server.manage("shell", "-c", SUPERUSER)
    page = open_page()
    page.goto("/admin/login/")
    page.fill("#id_username", "lab")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")

    page.goto("/admin/solver/boardsearchrun/add/")
    page.select_option("#id_dice_set", label="New 4×4 (1992 Hasbro dice)")
    page.select_option("#id_objective", "most-words")  # no known best: it runs its time
    page.fill("#id_seconds", "600")
    page.click("input[type=submit]")
    panel = page.locator("#run")
    expect(panel.locator('[data-field="best_value"]')).to_have_text(
        re.compile(r"^\d+$"), timeout=20_000
    )

    page.click(".board-run-stop button")
    expect(page.locator(".messagelist")).to_contain_text("asked to stop")
    expect(panel.locator(".board-status")).to_have_text("stopped", timeout=20_000)
    expect(page.locator("#found .board-record").first).to_be_visible()
    elapsed = float(panel.locator('[data-field="elapsed"]').inner_text())
    assert elapsed < 60  # stopped long before its 600 seconds
