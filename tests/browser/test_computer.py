"""Playing against the computer: a solo game from the home page, and a room with a bot."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import fill_home_form, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser


def test_a_solo_game_ends_with_the_computer_taking_every_missed_word(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    fill_home_form(page, "Solo", duration=None, dice=FIXED_DICE_SLUG)  # a board with words
    page.get_by_test_id("play-solo").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    expect(page.get_by_test_id("copy-link")).to_be_hidden()  # nobody else to invite
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    game = game_server.running_round(code)
    game.words_needed(2)  # one for me, the rest for the computer
    word, _ = game.word()
    entry = page.get_by_test_id("word-input")
    entry.press_sequentially(word.lower(), delay=10)
    entry.press("Enter")
    expect(page.get_by_test_id("found-words").locator(f"[data-word={word}]")).to_have_count(1)
    page.get_by_test_id("end-round").click()  # "I am done": the computer's turn follows
    results = page.get_by_test_id("results")
    expect(results.locator(".verdict")).to_be_visible()
    expect(results.locator(".computer-turn")).to_contain_text("The computer's turn")
    missed = results.locator("[data-testid=board-word]:visible")  # missed by me, the default
    expect(missed).to_have_count(len(game.solution) - 1)
    # The verdict names the most common word the computer took, with what it means.
    best = results.get_by_test_id("best-missed")
    expect(best).to_have_attribute("data-word", missed.first.get_attribute("data-word"))
    expect(results.get_by_test_id("verdict-definition")).to_contain_text(re.compile(r"\w"))
    expect(results.locator(".commonness").first).to_have_text(
        re.compile(r"everyday|common|uncommon|rare")
    )
    # Every word carries its label: mine, the missed ones and the whole solution.
    label = re.compile(r"^ (everyday|common|uncommon|rare)$")
    mine = results.locator(f"[data-testid=result-word][data-word={word}] [data-testid=commonness]")
    expect(mine).to_have_text(label)
    every = results.locator("[data-testid=board-word] [data-testid=commonness]")
    expect(every).to_have_count(len(game.solution))
    for text in every.all_text_contents():
        assert label.match(text), text


def test_a_room_with_a_computer_player_shows_its_words_counted(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    fill_home_form(page, "Host", duration="0", dice=FIXED_DICE_SLUG)  # a board with words
    page.get_by_test_id("create-room").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.locator("[data-add-bot] select").select_option("humbling")
    page.get_by_test_id("add-bot").click()
    expect(page.get_by_test_id("player")).to_have_count(2)
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    game_server.running_round(code).words_needed(1)  # something for the bot to find
    bot_row = page.get_by_test_id("player").filter(has_text="Computer (humbling)")
    # The bot plays on the server (the worker's sweep), a word every half second or so.
    expect(bot_row).to_contain_text(re.compile(r"[1-9]\d* words?"), timeout=15_000)
    page.get_by_test_id("end-round").click()
    expect(page.get_by_test_id("results")).to_contain_text("Computer (humbling)")
