"""Under the site's strict Content-Security-Policy (scripts and styles from the site only), a
whole game runs in Chromium without one refused script, style or connection."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.csp import CSPWatch
from tests.browser.pages import create_room, join_by_link, wait_for_board

pytestmark = pytest.mark.browser


def test_a_round_from_home_page_to_results_raises_no_policy_violation(
    open_page: Callable[..., Any],
) -> None:
    ann, bob = open_page(), open_page()
    watches = [CSPWatch(ann), CSPWatch(bob)]

    home = ann.goto("/")
    policy = home.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    code = create_room(ann, "Ann")
    join_by_link(bob, code, "Bob")
    expect(ann.locator("[data-testid=player]")).to_have_count(2)  # the sockets are open
    ann.get_by_test_id("start-round").click()
    wait_for_board(ann)
    wait_for_board(bob)
    ann.get_by_test_id("end-round").click()  # the room is untimed: the host ends it
    expect(ann.get_by_test_id("results")).to_be_visible()
    expect(bob.get_by_test_id("results")).to_be_visible()
    for watch in watches:
        assert watch.violations() == []

    ann.goto("/r/ZZZZZZ/")  # a 404 page is covered as well
    ann.goto(f"/r/{code}/")
    expect(ann.get_by_test_id("board")).to_be_visible()
    assert re.search(r"connect-src 'self' ws://127\.0\.0\.1:\d+", policy)
    for watch in watches:
        assert watch.violations() == []
