"""In Chromium, under the site's Content-Security-Policy: derive an everyday dictionary from
the change page's link, preview it, save it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from solver.models import Dictionary
from tests.browser.csp import CSPWatch
from tests.conftest import CHROMIUM
from tests.solver.conftest import dictionary_of
from tests.solver.test_admin_browser import FLAGS, PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_previews_and_saves_an_everyday_dictionary(live_server: LiveServer) -> None:
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    nursery = dictionary_of("cat dog house ewe qat aalii xyst aa", slug="nursery")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            watch = CSPWatch(page)
            page.goto(f"{live_server.url}/admin/login/")
            page.fill("#id_username", "boss")
            page.fill("#id_password", PASSWORD)
            page.click("input[type=submit]")
            page.goto(f"{live_server.url}/admin/solver/dictionary/{nursery.pk}/change/")
            page.get_by_test_id("derive-everyday").click()
            page.fill("#id_slug", "everyday-nursery")
            page.fill("#id_threshold", "4.5")
            page.get_by_test_id("everyday-preview").click()
            expect(page.locator("[data-field=kept]")).to_have_text("3")
            expect(page.get_by_test_id("most-common-dropped")).to_contain_text("EWE")
            page.get_by_test_id("everyday-save").click()
            expect(page.locator(".messagelist")).to_contain_text("Created Everyday English: 3")
            assert watch.violations() == []
        finally:
            browser.close()
    assert Dictionary.objects.get(slug="everyday-nursery").word_count == 3
