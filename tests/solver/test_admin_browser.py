"""In Debian's Chromium: log into the admin, upload a dictionary, check a word, solve a board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from solver.models import Dictionary
from tests.conftest import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
PASSWORD = "a-long-admin-password"


def test_admin_uploads_a_dictionary_checks_a_word_and_solves_a_board(
    live_server: LiveServer, tmp_path: Path
) -> None:
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    words = tmp_path / "garden.txt"
    words.write_text("Rose\nrose\nTULIP\nlily\nlilac\niris\nrosé\nlily\n", encoding="utf-8")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            page.goto(f"{live_server.url}/admin/")
            page.fill("#id_username", "boss")
            page.fill("#id_password", PASSWORD)
            page.click("input[type=submit]")
            expect(page.locator("#site-name")).to_be_visible()

            page.goto(f"{live_server.url}/admin/solver/dictionary/add/")
            page.locator("#id_name").press_sequentially("Garden")
            expect(page.locator("#id_slug")).to_have_value("garden")  # filled in as you type
            page.set_input_files("#id_word_file", str(words))
            page.click("input[name=_continue]")
            messages = page.locator("ul.messagelist")
            expect(messages).to_contain_text("Stored 5 words from garden.txt.")
            # The admin's style capitalises each message.
            expect(messages).to_contain_text(re.compile("removed 2 duplicate word", re.I))
            expect(messages).to_contain_text(
                re.compile(
                    r"skipped 1 word\(s\) with letters outside the alphabet, e.g. ROSÉ", re.I
                )
            )

            page.fill("#id_check", "lil")
            page.click("#check button[type=submit]")
            expect(page.locator("#check [data-status]")).to_have_text(
                "is not a word, but words begin with it."
            )
            page.fill("#id_check", "Tulip")
            page.click("#check button[type=submit]")
            expect(page.locator("#check [data-status]")).to_have_text(
                "is a word in this dictionary."
            )

            page.fill("#id_board", "LILY/XXAC")
            page.click("#solve button[type=submit]")
            expect(page.locator(".solver-score")).to_have_text("Score 3")
            expect(page.locator(".solver-words li")).to_have_text(["LILAC 2", "LILY 1"])
        finally:
            browser.close()
    garden = Dictionary.objects.get(slug="garden")
    assert garden.word_count == 5
