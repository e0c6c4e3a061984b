"""Measure how tall the results page is, at 1280 px and 360 px, on a rich fixed board (204
words with YAWL) after two players found a few words each. Prints the heights and saves
full-page screenshots. Run: .venv/bin/python -m tests.browser.results_height [OUT_DIR]"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.browser.conftest import DESKTOP, FLAGS, PHONE
from tests.browser.pages import join_by_link, type_word, wait_for_board
from tests.browser.server import GameServer
from tests.conftest import CHROMIUM

RICH_BOARD = "ATEE/APYO/TINU/EDSE"  # new16 rolls it; 204 words with YAWL, classic 4×4


def measure(out: Path) -> dict[str, int]:
    """Play one round on the rich board in two browsers; return each page's height in px."""
    out.mkdir(parents=True, exist_ok=True)
    heights: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server = GameServer(Path(tmp)).start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            desk = browser.new_context(base_url=server.url, **DESKTOP).new_page()
            phone = browser.new_context(base_url=server.url, **PHONE).new_page()
            desk.goto(f"/?board={RICH_BOARD}&duration=0")  # untimed: the host ends it
            desk.get_by_test_id("nickname").fill("Ann")
            desk.get_by_test_id("create-room").click()
            desk.wait_for_url("**/r/*/")
            code = desk.url.rstrip("/").rsplit("/", 1)[1]
            join_by_link(phone, code, "Pip")
            desk.get_by_test_id("start-round").click()
            wait_for_board(desk)
            game = server.running_round(code)
            words = sorted(w for w, _, _ in game.solution if 4 <= len(w) <= 6)
            for page, picks in ((desk, words[0:60:10]), (phone, words[30:70:10])):
                wait_for_board(page)
                for word in picks:
                    type_word(page, word)
                expect(page.get_by_test_id("found-words").locator("li")).to_have_count(len(picks))
            desk.get_by_test_id("end-round").click()
            for name, page in (("1280", desk), ("360", phone)):
                expect(page.get_by_test_id("results").locator("h2")).to_be_visible()
                page.wait_for_timeout(500)
                heights[name] = int(page.evaluate("document.documentElement.scrollHeight"))
                path = out / f"results-{name}.png"
                page.screenshot(path=str(path), full_page=True, animations="disabled")
                print(f"{name} px wide: results page {heights[name]} px tall ({path})")
                # The first screen, then a word picked from the list: its definition shows.
                page.screenshot(path=str(out / f"results-{name}-top.png"), animations="disabled")
                words = page.get_by_test_id("results").locator("[data-testid=board-word]")
                if words.count():
                    words.first.focus()
                    page.wait_for_timeout(800)
                    shot = out / f"results-{name}-word.png"
                    page.screenshot(path=str(shot), animations="disabled")
        finally:
            browser.close()
            server.stop()
    return heights


if __name__ == "__main__":
    measure(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()))
