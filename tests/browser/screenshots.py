"""Take the README's screenshots: home, lobby, a round in progress and the results, at phone
and desktop sizes, light and dark. Run: .venv/bin/python -m tests.browser.screenshots"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.browser.conftest import DESKTOP, FLAGS, PHONE
from tests.browser.pages import (
    cell,
    centre,
    create_room,
    join_by_link,
    type_word,
    wait_for_board,
)
from tests.browser.server import GameServer
from tests.conftest import CHROMIUM

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def main(out: Path = OUT) -> None:
    """Play one round with four players and photograph each stage."""
    out.mkdir(parents=True, exist_ok=True)

    def shoot(page: Any, name: str, *, full: bool = False) -> None:
        page.screenshot(path=str(out / f"{name}.png"), full_page=full, animations="disabled")
        print(out / f"{name}.png")

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server = GameServer(Path(tmp)).start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            contexts = {
                "desktop": browser.new_context(base_url=server.url, **DESKTOP),
                "phone": browser.new_context(base_url=server.url, **PHONE),
                "dark": browser.new_context(base_url=server.url, color_scheme="dark", **DESKTOP),
                "dark-phone": browser.new_context(
                    base_url=server.url, color_scheme="dark", **PHONE
                ),
            }
            ann, pip, dee, dot = (c.new_page() for c in contexts.values())
            ann.goto("/")
            pip.goto("/")
            shoot(ann, "home-desktop")
            shoot(pip, "home-phone")
            code = create_room(ann, "Ann", duration="180")
            join_by_link(pip, code, "Pip")
            join_by_link(dee, code, "Dee")
            join_by_link(dot, code, "Dot")
            ann.get_by_test_id("add-bot").click()
            ann.wait_for_timeout(500)
            shoot(ann, "lobby-desktop")
            shoot(pip, "lobby-phone", full=True)

            ann.get_by_test_id("start-round").click()
            for page in (ann, pip, dee, dot):
                wait_for_board(page)
            game = server.running_round(code)
            words = [w for w, _, _ in sorted(game.solution, key=lambda w: -len(w[0]))]
            for page, picks in ((ann, words[1:7]), (pip, words[4:9]), (dee, words[8:12])):
                for word in picks:
                    type_word(page, word)
            dot_words = words[12:15]
            for word in dot_words:
                type_word(dot, word)
            # Show a word being traced: the first dice of a long word, lit and joined.
            _, path = game.word()
            for index in path[:4]:
                cell(ann, index, game.cols).click()
            for index in path[:3]:
                pip.touchscreen.tap(*centre(pip, index, game.cols))
            ann.wait_for_timeout(700)
            shoot(ann, "round-desktop")
            shoot(pip, "round-phone")
            dee.get_by_test_id("word-input").press_sequentially(words[0][:4].lower())
            shoot(dee, "round-dark")

            server.end_round_in(code, 0)
            for page in (ann, pip, dee, dot):
                page.get_by_test_id("results").wait_for()
            ann.get_by_test_id("results").locator("[data-testid=result-word]").first.click()
            pip.locator(".score-card.me [data-testid=result-word]").first.tap()
            dot.get_by_test_id("board-word").first.focus()
            ann.wait_for_timeout(1500)
            shoot(ann, "results-desktop")
            shoot(pip, "results-phone")
            shoot(dot, "results-phone-dark")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
