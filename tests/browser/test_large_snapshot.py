"""A snapshot larger than a websocket frame comes in parts; the page shows all of it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import create_room, wait_for_board
from tests.browser.server import GameServer

pytestmark = pytest.mark.browser

WORDS = 1500  # about 150 KB of words with their paths: three frames of at most 64 KiB


def test_a_player_with_more_words_than_a_frame_holds_sees_them_all_after_a_reload(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    code = create_room(page, "Ann")
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    letters = "ABCDEFGHIJ"
    words = [
        ("".join(letters[int(d)] for d in f"{n:04d}") + "SEEDEDWORD", list(range(14)))
        for n in range(WORDS)
    ]
    game_server.words_add(code, "Ann", words)
    parts: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: parts.append(frame)))
    page.reload()
    wait_for_board(page)
    found = page.get_by_test_id("found-words").locator("li")
    expect(found).to_have_count(WORDS)
    expect(page.locator("[data-found-summary]")).to_have_text(
        re.compile(rf"^{WORDS} words, {WORDS} points")
    )
    expect(found.first).to_have_attribute("data-word", words[-1][0])  # newest first
    snapshot_parts = [p for p in parts if '"type":"snapshot_more"' in p]
    assert len(snapshot_parts) >= 2
    assert max(len(p.encode()) for p in parts) <= 65536
