"""Hints in Chromium: the host turns them on with a cost, a player asks for both kinds and
reads the counts, the results charge them; every websocket frame each page receives is read,
and none names a word or a path the player has not found (with hints off, none says anything
of the solution at all). All under the site's Content-Security-Policy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.csp import CSPWatch
from tests.browser.pages import (
    Frames,
    fill_home_form,
    join_by_link,
    open_settings,
    type_word,
    wait_for_board,
)
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG
from tests.solution_leaks import leaks

pytestmark = pytest.mark.browser


def open_room(page: Any, nickname: str, *, hints: bool, cost: str = "") -> str:
    """Create a room on the fixed dice from the home page, hints on (with a cost) or not."""
    fill_home_form(page, nickname, dice=FIXED_DICE_SLUG)
    if hints:
        page.get_by_test_id("hints-on").check()
        page.get_by_test_id("hint-cost").fill(cost)
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/*/")
    expect(page.get_by_test_id("player")).to_have_count(1)
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def hints_summary(page: Any) -> Any:
    """Return the settings summary's line about hints."""
    return page.locator("[data-settings-summary] dt:text-is('Hints') + dd")


def shown_counts(page: Any, kind: str) -> dict[str, int]:
    """Return the counts a hint box shows for a kind: key -> count."""
    chips = page.get_by_test_id(f"hint-{kind}-counts").locator("li")
    return {
        chip.get_attribute("data-key"): int(chip.get_attribute("data-count"))
        for chip in chips.all()
    }


def test_a_player_takes_both_hints_sees_counts_only_and_pays_in_the_results(
    open_page: Callable[..., Any], game_server: GameServer
) -> None:
    ann, bob = open_page(), open_page()
    watches = [CSPWatch(ann), CSPWatch(bob)]
    ann_frames, bob_frames = Frames(ann), Frames(bob)
    code = open_room(ann, "Ann", hints=True, cost="2")
    join_by_link(bob, code, "Bob")
    expect(ann.get_by_test_id("player")).to_have_count(2)
    expect(ann.get_by_test_id("hints")).to_be_hidden()  # in the lobby: no round to ask about
    expect(hints_summary(bob)).to_have_text("On: 2 points per hint")
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    wait_for_board(bob)
    game = game_server.running_round(code)
    words = [w for w, _, _ in game.solution]
    game.words_needed(3)

    expect(bob.get_by_test_id("hints")).to_be_visible()
    ann.get_by_test_id("hint-lengths").click()
    by_length = Counter(str(len(w)) for w in words)
    expect(ann.get_by_test_id("hint-lengths-counts").locator("li")).to_have_count(len(by_length))
    assert shown_counts(ann, "lengths") == by_length
    found = sorted(words, key=len)[-1]
    type_word(ann, found)
    expect(ann.get_by_test_id("found-words")).to_contain_text(found)
    by_length[str(len(found))] -= 1  # the page takes off a word found since the hint
    assert shown_counts(ann, "lengths") == +by_length
    ann.get_by_test_id("hint-letters").click()
    by_letter = +Counter(w[0] for w in words if w != found)
    expect(ann.get_by_test_id("hint-letters-counts").locator("li")).to_have_count(len(by_letter))
    assert shown_counts(ann, "letters") == by_letter
    key, n = sorted(by_letter.items())[0]
    expect(ann.locator("[data-announcer]")).to_contain_text(  # said once, for screen readers
        f"Hint by first letter: {n} word{'s' * (n != 1)} starting with {key}"
    )
    expect(ann.get_by_test_id("hints-taken")).to_have_text(
        "Hints taken: 2 × 2 points = −4 points this round."
    )

    ann.reload()  # a reload keeps the hints taken and their counts
    wait_for_board(ann)
    expect(ann.get_by_test_id("hints-taken")).to_contain_text("Hints taken: 2 × 2 points")
    assert shown_counts(ann, "letters") == by_letter
    ann.get_by_test_id("end-round").click()
    card = ann.locator(".score-card[data-player=Ann]")
    expect(card.get_by_test_id("hints-charged")).to_have_text(
        "hints: 2 × 2 points (−4, taken off the score)"
    )
    points = next(p for w, _, p in game.solution if w == found)
    expect(card.locator(".score")).to_have_text(f"{points - 4} points")
    expect(
        bob.locator(".score-card[data-player=Bob]").get_by_test_id("hints-charged")
    ).to_have_count(0)

    for frames, own in ((ann_frames, {found}), (bob_frames, set())):
        for frame in frames.before_the_end():
            assert leaks(frame, secret=words, own=own) == [], frame
    hints = [f for f in ann_frames.received if f["type"] == "hint"]
    assert [h["kind"] for h in hints] == ["lengths", "letters"]
    assert not [f for f in bob_frames.received if f["type"] == "hint"]
    for watch in watches:
        assert watch.violations() == []


def test_with_hints_off_the_page_offers_none_and_hears_nothing_of_the_solution_until_on(
    open_page: Callable[..., Any], game_server: GameServer
) -> None:
    ann = open_page()
    frames = Frames(ann)
    code = open_room(ann, "Ann", hints=False)
    expect(hints_summary(ann)).to_have_text("Off")
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    game = game_server.running_round(code)
    words = [w for w, _, _ in game.solution]
    expect(ann.get_by_test_id("hints")).to_be_hidden()
    type_word(ann, words[0])
    expect(ann.get_by_test_id("found-words")).to_contain_text(words[0])
    ann.get_by_test_id("end-round").click()
    expect(ann.get_by_test_id("results")).to_be_visible()
    for frame in frames.before_the_end():
        assert leaks(frame, secret=words, own={words[0]}) == [], frame
        assert frame["type"] != "hint"
        if frame["type"] == "snapshot" and frame["round"]:
            assert "hints" not in frame["round"]

    # Between rounds the host turns them on in the room, and the next round offers them.
    open_settings(ann)
    expect(ann.locator("#settings-hint_cost")).to_be_disabled()
    ann.locator("#settings-hints").check()
    # Ticking the box sends the settings at once: wait for the room to say so before typing
    # the cost, or the server's answer to the first change could redraw the field under it.
    expect(hints_summary(ann)).to_have_text("On: 1 point per hint")
    ann.locator("#settings-hint_cost").fill("3")
    ann.locator("#settings-hint_cost").press("Tab")
    expect(hints_summary(ann)).to_have_text("On: 3 points per hint")
    ann.reload()  # the server kept them
    expect(hints_summary(ann)).to_have_text("On: 3 points per hint")
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    expect(ann.get_by_test_id("hints")).to_contain_text("3 points each")
    ann.get_by_test_id("hint-letters").click()
    expect(ann.get_by_test_id("hints-taken")).to_have_text(
        "Hints taken: 1 × 3 points = −3 points this round."
    )
