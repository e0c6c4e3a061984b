"""What a player does in the browser, as steps the tests share."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect


def create_room(
    page: Any,
    nickname: str,
    *,
    duration: str | None = "0",
    preset: str = "",
    dice: str = "",
) -> str:
    """Create a room from the home page (untimed unless told; on these dice, which makes it
    a Custom game, if told); return its code."""
    fill_home_form(page, nickname, duration=duration, preset=preset, dice=dice)
    page.get_by_test_id("create-room").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    expect(page.get_by_test_id("player")).to_have_count(1)
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def fill_home_form(
    page: Any, nickname: str, *, duration: str | None = "0", preset: str = "", dice: str = ""
) -> None:
    """Open the home page and fill in the nickname and the settings asked for."""
    page.goto("/")
    page.get_by_test_id("nickname").fill(nickname)
    if preset:
        page.get_by_label("Game", exact=True).select_option(preset)
    if duration is not None or dice:
        page.get_by_text("More settings").click()
    if duration is not None:
        page.get_by_label("Round length").select_option(duration)
    if dice:
        page.get_by_label("Dice", exact=True).select_option(dice)


def join_by_link(page: Any, code: str, nickname: str) -> None:
    """Open the room's link, see the code filled in, and take a seat."""
    page.goto(f"/r/{code}/")
    expect(page.get_by_test_id("room-code")).to_have_value(code)
    page.get_by_test_id("nickname").fill(nickname)
    page.get_by_test_id("join-room").click()
    page.wait_for_url(re.compile(rf"/r/{code}/$"))


def wait_for_board(page: Any) -> None:
    """Wait until the round's board is drawn and words can be entered."""
    expect(page.locator("[data-testid=cell]:not([data-face=''])").first).to_be_visible()
    expect(page.get_by_test_id("word-input")).to_be_enabled()


def cell(page: Any, index: int, cols: int) -> Any:
    """Return the die at a cell number (row * cols + col)."""
    return page.locator(
        f"[data-testid=cell][data-row='{index // cols}'][data-col='{index % cols}']"
    )


def centre(page: Any, index: int, cols: int) -> tuple[float, float]:
    """Return the page coordinates of a die's centre."""
    box = cell(page, index, cols).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def type_word(page: Any, word: str) -> None:
    """Type a word into the word input, letter by letter, and press Enter."""
    entry = page.get_by_test_id("word-input")
    entry.press_sequentially(word.lower(), delay=10)
    entry.press("Enter")


def drag_path(page: Any, path: list[int], cols: int) -> None:
    """Drag the mouse through the dice of a path, from centre to centre, and let go."""
    x, y = centre(page, path[0], cols)
    page.mouse.move(x, y)
    page.mouse.down()
    for index in path[1:]:
        x, y = centre(page, index, cols)
        page.mouse.move(x, y, steps=6)
    page.mouse.up()


def touch_drag(page: Any, path: list[int], cols: int) -> None:
    """Drag a finger through the dice of a path (real touch events through the DevTools)."""
    cdp = page.context.new_cdp_session(page)
    points = [centre(page, index, cols) for index in path]

    def touch(kind: str, x: float, y: float) -> None:
        touches = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touches})

    touch("touchStart", *points[0])
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        for step in range(1, 7):
            touch("touchMove", x0 + (x1 - x0) * step / 6, y0 + (y1 - y0) * step / 6)
    # The finger rests on the last die before it lifts: lifting while still moving would be a
    # fling, and Chromium swallows the next tap to stop a fling.
    page.wait_for_timeout(150)
    touch("touchMove", *points[-1])
    touch("touchEnd", *points[-1])
    cdp.detach()


def player(page: Any, name: str) -> Any:
    """Return a player's entry in the room's player list."""
    return page.locator(f'[data-testid=player][data-name="{name}"]')


class Frames:
    """Every websocket frame a page receives, parsed."""

    def __init__(self, page: Any) -> None:
        self.received: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self.add))

    def add(self, payload: str | bytes) -> None:
        self.received.append(json.loads(payload))

    def before_the_end(self) -> list[dict[str, Any]]:
        """Return the frames up to the first round_ended event (the results' announcement)."""
        for i, frame in enumerate(self.received):
            if frame.get("event") == "round_ended":
                return self.received[: i + 1]
        raise AssertionError("the round never ended on this page")


def open_settings(page: Any) -> None:
    """Open the room's settings editor as a keyboard user does: the summary focused, then
    Enter. Not a click at its coordinates: after a round the results below or beside it
    finish drawing in their own requests, and a click aimed a moment before could land
    where the summary was (the editor then stayed shut)."""
    editor = page.locator("[data-settings-editor]")
    expect(editor).to_be_visible()
    page.get_by_text("Change the settings").press("Enter")
    expect(editor).to_have_attribute("open", "")
