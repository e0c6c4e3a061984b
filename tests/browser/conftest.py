"""Fixtures for the browser tests: one game server and one Chromium for the session, and a
fresh browser context (its own cookies: its own player) for every page a test opens."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from playwright.sync_api import expect

from tests.browser.server import GameServer
from tests.conftest import CHROMIUM, probe_browser

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# How long an action or an assertion waits for the page before it fails: bounds for a slow or
# busy CI host (Python at half its usual speed, three test processes on two cores), not speed
# claims. Playwright's defaults (30 s for actions, 5 s for assertions) had the assertions fail
# there while the page was still on its way.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def game_server(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[GameServer]:
    """A daphne server with its own SQLite database, the shipped dictionaries and the fixed
    test dice (tests that need words play on them: tests/fixed_dice.py).

    Under pytest-xdist every worker has its own server, each started from a copy of one
    database prepared once for the run (the first worker to ask prepares it, under a file
    lock, in the directory the workers share: pytest-xdist's documented recipe)."""
    if probe_browser() is not None:
        pytest.skip("no browser")  # the browser mark has already failed this under CI
    root = tmp_path_factory.getbasetemp()
    shared = root.parent if worker_id != "master" else root
    prepared = GameServer(shared / "game-server-prepared")
    with FileLock(shared / "game-server-prepared.lock"):
        if not (prepared.directory / "ready").exists():
            prepared.directory.mkdir(exist_ok=True)
            prepared.prepare(fixed_dice=True)
            (prepared.directory / "ready").touch()
    server = GameServer(Path(tmp_path_factory.mktemp("game-server"))).copy_from(prepared)
    server.start(prepared=True)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (never a browser Playwright downloaded).

    One per test module, not per session: while Playwright's sync API runs it holds an event
    loop in this thread, and the asyncio tests of other directories need the thread free."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(chromium: Any, game_server: GameServer) -> Iterator[Callable[..., Any]]:
    """Return a function opening a page in a new context (a new player): open_page(PHONE)."""
    contexts: list[Any] = []

    def opener(options: dict[str, Any] | None = None) -> Any:
        context = chromium.new_context(base_url=game_server.url, **(options or DESKTOP))
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield opener
    for context in contexts:
        for page in context.pages:
            assert not page.errors, f"JavaScript errors on {page.url}: {page.errors}"
        context.close()
