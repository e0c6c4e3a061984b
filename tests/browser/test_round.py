"""Two players in two browsers play a round: by typing, clicking and dragging; then results."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import (
    cell,
    create_room,
    drag_path,
    join_by_link,
    player,
    type_word,
    wait_for_board,
)
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser


def test_two_players_play_a_round_and_see_shared_words_struck(
    open_page: Any, game_server: GameServer
) -> None:
    ann, bob = open_page(), open_page()
    code = create_room(ann, "Ann", dice=FIXED_DICE_SLUG)  # a board with words every time
    join_by_link(bob, code, "Bob")
    for page in (ann, bob):
        expect(page.get_by_test_id("player")).to_have_count(2)
    expect(player(ann, "Ann").locator(".tag.host")).to_be_visible()
    expect(bob.get_by_test_id("start-round")).to_be_hidden()  # only the host starts

    ann.get_by_test_id("start-round").click()
    for page in (ann, bob):
        wait_for_board(page)
    game = game_server.running_round(code)
    game.words_needed(4)  # three to play, and one missed at least
    cols = game.cols
    shared, shared_path = game.word(length=3)
    clicked, clicked_path = game.word(avoid=(shared,))
    dragged, dragged_path = game.word(avoid=(shared, clicked))
    faces = [cell(ann, i, cols).get_attribute("data-face") for i in range(game.rows * cols)]
    assert "".join(faces[i] for i in clicked_path) == clicked  # the page shows the server's board

    # Ann types a word without clicking anywhere first: the letters go to the word input,
    # and the board lights the dice that spell them.
    ann.keyboard.type(shared.lower())
    expect(ann.locator("[data-testid=cell][data-highlighted=true]")).to_have_count(len(shared_path))
    ann.keyboard.press("Enter")
    expect(ann.get_by_test_id("found-words").locator(f"[data-word={shared}]")).to_have_count(1)
    expect(ann.get_by_test_id("feedback")).to_contain_text(f"{shared} +")

    # Ann clicks the dice of a word one after another; a double click on the last sends it.
    for index in clicked_path[:-1]:
        cell(ann, index, cols).click()
    expect(ann.get_by_test_id("word-input")).to_have_value(clicked[: -len(faces[clicked_path[-1]])])
    cell(ann, clicked_path[-1], cols).dblclick()
    expect(ann.get_by_test_id("found-words").locator(f"[data-word={clicked}]")).to_have_count(1)

    # Bob drags through a word with the mouse, and types the word Ann found too.
    drag_path(bob, dragged_path, cols)
    expect(bob.get_by_test_id("found-words").locator(f"[data-word={dragged}]")).to_have_count(1)
    type_word(bob, shared)
    expect(bob.get_by_test_id("found-words").locator("li")).to_have_count(2)
    type_word(bob, "qzxqzx")
    expect(bob.get_by_test_id("feedback")).to_have_text("“QZXQZX” is not in the dictionary.")
    type_word(bob, shared)
    expect(bob.get_by_test_id("feedback")).to_have_text(f"You already have “{shared}”.")

    # Each sees how many words the other has found.
    expect(player(ann, "Bob")).to_have_attribute("data-count", "2")
    expect(player(bob, "Ann")).to_have_attribute("data-count", "2")

    ann.get_by_test_id("end-round").click()
    for page in (ann, bob):
        expect(page.get_by_test_id("results")).to_be_visible()
        results = page.get_by_test_id("results")
        for name in ("Ann", "Bob"):
            struck = results.locator(
                f"[data-testid=result-word][data-word={shared}][data-player={name}]"
            )
            expect(struck).to_have_attribute("data-struck", "true")
        kept = results.locator(f"[data-testid=result-word][data-word={clicked}][data-player=Ann]")
        expect(kept).to_have_attribute("data-struck", "false")
        # Every word on the board is in one list, showing first those this player missed.
        expect(results.get_by_test_id("board-word")).to_have_count(len(game.solution))
        visible = results.locator("[data-testid=board-word]:visible")
        expect(visible).to_have_count(len(game.solution) - 2)

    # Pointing at a word lights its path on the board, die by die, in order.
    ann.get_by_test_id("results").locator(f"[data-testid=result-word][data-word={clicked}]").hover()
    lit = ann.locator("[data-testid=cell][data-highlighted=true]")
    expect(lit).to_have_count(len(clicked_path))
    steps = [cell(ann, i, cols).get_attribute("data-step") for i in clicked_path]
    assert steps == [str(n) for n in range(1, len(clicked_path) + 1)]

    # Focusing a missed word (the keyboard's way of pointing) shows its path too. The mouse
    # leaves the results first: a keyboard player points at nothing, and the page scrolling
    # to the focused word would otherwise move the words under a resting pointer.
    missed = ann.locator("[data-testid=board-word]:visible").first
    ann.mouse.move(0, 0)
    missed.focus()
    path = [int(i) for i in missed.get_attribute("data-path").split(",")]
    expect(lit).to_have_count(len(path))

    # Tapping a die keeps only the words that pass through it.
    start = path[0]
    cell(ann, start, cols).click()
    visible = ann.locator("[data-testid=board-word]:visible")
    expect(ann.get_by_test_id("list-status")).to_contain_text("through the")
    count = visible.count()
    assert 0 < count <= len(game.solution) - 2
    for chip in visible.all():
        assert str(start) in chip.get_attribute("data-path").split(",")
    expect(ann.get_by_test_id("list-status")).to_contain_text(f"Showing {count} of")
    cell(ann, start, cols).click()  # the same die again shows them all
    expect(visible).to_have_count(len(game.solution) - 2)

    expect(ann.get_by_test_id("start-round")).to_have_text(re.compile("next round"))
    expect(bob.get_by_test_id("start-round")).to_be_hidden()


def test_a_word_can_be_traced_with_the_keyboard_alone(
    open_page: Any, game_server: GameServer
) -> None:
    page = open_page()
    code = create_room(page, "Kay", dice=FIXED_DICE_SLUG)
    page.get_by_test_id("start-round").focus()
    page.keyboard.press("Enter")
    wait_for_board(page)
    game = game_server.running_round(code)
    game.words_needed(1)
    word, path = game.word()
    expect(page.get_by_test_id("word-input")).to_be_focused()
    page.keyboard.press("Shift+Tab")  # from the word input back to the board
    expect(cell(page, 0, game.cols)).to_be_focused()

    at = 0
    for index in path:
        rows, cols = index // game.cols - at // game.cols, index % game.cols - at % game.cols
        for _ in range(abs(rows)):
            page.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
        for _ in range(abs(cols)):
            page.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
        expect(cell(page, index, game.cols)).to_be_focused()
        page.keyboard.press("Space")
        at = index
    expect(page.get_by_test_id("word-input")).to_have_value(word)
    page.keyboard.press("Backspace")  # takes the last die back
    expect(page.locator("[data-testid=cell][data-highlighted=true]")).to_have_count(len(path) - 1)
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("found-words").locator(f"[data-word={word}]")).to_have_count(1)
    expect(page.get_by_test_id("feedback")).to_contain_text(f"{word} +")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("word-input")).to_have_value("")
