"""Anything a player typed is shown as text, never run as HTML."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import create_room, join_by_link, player

pytestmark = pytest.mark.browser

MARKUP = "<img src=x onerror=f()>"  # 23 characters: a nickname has at most 24
# Letters, spaces and apostrophes are allowed, which is enough to break out of an attribute
# or a string in careless code.
QUOTED = "Mal' onfocus 'x' -_."


def test_markup_in_a_nickname_is_refused_and_shown_as_text(open_page: Any) -> None:
    page = open_page()
    page.goto("/")
    page.get_by_test_id("nickname").fill(MARKUP)
    page.get_by_test_id("create-room").click()
    expect(page.locator(".form-error")).to_contain_text("letters, digits, spaces")
    expect(page.get_by_test_id("nickname")).to_have_value(MARKUP)
    assert page.locator("img").count() == 0


def test_a_quoted_nickname_is_shown_exactly_as_typed(open_page: Any) -> None:
    host, guest = open_page(), open_page()
    code = create_room(host, "Host")
    join_by_link(guest, code, QUOTED)
    for page in (host, guest):
        entry = player(page, QUOTED)
        expect(entry).to_have_count(1)
        expect(entry.locator(".name")).to_have_text(QUOTED)
        assert page.locator("[onfocus]").count() == 0
