"""The board's richness and a given board, in the browser: chosen on the forms, refused with
the reason, played by the round, and ranked in the results."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import create_room, fill_home_form, open_settings, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser


def band_floor(server: GameServer, dice: str, percentile: int) -> int:
    """Return the score at a percentile of the stored standing of a dice set's boards."""
    with sqlite3.connect(server.database, timeout=10) as db:
        rows = db.execute(
            "SELECT s.score_quantiles FROM solver_boardstanding s"
            " JOIN solver_diceset d ON s.dice_set_id = d.id WHERE d.slug = ?",
            (dice,),
        ).fetchall()
    assert len(rows) == 1, f"{len(rows)} standings of {dice}"
    return int(json.loads(rows[0][0])[percentile * 10])


def test_a_band_chosen_on_the_home_page_draws_the_rounds_board(
    open_page: Any, game_server: GameServer
) -> None:
    ann = open_page()
    fill_home_form(ann, "Ann")
    richness = ann.get_by_label("Board richness")
    explain = ann.locator("#id_richness-explain")
    expect(explain).to_have_text("Any board the dice roll.")
    richness.select_option("monster")
    expect(explain).to_have_text(
        "Monster: boards in the top 5% by total points for these dice and this dictionary."
    )
    expect(ann.get_by_test_id("min-words")).to_be_hidden()
    ann.get_by_test_id("create-room").click()
    ann.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = ann.url.rstrip("/").rsplit("/", 1)[1]
    expect(ann.locator("[data-settings-summary]")).to_contain_text("Monster")

    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    game = game_server.running_round(code)
    score = sum(points for _, _, points in game.solution)
    assert score >= band_floor(game_server, "new16", 95), (game.board, score)

    ann.get_by_test_id("end-round").click()
    standing = ann.get_by_test_id("board-standing")
    expect(standing).to_contain_text(f"{len(game.solution):,} words, {score:,} points")
    expect(standing).to_contain_text("of boards for these dice and this dictionary")


def test_a_word_count_no_board_reaches_is_refused_in_the_room_and_the_form_says_so(
    open_page: Any, game_server: GameServer
) -> None:
    ann = open_page()
    create_room(ann, "Ann", dice=FIXED_DICE_SLUG)
    open_settings(ann)
    ann.get_by_label("Board richness").select_option("words")
    words = ann.get_by_test_id("min-words")
    expect(words).to_be_visible()
    words.fill("500")  # the fixed dice spell the same few words on every board
    words.press("Tab")
    refusal = ann.get_by_test_id("settings-feedback")  # in the editor, not the hidden entry
    expect(refusal).to_contain_text("Those settings cannot be used: 500 words is too many")
    expect(refusal).to_be_visible()
    expect(ann.get_by_label("Board richness")).to_have_value("")  # back to what is saved
    expect(ann.locator("[data-settings-summary]")).to_contain_text("Any board")


def test_a_given_board_is_refused_with_the_reason_or_played_once(
    open_page: Any, game_server: GameServer
) -> None:
    ann = open_page()
    code = create_room(ann, "Ann", dice=FIXED_DICE_SLUG)
    open_settings(ann)
    given = ann.get_by_test_id("give-board")
    given.fill("SS/IE")
    ann.get_by_test_id("give-board-send").click()
    # Beside the board, where the host looks: it went to the word entry's line, hidden here.
    refusal = ann.get_by_test_id("give-board-feedback")
    expect(refusal).to_contain_text("That board cannot be played: the dice cannot roll this board")
    expect(refusal).to_be_visible()
    expect(ann.get_by_test_id("board-given")).to_be_hidden()
    given.fill("ts/ie")
    ann.get_by_test_id("give-board-send").click()
    expect(ann.get_by_test_id("board-given")).to_be_visible()
    expect(given).to_have_value("")

    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    faces = [c.get_attribute("data-face") for c in ann.get_by_test_id("cell").all()]
    assert faces == ["T", "S", "I", "E"]
    assert game_server.running_round(code).board == "2x2-TSIE"
    expect(ann.get_by_test_id("board-given")).to_be_hidden()  # used: the next is drawn
    ann.get_by_test_id("end-round").click()
    expect(ann.get_by_test_id("board-standing")).to_contain_text("The host's board: ")


def test_a_link_to_the_home_page_fills_in_the_board_and_opens_a_room_on_it(
    open_page: Any, game_server: GameServer
) -> None:
    ann = open_page()
    ann.goto(f"/?board=2x2-EITS&dice={FIXED_DICE_SLUG}&rows=2&cols=2&min_length=3")
    expect(ann.get_by_test_id("given-board")).to_have_value("2x2-EITS")
    expect(ann.get_by_label("Dice", exact=True)).to_have_value(FIXED_DICE_SLUG)
    ann.get_by_test_id("nickname").fill("Ann")
    ann.get_by_test_id("create-room").click()
    ann.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = ann.url.rstrip("/").rsplit("/", 1)[1]
    expect(ann.get_by_test_id("board-given")).to_be_visible()
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    assert game_server.running_round(code).board == "2x2-EITS"
