"""The end of a round in the browser: the socket announces it, the page fetches the results
over HTTP (gzip), says so while they load, tries again after a network failure, and says
why when the server refuses them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import create_room, wait_for_board

pytestmark = pytest.mark.browser

RESULTS = re.compile(r"/r/[A-Z0-9]+/rounds/\d+/results\.json$")
# Note what the results view said while loading, however briefly (no timing in the test).
SEEN_LOADING = """() => new MutationObserver(() => {
  const note = document.querySelector("[data-testid=results-loading]");
  if (note) window.seenLoading = note.textContent;
}).observe(document.querySelector("[data-view=results]"), {childList: true, subtree: true})"""


def _play_a_round(page: Any) -> str:
    """Create an untimed room and start a round; return the room's code."""
    code = create_room(page, "Ann")
    page.get_by_test_id("start-round").click()
    wait_for_board(page)
    return code


def test_the_results_come_over_http_when_the_round_ends(open_page: Any) -> None:
    page = open_page()
    code = _play_a_round(page)
    with page.expect_response(RESULTS) as fetched:
        page.get_by_test_id("end-round").click()
    response = fetched.value
    assert response.ok and response.url.endswith(f"/r/{code}/rounds/1/results.json")
    assert response.request.resource_type == "fetch"
    assert response.all_headers().get("content-encoding") == "gzip"
    results = page.get_by_test_id("results")
    expect(results.locator(".results-title")).to_have_text("Round 1: results")
    expect(results.locator(".score-card[data-player=Ann]")).to_be_visible()
    expect(results.locator(".solution")).to_be_visible()
    expect(page.get_by_test_id("start-round")).to_have_text("Start the next round")
    # A new tab (a snapshot of the finished round) fetches them too.
    with page.expect_response(RESULTS):
        page.reload()
    expect(results.locator(".results-title")).to_have_text("Round 1: results")


def test_a_network_failure_is_retried_while_the_page_says_the_results_are_loading(
    open_page: Any,
) -> None:
    page = open_page()
    _play_a_round(page)
    tries: list[str] = []

    def flaky(route: Any) -> None:
        tries.append(route.request.url)
        if len(tries) == 1:
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(RESULTS, flaky)
    page.evaluate(SEEN_LOADING)
    page.get_by_test_id("end-round").click()
    expect(page.get_by_test_id("results").locator(".results-title")).to_have_text(
        "Round 1: results"
    )
    assert page.evaluate("window.seenLoading") == "Loading the results…"
    expect(page.get_by_test_id("results").locator(".score-card")).to_have_count(1)
    assert len(tries) == 2
    expect(page.get_by_test_id("results-loading")).to_have_count(0)


def test_a_refusal_is_explained_and_try_again_fetches_the_results(open_page: Any) -> None:
    page = open_page()
    _play_a_round(page)
    refusal = {"error": "not_in_room", "message": "Only the players in this room see its results."}

    def refuse(route: Any) -> None:
        route.fulfill(status=403, content_type="application/json", body=json.dumps(refusal))

    page.route(RESULTS, refuse)
    page.get_by_test_id("end-round").click()
    error = page.get_by_test_id("results-error")
    expect(error).to_be_visible()
    expect(page.get_by_test_id("results-retry")).to_be_visible()
    expect(error).to_have_text(
        "The results could not be loaded. Only the players in this room see its results."
    )
    page.unroute(RESULTS)
    page.get_by_test_id("results-retry").click()
    expect(page.get_by_test_id("results").locator(".results-title")).to_have_text(
        "Round 1: results"
    )
    expect(error).to_have_count(0)
