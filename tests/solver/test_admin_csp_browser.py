"""In Debian's Chromium, the admin's pages work under the site's strict Content-Security-Policy:
its scripts (filling in a slug as you type, the calendar, the filters) come from the site's
own files, and nothing is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from solver.models import DiceSet
from tests.browser.csp import CSPWatch
from tests.conftest import CHROMIUM
from tests.solver.test_admin_browser import FLAGS, PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("shipped_data"),
]

PAGES = [
    "/admin/",
    "/admin/solver/dictionary/",
    "/admin/solver/diceset/",
    "/admin/auth/user/",
    "/admin/auth/user/add/",
    "/admin/auth/user/?is_staff__exact=1",
    "/admin/games/wordreport/",
]


def test_admin_pages_raise_no_policy_violation(live_server: LiveServer) -> None:
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    dice = DiceSet.objects.get(slug="classic16")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            watch = CSPWatch(page)
            login = page.goto(f"{live_server.url}/admin/login/")
            assert "frame-ancestors 'none'" in login.headers["content-security-policy"]
            page.fill("#id_username", "boss")
            page.fill("#id_password", PASSWORD)
            page.click("input[type=submit]")
            expect(page.locator("#site-name")).to_be_visible()
            for path in [*PAGES, f"/admin/solver/diceset/{dice.pk}/change/"]:
                page.goto(f"{live_server.url}{path}")
                expect(page.locator("#site-name")).to_be_visible()
                assert watch.violations() == [], path

            page.goto(f"{live_server.url}/admin/solver/dictionary/add/")
            page.locator("#id_name").press_sequentially("Garden")
            expect(page.locator("#id_slug")).to_have_value("garden")  # the admin's own script
            assert watch.violations() == []
        finally:
            browser.close()
