"""Take the README's screenshots: home, lobby (with the chat), a round in progress, a
spectator watching it, the results, the arena and the daily board, at phone and desktop
sizes, light and dark. Run: .venv/bin/python -m tests.browser.screenshots"""

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
# An arena whose round 1 is under way (as `manage.py arena_default` makes one, started now).
ARENA = (
    "from datetime import timedelta; from games.rules import clock; "
    "from games.arena.services import arena_create; "
    "arena_create(slug='4x4', name='Arena 4×4', now=clock.now() - timedelta(seconds=20), "
    "dice='new16', band='standard', min_length=3)"
)


def say(page: Any, text: str) -> None:
    """Write a line in the room's chat and wait until it shows."""
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")
    page.get_by_test_id("chat-line").filter(has_text=text).first.wait_for()


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
            say(ann, "Welcome! Three minutes, classic scoring.")
            say(pip, "Ready when you are <3")
            ann.wait_for_timeout(500)
            shoot(ann, "lobby-desktop")
            shoot(pip, "lobby-phone", full=True)

            watcher = contexts["desktop"].new_page()  # a spectator, by the room's watch link
            watcher.goto(f"/r/{code}/watch/")
            watcher.get_by_test_id("watching").wait_for()
            ann.get_by_test_id("start-round").click()
            for page in (ann, pip, dee, dot):
                wait_for_board(page)
            watcher.locator("[data-testid=cell]:not([data-face=''])").first.wait_for()
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
            shoot(watcher, "watch-desktop")

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

            server.manage("shell", "-c", ARENA)
            for page, name in ((ann, "Ann"), (pip, "Pip")):
                page.goto("/arena/4x4/")
                page.get_by_test_id("arena-nickname").fill(name)
                page.get_by_test_id("arena-join").click()
                wait_for_board(page)
            arena = server.running_round("A4X4")
            arena_words = [w for w, _, _ in sorted(arena.solution, key=lambda w: -w[2])]
            for page, picks in ((ann, arena_words[:5]), (pip, arena_words[3:6])):
                for word in picks:
                    type_word(page, word)
            ann.get_by_test_id("arena-top").get_by_test_id("top-row").nth(1).wait_for()
            shoot(ann, "arena-desktop")
            shoot(pip, "arena-phone")

            # The daily board: Dee's day page before the start, Pip playing it on a phone,
            # then each one's result with the share text.
            daily_start = contexts["desktop"].new_page()
            daily_start.goto("/")
            daily_start.get_by_test_id("daily-4x4").click()
            daily_start.get_by_test_id("daily-start").wait_for()
            shoot(daily_start, "daily-start-desktop")
            day_url = daily_start.url
            for page, name in ((daily_start, "Dee"), (pip, "Pip")):
                page.goto(day_url)
                page.get_by_test_id("nickname").fill(name)
                page.get_by_test_id("daily-start").click()
                page.wait_for_url("**/r/*/", timeout=60_000)
                wait_for_board(page)
            daily = server.running_round(pip.url.rstrip("/").rsplit("/", 1)[1])
            daily_words = [w for w, _, _ in sorted(daily.solution, key=lambda w: -w[2])]
            for page, picks in ((daily_start, daily_words[2:9]), (pip, daily_words[:6])):
                for word in picks:
                    type_word(page, word)
            shoot(pip, "daily-play-phone")
            for page, name in ((daily_start, "daily-result-desktop"), (pip, "daily-result-phone")):
                page.get_by_test_id("end-round").click()
                page.get_by_test_id("results").wait_for()
                page.get_by_test_id("daily-after").get_by_role("link").click()
                page.get_by_test_id("daily-result").wait_for()
                shoot(page, name, full=name.endswith("desktop"))
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
