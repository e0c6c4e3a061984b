"""In Debian's Chromium, the home page renders with its stylesheet applied."""

import pytest
from playwright.sync_api import sync_playwright
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CHROMIUM

pytestmark = pytest.mark.browser

ACCENT_RGB = "rgb(194, 69, 45)"  # --accent in static/css/site.css


def test_home_page_renders_styled_in_chromium(live_server: LiveServer) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.goto(live_server.url)
            assert page.locator("h1").inner_text() == "Boggle Online"
            brand_colour = page.locator(".brand").evaluate("el => getComputedStyle(el).color")
            assert brand_colour == ACCENT_RGB
        finally:
            browser.close()
