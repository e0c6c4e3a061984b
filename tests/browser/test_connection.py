"""A dropped socket: the page says so, reconnects, resends unanswered words; a reload keeps them."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import (
    create_room,
    join_by_link,
    open_settings,
    player,
    type_word,
    wait_for_board,
)
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser
SOCKET = re.compile(r"/ws/rooms/")


class Relay:
    """Stands between the page and the server's websocket, and can drop or refuse it."""

    def __init__(self) -> None:
        self.sockets: list[Any] = []
        self.refuse = False  # close every new socket at once, as a dead network would
        self.swallow = False  # keep the server's answers to submissions from the page
        self.swallowed: list[str] = []
        self.sent: list[str] = []  # every frame the page sent
        self.skip: Callable[[str], bool] = lambda message: False  # frames lost on the way

    def route(self, ws: Any) -> None:
        if self.refuse:
            ws.close(code=1011)
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: self.from_page(server, message))
        server.on_message(lambda message: self.to_page(ws, message))
        self.sockets.append(ws)

    def from_page(self, server: Any, message: str | bytes) -> None:
        self.sent.append(str(message))
        server.send(message)

    def to_page(self, ws: Any, message: str | bytes) -> None:
        if self.swallow and '"submit_result"' in str(message):
            self.swallowed.append(str(message))
            return
        if self.skip(str(message)):
            return
        ws.send(message)

    def drop(self) -> None:
        self.sockets[-1].close(code=1006)


def words_stored(server: GameServer, code: str) -> int:
    with sqlite3.connect(server.database) as db:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM games_submission s JOIN games_round r ON s.round_id = r.id"
            " JOIN games_room m ON r.room_id = m.id WHERE m.code = ?",
            (code,),
        ).fetchone()
    return int(count)


def test_a_dropped_socket_resends_unanswered_words_and_a_reload_keeps_them(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    relay = Relay()
    page.route_web_socket(SOCKET, relay.route)
    code = create_room(page, "Cleo", dice=FIXED_DICE_SLUG)  # a board with words every time
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    game = game_server.running_round(code)
    game.words_needed(3)
    first, _ = game.word()
    second, _ = game.word(avoid=(first,))
    third, _ = game.word(avoid=(first, second))
    found = page.get_by_test_id("found-words")

    type_word(page, first)
    expect(found.locator(f"[data-word={first}]")).to_have_count(1)

    # The server accepts the second word, but its answer never reaches the page...
    relay.swallow = True
    type_word(page, second)
    page.wait_for_timeout(300)
    assert len(relay.swallowed) == 1
    expect(found.locator(f"[data-word={second}]")).to_have_count(0)
    # ...and then the connection dies, and the network stays down for a moment.
    relay.swallow = False
    relay.refuse = True
    relay.drop()
    notice = page.get_by_test_id("connection")
    expect(notice).to_have_text("Connection lost. Reconnecting…")
    type_word(page, third)  # typed while offline: kept, and sent once the link is back
    expect(page.get_by_test_id("feedback")).to_contain_text(
        "will be sent when the connection is back"
    )

    relay.refuse = False
    expect(notice).to_be_hidden(timeout=15_000)
    for word in (first, second, third):
        expect(found.locator(f"[data-word={word}]")).to_have_count(1)
    assert words_stored(game_server, code) == 3  # the resent second word counted once

    page.reload()
    wait_for_board(page)
    for word in (first, second, third):
        expect(found.locator(f"[data-word={word}]")).to_have_count(1)


def test_a_lost_event_is_fetched_again_and_only_the_host_changes_the_lobby(
    open_page: Any, game_server: GameServer
) -> None:
    host, guest = open_page(), open_page()
    relay = Relay()
    host.route_web_socket(SOCKET, relay.route)
    code = create_room(host, "Hana")
    lost: list[str] = []

    def lose_one_join(message: str) -> bool:  # the channel layer drops one event
        if lost or '"player_joined"' not in message:
            return False
        lost.append(message)
        return True

    relay.skip = lose_one_join
    join_by_link(guest, code, "Gus")
    # The guest's next event (connected) reveals the gap: the page asks for what it missed.
    expect(player(host, "Gus")).to_have_count(1)
    assert len(lost) == 1
    assert '{"type":"resume","last_seq":1}' in relay.sent

    open_settings(host)
    host.get_by_label("Game", exact=True).select_option("big")
    for page in (host, guest):
        expect(page.locator("[data-settings-summary]")).to_contain_text("Big Boggle 5×5")
    expect(guest.get_by_text("Change the settings")).to_be_hidden()  # only the host edits
    expect(guest.get_by_test_id("add-bot")).to_be_hidden()

    host.get_by_label("Add a computer player").select_option("hard")
    host.get_by_test_id("add-bot").click()
    for page in (host, guest):
        expect(player(page, "Computer (hard)").locator(".tag.bot")).to_have_text("computer · hard")

    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    host.get_by_test_id("copy-link").click()
    expect(host.get_by_test_id("copy-link")).to_have_text("Link copied")
    assert host.evaluate("navigator.clipboard.readText()") == f"{game_server.url}/r/{code}/"
