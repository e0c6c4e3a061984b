"""The room chat and the watch link in Chromium: two players talk (markup shows as typed),
the host mutes one, the chat closes while a round runs; a spectator watches a round from the
lobby to the results, and no frame their page receives names a word before time-up."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations
from tests.browser.pages import Frames, create_room, join_by_link, open_settings, player, type_word
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG
from tests.solution_leaks import leaks

pytestmark = pytest.mark.browser
MARKUP = '<img src=x onerror="document.title=1"> hello <b>Bob</b>'
# Set to a folder to keep the pages' pictures (phone and laptop) for a look by eye.
SHOTS = os.environ.get("BOGGLE_SHOTS", "")
QUICK_TRIES = 30  # lines Bob sends at most to meet the limit (six in ten seconds do)


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True, animations="disabled")


# The board comes after the countdown (a second here); on a loaded machine the page may take a while
# more to draw it, so the wait is longer than expect()'s default 5 s (it ends when it shows).
BOARD_WAIT_MS = 20_000


def board_up(page: Any, *, playing: bool = True) -> None:
    """Wait until the round's board is drawn (and, for a player, words can be entered)."""
    faces = page.locator("[data-testid=cell]:not([data-face=''])").first
    expect(faces).to_be_visible(timeout=BOARD_WAIT_MS)
    if playing:
        expect(page.get_by_test_id("word-input")).to_be_enabled()


def say(page: Any, text: str) -> None:
    """Write a line in the chat and send it with Enter."""
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def lines(page: Any) -> Any:
    return page.get_by_test_id("chat-line")


def test_two_players_chat_as_text_and_the_host_mutes_and_the_round_closes_it(
    open_page: Any,
) -> None:
    ann, bob = (
        open_page(),
        open_page(
            {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
        ),
    )
    code = create_room(ann, "Ann", dice=FIXED_DICE_SLUG)
    join_by_link(bob, code, "Bob")
    expect(bob.get_by_test_id("player")).to_have_count(2)

    say(ann, MARKUP)
    expect(lines(bob)).to_have_count(1)
    expect(lines(bob).first.locator(".chat-text")).to_have_text(MARKUP)  # as text, not HTML
    expect(bob.get_by_test_id("chat").locator("img, b")).to_have_count(0)
    assert bob.title() != "1"
    say(bob, "hi Ann")
    expect(lines(ann)).to_have_count(2)
    expect(lines(ann).nth(1)).to_contain_text("Bob")
    expect(lines(ann).nth(1)).to_contain_text("hi Ann")
    expect(ann.get_by_test_id("chat-input")).to_have_value("")
    shoot(bob, "chat-phone")
    shoot(ann, "chat-laptop")
    assert axe_violations(bob) == [] and axe_violations(ann) == []

    # The host mutes Bob: his box closes and says why; unmuted, he writes again.
    ann.get_by_role("button", name="Mute in the chat: Bob").click()
    expect(player(ann, "Bob").locator(".tag.muted")).to_be_visible()
    expect(bob.get_by_test_id("chat-status")).to_have_text("The host has muted you in the chat.")
    expect(bob.get_by_test_id("chat-input")).to_be_disabled()
    assert axe_violations(bob) == []
    ann.get_by_role("button", name="Unmute in the chat: Bob").click()
    expect(bob.get_by_test_id("chat-input")).to_be_enabled()
    say(bob, "thanks")
    expect(lines(ann)).to_have_count(3)

    # Writing too fast: the limit lets five lines through in ten seconds, so of lines sent
    # one after another (each waiting for its answer, so that what comes back is not raced
    # by the next line being typed), one is refused; it comes back to edit, nobody sees it.
    too_fast = bob.locator("[data-testid=chat-status]", has_text="You are chatting too fast")
    refused = -1
    for i in range(QUICK_TRIES):
        say(bob, f"quick {i}")
        expect(lines(bob).filter(has_text=f"quick {i}").or_(too_fast).first).to_be_visible()
        if too_fast.is_visible():
            refused = i
            break
    assert refused >= 0
    expect(bob.get_by_test_id("chat-input")).to_have_value(f"quick {refused}")

    # A round closes the chat for everyone (by default); its end opens it again.
    ann.get_by_test_id("start-round").click()
    board_up(ann)
    for page in (ann, bob):
        expect(page.get_by_test_id("chat-input")).to_be_disabled()
        expect(page.get_by_test_id("chat-status")).to_contain_text("closed during the round")
    ann.get_by_test_id("end-round").click()
    expect(ann.get_by_test_id("results")).to_be_visible()
    expect(ann.get_by_test_id("chat-input")).to_be_enabled()
    # Events come in order: with the round's end drawn, every earlier line has been too.
    shown = lines(ann).count()
    assert shown == 3 + refused  # the three before, and the quick lines before the refused one
    assert f"quick {refused}" not in ann.get_by_test_id("chat").inner_text()

    bob.reload()  # the room's chat comes back with the snapshot
    expect(lines(bob)).to_have_count(shown)
    expect(lines(bob).first.locator(".chat-text")).to_have_text(MARKUP)

    # The host opens the chat during rounds: the next round keeps it open.
    open_settings(ann)
    ann.get_by_test_id("chat-in-rounds").check()
    chat_setting = bob.locator("[data-settings-summary] dt:text-is('Chat') + dd")
    expect(chat_setting).to_have_text("Open during rounds too")
    ann.get_by_test_id("start-round").click()
    board_up(bob)
    expect(bob.get_by_test_id("chat-input")).to_be_enabled()
    say(ann, "talking while we play")
    expect(lines(bob).last).to_contain_text("talking while we play")


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_a_spectator_watches_a_round_and_sees_no_word_before_the_results(
    open_page: Any, game_server: GameServer, size: dict[str, int]
) -> None:
    ann, bob = open_page(), open_page()
    code = create_room(ann, "Ann", dice=FIXED_DICE_SLUG)
    join_by_link(bob, code, "Bob")
    say(ann, "Welcome, watchers")
    watcher = open_page({"viewport": size})
    frames = Frames(watcher)
    watcher.goto(f"/r/{code}/watch/")

    expect(watcher.get_by_test_id("watching")).to_be_visible()
    expect(ann.get_by_test_id("spectators")).to_have_text("1 spectator is watching.")
    expect(watcher.get_by_test_id("player")).to_have_count(2)
    expect(lines(watcher)).to_have_text(["AnnWelcome, watchers"])
    expect(watcher.get_by_test_id("chat-input")).to_be_hidden()
    expect(watcher.get_by_test_id("chat-status")).to_contain_text("You are watching")
    expect(watcher.get_by_test_id("start-round")).to_be_hidden()
    shoot(watcher, f"watch-lobby-{size['width']}")
    assert axe_violations(watcher) == []

    ann.get_by_test_id("start-round").click()
    board_up(ann)
    board_up(watcher, playing=False)
    expect(watcher.get_by_test_id("word-input")).to_be_hidden()
    expect(watcher.get_by_test_id("watch-note")).to_be_visible()
    game = game_server.running_round(code)
    words = [w for w, _, _ in game.solution]
    type_word(ann, words[0])
    type_word(bob, words[1])
    type_word(ann, words[2])
    expect(player(watcher, "Ann")).to_have_attribute("data-count", "2")
    expect(player(watcher, "Bob")).to_have_attribute("data-count", "1")
    late = open_page({"viewport": size})  # comes in mid-round: a snapshot with counts only
    late_frames = Frames(late)
    late.goto(f"/r/{code}/watch/")
    expect(player(late, "Ann")).to_have_attribute("data-count", "2")
    expect(bob.get_by_test_id("spectators")).to_have_text("2 spectators are watching.")
    expect(late.get_by_test_id("word-input")).to_be_hidden()
    shoot(watcher, f"watch-round-{size['width']}")
    assert axe_violations(watcher) == []

    ann.get_by_test_id("end-round").click()
    results = watcher.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(results.get_by_test_id("board-word")).to_have_count(len(game.solution))
    expect(
        results.locator(f"[data-testid=result-word][data-player=Ann][data-word={words[0]}]")
    ).to_have_count(1)
    views = results.get_by_test_id("view-filter").locator("label")
    unfound = len(game.solution) - 3  # Ann found two words and Bob one
    expect(views).to_have_text([f"Missed by everyone ({unfound})", "Found (3)", re.compile("All")])
    views.first.click()  # the words nobody found: none of the players' is among them
    expect(results.get_by_test_id("board-word").filter(visible=True)).to_have_count(unfound)
    for word in words[:3]:
        expect(results.locator(f"[data-testid=board-word][data-word={word}]")).to_be_hidden()
    expect(results).not_to_contain_text("missed by you")
    shoot(watcher, f"watch-results-{size['width']}")
    assert axe_violations(watcher) == []
    expect(late.get_by_test_id("results")).to_be_visible()
    for frame in frames.before_the_end() + late_frames.before_the_end():
        assert leaks(frame, secret=words, own=()) == [], frame
        assert frame["type"] not in ("submit_result", "hint"), frame
