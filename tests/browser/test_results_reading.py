"""The results made for reading: one list of every word with filters, one Tab stop per list
with the arrow keys between words, and the word picked shown beside its path with what it
means (asked for only once the round is over)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from solver.engine.definitions import WORD_GAME_NAME, define
from tests.browser.conftest import PHONE
from tests.browser.pages import create_room, type_word, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser

# The fixed dice spell these with YAWL (the browser server's default dictionary).
BOARD_WORDS = ("EST", "ITS", "SEI", "SET", "SIT", "SITE", "STIE", "TES", "TIE", "TIES", "TIS")
FOUND = "SITE"


def play_one_word(page: Any, game_server: GameServer) -> tuple[Any, Any]:
    """Create a room on the fixed dice, find SITE, end the round; return the results and the
    round. Every request for a definition is recorded in page.asked."""
    page.asked = []
    page.on("request", lambda r: page.asked.append(r.url) if "/definition.json" in r.url else None)
    code = create_room(page, "Ann", dice=FIXED_DICE_SLUG)
    page.get_by_test_id("start-round").click()
    # The countdown comes first: on a loaded machine the board may take more than 5 s.
    expect(page.get_by_test_id("word-input")).to_be_enabled(timeout=15_000)
    wait_for_board(page)
    game = game_server.running_round(code)
    assert sorted(w for w, _, _ in game.solution) == list(BOARD_WORDS)
    type_word(page, FOUND)
    expect(page.get_by_test_id("found-words").locator(f"[data-word={FOUND}]")).to_have_count(1)
    # While the round runs, the server refuses to define even a word of it.
    url = f"/r/{code}/rounds/{game.number}/words/{FOUND}/definition.json"
    refused = page.request.get(url)
    assert refused.status == 409 and "still being played" in refused.json()["message"]
    assert page.asked == []  # and the page never asks
    page.get_by_test_id("end-round").click()
    results = page.get_by_test_id("results")
    expect(results.get_by_test_id("word-list")).to_be_visible()
    return results, game


def shown(results: Any) -> list[str]:
    return [
        str(w)
        for w in results.locator("[data-testid=board-word]:visible").evaluate_all(
            "els => els.map(e => e.dataset.word)"
        )
    ]


def test_one_list_filters_by_who_found_length_and_commonness(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    results, _ = play_one_word(page, game_server)
    words = results.get_by_test_id("board-word")
    expect(words).to_have_count(len(BOARD_WORDS))  # each word once, in one list
    status = results.get_by_test_id("list-status")
    expect(status).to_have_text("Showing 10 of 11 words (missed by you).")
    assert FOUND not in shown(results)
    filters = results.get_by_test_id("view-filter")
    filters.get_by_label("Found (1)").check()
    expect(status).to_have_text("Showing 1 of 11 words (found).")
    assert shown(results) == [FOUND]
    filters.get_by_label("All (11)").check()
    expect(status).to_have_text("Showing 11 of 11 words.")
    results.get_by_test_id("length-filter").select_option("4")
    expect(status).to_have_text("Showing 3 of 11 words.")
    assert sorted(shown(results)) == ["SITE", "STIE", "TIES"]
    results.get_by_test_id("sort-filter").select_option("abc")
    expect(results.locator("[data-testid=board-word]:visible").first).to_have_attribute(
        "data-word", "SITE"
    )
    assert shown(results) == ["SITE", "STIE", "TIES"]
    results.get_by_test_id("length-filter").select_option("")
    label = results.get_by_test_id("label-filter")
    choice = label.locator("option").nth(1).get_attribute("value")
    label.select_option(choice)
    kept = results.locator("[data-testid=board-word]:visible")
    assert 0 < kept.count() < len(BOARD_WORDS) or choice == "rare"
    for chip in kept.all():
        assert chip.get_attribute("data-commonness") == choice
    expect(status).to_have_text(f"Showing {kept.count()} of 11 words.")


def test_a_list_is_one_tab_stop_and_the_arrow_keys_move_between_its_words(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    results, _ = play_one_word(page, game_server)
    # One Tab stop per list: my words, and every word on the board.
    stops = results.locator("button.word-chip:not([tabindex='-1'])")
    expect(stops).to_have_count(2)
    results.get_by_test_id("view-filter").get_by_label("All (11)").check()
    results.get_by_test_id("sort-filter").select_option("abc")
    results.get_by_test_id("sort-filter").focus()
    page.keyboard.press("Tab")  # from the last filter into the list
    first = results.locator("[data-testid=board-word]:visible").first
    expect(first).to_be_focused()
    expect(first).to_have_attribute("data-word", "EST")
    page.keyboard.press("ArrowRight")
    expect(results.locator("[data-testid=board-word][data-word=ITS]")).to_be_focused()
    expect(page.get_by_test_id("word-detail-word")).to_have_text("ITS")
    page.keyboard.press("End")
    last = results.locator("[data-testid=board-word][data-word=TIS]")
    expect(last).to_be_focused()
    expect(last).to_have_attribute("tabindex", "0")
    page.keyboard.press("ArrowLeft")
    expect(results.locator("[data-testid=board-word][data-word=TIES]")).to_be_focused()
    page.keyboard.press("Home")
    expect(first).to_be_focused()
    page.keyboard.press("ArrowDown")  # the word below, in the next row of the wrapped list
    top = "document.activeElement.getBoundingClientRect().top"
    below = page.evaluate(top)
    assert below > first.bounding_box()["y"] + 5
    assert page.evaluate("document.activeElement.dataset.testid") == "board-word"
    page.keyboard.press("ArrowUp")
    expect(first).to_be_focused()
    page.keyboard.press("Tab")  # out of the list at once, not to its next word
    assert page.evaluate("document.activeElement.dataset.testid") != "board-word"
    page.keyboard.press("Shift+Tab")  # back in: the word last focused
    expect(first).to_be_focused()


def test_the_word_picked_shows_its_definition_beside_the_board(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    results, _ = play_one_word(page, game_server)
    detail = page.get_by_test_id("word-detail")
    expect(detail.get_by_test_id("word-detail-empty")).to_be_visible()  # its place, kept
    results.get_by_test_id("view-filter").get_by_label("All (11)").check()
    results.locator("[data-testid=board-word][data-word=TIES]").click()
    expect(detail).to_be_visible()
    expect(page.get_by_test_id("word-detail-word")).to_have_text("TIES")
    ties = define("TIES")
    assert ties is not None
    definition = page.get_by_test_id("definition")
    expect(definition.locator("strong")).to_have_text("TIES → tie")  # the base form it shows
    expect(definition.locator(".senses li").first).to_contain_text(ties.senses[0].gloss)
    expect(detail).to_contain_text("Nobody found it.")
    expect(detail.locator(".word-actions[data-word=TIES]")).to_have_count(1)  # per-word actions
    lit = page.locator("[data-testid=cell][data-highlighted=true]")
    expect(lit).to_have_count(4)  # and its path on the board
    # A Collins-only word is defined by the project's own glossary, and says so.
    sei = define("SEI")
    assert sei is not None and sei.source == WORD_GAME_NAME
    results.locator("[data-testid=board-word][data-word=SEI]").focus()
    expect(definition.locator("strong")).to_have_text("sei")
    expect(definition).to_contain_text(f"({WORD_GAME_NAME})")
    # A word no source defines says so: every word of this board has a definition, so the
    # server's answer for such a word (tests/games/rooms/test_word_definitions.py) stands in.
    page.route(
        "**/words/STIE/definition.json",
        lambda route: route.fulfill(json={"word": "STIE", "definition": None, "summary": None}),
    )
    results.locator("[data-testid=board-word][data-word=STIE]").focus()
    expect(definition).to_have_text("No definition.")
    # A word of my own says I found it.
    results.locator(f"[data-testid=result-word][data-word={FOUND}]").focus()
    expect(detail).to_contain_text("You found it.")
    expect(definition.locator("strong")).to_have_text("site")
    asked = sorted({url.rsplit("/", 2)[1] for url in page.asked})
    assert asked == sorted(["SEI", "STIE", FOUND, "TIES"])  # only the words opened, after the end


def test_on_a_phone_the_scores_my_words_and_the_best_missed_come_first(
    open_page: Any, game_server: GameServer
) -> None:
    phone = open_page(PHONE)
    results, _ = play_one_word(phone, game_server)
    order = results.evaluate(
        """el => ['.score-card.me', '.totals', '[data-testid=word-list]'].map(
            s => el.querySelector(s).getBoundingClientRect().top + window.scrollY)"""
    )
    assert order == sorted(order)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    missed = results.locator("[data-testid=board-word]:visible").first
    missed.tap()
    expect(phone.get_by_test_id("word-detail")).to_be_visible()
    expect(phone.get_by_test_id("definition")).not_to_have_text(re.compile("Looking"))
    box = phone.get_by_test_id("word-detail").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740  # in view with the board


def test_the_player_s_reports_arriving_late_move_nothing_above_them(
    open_page: Any, game_server: GameServer
) -> None:
    """The refused words and reports come in their own request after the results are drawn:
    when they arrive, nothing a player may be about to tap moves under their finger."""
    page = open_page()
    held: list[Any] = []
    page.route("**/reports/?round=*", lambda route: held.append(route))
    results, _ = play_one_word(page, game_server)
    expect(results.get_by_test_id("reports")).to_contain_text("Loading")
    assert len(held) == 1
    marks = "[data-testid=view-filter], [data-testid=list-status], [data-testid=board-word]"

    def where() -> list[float]:
        return [
            float(y)
            for y in results.locator(marks).evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().top + window.scrollY)"
            )
        ]

    before = where()
    held[0].continue_()
    expect(results.get_by_test_id("reports")).to_contain_text("None this round.")
    assert where() == before
