"""In Debian's Chromium, the word report loop: a player reports words from the results (one
that counted, one the server refused), an admin acts on them in the queue, and the player
sees the outcome on reopening the results; nothing breaks the page's CSP."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.csp import CSPWatch
from tests.browser.pages import create_room, join_by_link, type_word, wait_for_board
from tests.browser.server import GameServer
from tests.fixed_dice import FIXED_DICE_SLUG

pytestmark = pytest.mark.browser

PASSWORD = "a-long-moderator-password"
SUPERUSER = (
    "from django.contrib.auth.models import User;"
    "User.objects.filter(username='moderator').exists() or "
    f"User.objects.create_superuser('moderator', 'mod@example.com', '{PASSWORD}')"
)
# On the fixed S I T E dice with YAWL: STIE is in the list (Scots for a sty), SETI is not.
COUNTED, REFUSED = "STIE", "SETI"
# Put YAWL back as it was: the server is shared by the session's other browser tests.
RESTORE = (
    "from solver.models import Dictionary; from solver.dictionaries import services as s;"
    "d = Dictionary.objects.get(slug='yawl');"
    "d.changes.filter(word__in=['STIE', 'SETI']).delete(); s._refresh(d)"
)


def test_a_player_reports_words_an_admin_acts_and_the_player_sees_the_outcome(
    game_server: GameServer, open_page: Callable[..., Any]
) -> None:
    ann, bob = open_page(), open_page()
    watch = CSPWatch(ann)
    code = create_room(ann, "Ann", dice=FIXED_DICE_SLUG)
    join_by_link(bob, code, "Bob")
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    wait_for_board(bob)
    type_word(ann, COUNTED)
    expect(ann.get_by_test_id("found-words").locator(f"[data-word={COUNTED}]")).to_have_count(1)
    type_word(ann, REFUSED)
    expect(ann.get_by_test_id("feedback")).to_have_text(f"“{REFUSED}” is not in the dictionary.")
    type_word(bob, "SITE")
    expect(bob.get_by_test_id("found-words").locator("[data-word=SITE]")).to_have_count(1)
    ann.get_by_test_id("end-round").click()

    # Ann's results list the word she was refused, with the reason; Bob's list none.
    results = ann.get_by_test_id("results")
    refused = results.get_by_test_id("refused-word")
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text(f"{REFUSED}not in the dictionary")
    expect(bob.get_by_test_id("reports").get_by_text("None this round.")).to_be_visible()

    # She taps her word, reports it with a reason, and sees it marked.
    mine = results.locator(f".score-card[data-player=Ann] [data-word={COUNTED}]")
    mine.click()
    results.get_by_test_id("report-open").click()
    dialog = ann.get_by_test_id("report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("report-kind")).to_contain_text("This should not count")
    expect(dialog.get_by_test_id("report-reason")).to_be_focused()
    ann.keyboard.type("Scots, not English")
    dialog.get_by_test_id("report-send").click()
    expect(dialog).to_be_hidden()
    expect(mine).to_be_focused()  # back where she was
    state = results.locator(f"li:has([data-word={COUNTED}]) [data-testid=report-state]")
    expect(state.first).to_contain_text("reported")
    expect(results.get_by_test_id("my-report")).to_have_text(
        f"{COUNTED} (should not count: “Scots, not English”): Reported: waiting for the admin."
    )
    mine.click()  # a reported word offers no second report
    expect(results.get_by_test_id("report-open")).to_have_count(0)

    # And the refused word, as a word, with the keyboard alone.
    refused.focus()
    ann.keyboard.press("Enter")
    ann.keyboard.press("Tab")
    expect(results.get_by_test_id("report-open")).to_be_focused()
    ann.keyboard.press("Enter")
    expect(dialog.get_by_test_id("report-kind")).to_contain_text("This is a word")
    ann.keyboard.press("Enter")  # no reason: it is optional
    expect(results.get_by_test_id("my-report")).to_have_count(2)

    # The admin acts in the queue.
    game_server.manage("shell", "-c", SUPERUSER)
    admin = open_page()
    try:
        admin.goto("/admin/login/")
        admin.fill("#id_username", "moderator")
        admin.fill("#id_password", PASSWORD)
        admin.click("input[type=submit]")
        admin.goto("/admin/games/wordreport/")
        admin.get_by_role("link", name=re.compile("^YAWL")).or_(
            admin.locator("strong[aria-current=page]", has_text="YAWL")
        ).first.click()
        entry = admin.locator(f"[data-testid=queue-entry][data-word={COUNTED}]")
        expect(entry.locator("[data-field=count]")).to_contain_text("1 report from 1 room")
        expect(entry.locator("[data-field=count]")).to_contain_text("“Scots, not English”")
        expect(entry.locator("[data-field=kind]")).to_have_text("this should not count")
        entry.get_by_test_id("decide-remove").click()
        expect(admin.locator(".messagelist")).to_contain_text(f"{COUNTED}: removed from")
        added = admin.locator(f"[data-testid=queue-entry][data-word={REFUSED}]")
        expect(added.locator("[data-field=kind]")).to_have_text("this is a word")
        added.get_by_test_id("decide-add").click()
        expect(admin.locator(".messagelist")).to_contain_text(f"{REFUSED}: added to")

        # Ann opens the results again: each report says what the admin decided.
        ann.reload()
        expect(results.locator(f"[data-testid=my-report][data-word={COUNTED}]")).to_contain_text(
            "Removed from the dictionary."
        )
        expect(results.locator(f"[data-testid=my-report][data-word={REFUSED}]")).to_contain_text(
            "Added to the dictionary."
        )
        expect(state.first).to_contain_text("removed")

        # And from her record, the round's own page says the same: refused word, outcomes.
        ann.goto(f"/r/{code}/rounds/1/")
        past = ann.get_by_test_id("results")
        expect(past.get_by_test_id("refused-word")).to_contain_text(REFUSED)
        expect(past.locator(f"[data-testid=my-report][data-word={COUNTED}]")).to_contain_text(
            "Removed from the dictionary."
        )
        expect(past.locator(f"[data-testid=my-report][data-word={REFUSED}]")).to_contain_text(
            "Added to the dictionary."
        )
        assert watch.violations() == []
    finally:
        game_server.manage("shell", "-c", RESTORE)
