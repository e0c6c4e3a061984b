"""Word reports over HTTP: only a seated player, only a finished round, JSON in and out, a
clear error and nothing stored for bad input, and a limit per address."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from games import protocol
from games.identity import COOKIE_NAME, cookie_value
from games.limits import throttle
from games.limits.throttle import REPORTS_SENT
from games.models import WordReport
from games.reports import services as reports
from games.reports.views import MAX_BODY_BYTES, NO_ROUND, UNREADABLE
from games.rooms.views import NO_SUCH_ROOM
from games.rounds.selectors import NO_SUCH_ROUND
from games.seats.services import player_leave
from solver.models import Dictionary
from tests.games.conftest import make_room
from tests.games.reports.test_reports import NOT_IN_LIST, played

pytestmark = pytest.mark.django_db

ADDRESS = "198.18.200.7"  # an address no other test counts attempts for
NOW = 1_800_000_000.0


def browser(cookie: str | None = None) -> Client:
    """A browser, with the identity cookie of a seat when given one."""
    client = Client(enforce_csrf_checks=True)
    if cookie:
        client.cookies[COOKIE_NAME] = cookie
    return client


def url(code: str) -> str:
    return f"/r/{code}/reports/"


def post(client: Client, code: str, body: Any, *, raw: bool = False) -> Any:
    """POST a report as the room page does: JSON, with the CSRF token of the page."""
    page = client.get(f"/r/{code}/")
    token = page.context["client"]["csrfToken"] if page.context else ""
    data = body if raw else json.dumps(body)
    return client.post(
        url(code), data, content_type="application/json", headers={"X-CSRFToken": token}
    )


def session_of(nickname: str, rnd: Any) -> str:
    """Return the identity cookie of a player's browser."""
    identity = rnd.room.players.get(nickname=nickname).identity
    assert identity is not None
    return cookie_value(identity)


@pytest.fixture
def finished(game_data: Dictionary) -> Any:
    rnd, _, _ = played()
    return rnd


def test_the_room_page_gives_the_reports_address_and_a_csrf_token(finished: Any) -> None:
    client = browser(session_of("Bob", finished))
    data = client.get(f"/r/{finished.room.code}/").context["client"]
    assert data["reportsUrl"] == url(finished.room.code)
    assert data["csrfToken"]


def test_a_player_gets_their_refused_words_and_reports_uncached(finished: Any) -> None:
    code = finished.room.code
    client = browser(session_of("Bob", finished))
    response = client.get(url(code), {"round": finished.number})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    mine = response.json()
    assert [r["word"] for r in mine["refused"]] == [NOT_IN_LIST, "THE", "IT"]
    assert mine["reports"] == [] and mine["reason_max"] == reports.REASON_MAX_CHARS


def test_a_player_reports_a_word_and_reads_it_back(finished: Any) -> None:
    code = finished.room.code
    client = browser(session_of("Bob", finished))
    body = {"round": 1, "word": "site", "kind": "should_not_count", "reason": "a place"}
    response = post(client, code, body)
    assert response.status_code == 201, response.content
    assert response.json()["reports"] == [
        {
            "word": "SITE",
            "kind": "should_not_count",
            "reason": "a place",
            "outcome": "pending",
            "outcome_text": "Reported: waiting for the admin.",
        }
    ]
    again = post(client, code, body)
    assert again.status_code == 409
    assert again.json() == {
        "error": reports.ALREADY_REPORTED,
        "message": reports.ALREADY_REPORTED_TEXT.format(word="SITE"),
    }
    assert WordReport.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code", "message"),
    [
        ({"round": 1, "word": "CAT", "kind": "should_not_count"}, 400, reports.NOT_IN_ROUND,
         reports.NOT_IN_ROUND_TEXT.format(word="CAT")),
        ({"round": 1, "word": "SITE", "kind": "nonsense"}, 400, reports.BAD_REPORT,
         reports.BAD_KIND),
        ({"round": 1, "word": 7, "kind": "should_not_count"}, 400, reports.BAD_REPORT,
         reports.BAD_WORD),
        ({"round": 1, "word": "SITE", "kind": "should_not_count", "reason": "x" * 201}, 400,
         reports.BAD_REPORT, reports.REASON_TOO_LONG),
        ({"word": "SITE", "kind": "should_not_count"}, 400, reports.BAD_REPORT, NO_ROUND),
        ({"round": True, "word": "SITE", "kind": "should_not_count"}, 400, reports.BAD_REPORT,
         NO_ROUND),
        ({"round": 9, "word": "SITE", "kind": "should_not_count"}, 404, NO_SUCH_ROUND,
         "This room has no round 9."),
        (["SITE"], 400, reports.BAD_REPORT, UNREADABLE),
        ("{not json", 400, reports.BAD_REPORT, UNREADABLE),
        ({"round": 1, "word": "SITE", "reason": "x" * MAX_BODY_BYTES}, 400, reports.BAD_REPORT,
         UNREADABLE),
    ],
)  # fmt: skip
def test_bad_reports_get_a_clear_error_and_store_nothing(
    finished: Any, body: Any, status: int, code: str, message: str
) -> None:
    client = browser(session_of("Bob", finished))
    raw = isinstance(body, str)
    response = post(client, finished.room.code, body, raw=raw)
    assert response.status_code == status
    assert response.json() == {"error": code, "message": message}
    assert not WordReport.objects.exists()


def test_a_running_round_cannot_be_reported_or_read(game_data: Dictionary) -> None:
    rnd, _, _ = played(finish=False)
    client = browser(session_of("Bob", rnd))
    body = {"round": rnd.number, "word": "SITE", "kind": "should_not_count"}
    read = client.get(url(rnd.room.code), {"round": 1})
    for response in (post(client, rnd.room.code, body), read):
        assert response.status_code == 409
        assert response.json() == {
            "error": protocol.ROUND_RUNNING,
            "message": reports.ROUND_NOT_OVER,
        }
    assert not WordReport.objects.exists()


def test_only_a_seated_player_reports_and_a_post_needs_the_csrf_token(finished: Any) -> None:
    code = finished.room.code
    body = {"round": 1, "word": "SITE", "kind": "should_not_count"}
    _, _, eve_key = make_room(nickname="Eve")
    for client in (browser(), browser(eve_key)):
        response = client.get(url(code), {"round": 1})
        assert response.status_code == 403
        assert response.json()["error"] == protocol.NOT_IN_ROOM
    assert browser().get(url("NOROOM"), {"round": 1}).json()["error"] == NO_SUCH_ROOM
    forged = browser(session_of("Bob", finished)).post(
        url(code), json.dumps(body), content_type="application/json"
    )
    assert forged.status_code == 403  # no CSRF token: a page elsewhere cannot report for you
    assert not WordReport.objects.exists()


def test_reports_are_limited_per_address(
    finished: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOGGLE_REPORTS_PER_ADDRESS = 2
    monkeypatch.setattr(throttle, "_now", lambda: NOW)  # every attempt in one window
    window, _ = throttle._window(NOW, REPORTS_SENT.window)
    key = f"{REPORTS_SENT.name}:{ADDRESS}:{window}"
    caches["throttle"].delete(key)  # the counters may be in Redis, kept from an earlier run
    client = browser(session_of("Bob", finished))
    client.defaults["REMOTE_ADDR"] = ADDRESS
    code = finished.room.code
    first = post(client, code, {"round": 1, "word": "CAT", "kind": "should_not_count"})
    assert first.status_code == 400  # refused reports count too: a flood costs queries
    second = post(client, code, {"round": 1, "word": "SITE", "kind": "should_not_count"})
    assert second.status_code == 201
    limited = post(client, code, {"round": 1, "word": NOT_IN_LIST, "kind": "is_a_word"})
    assert limited.status_code == 429
    assert limited.json() == {"error": protocol.RATE_LIMITED, "message": REPORTS_SENT.refusal}
    assert int(limited["Retry-After"]) > 0
    assert list(WordReport.objects.values_list("word", flat=True)) == ["SITE"]
    caches["throttle"].delete(key)


def test_a_player_who_left_the_room_still_reports_from_the_round_they_played(
    finished: Any,
) -> None:
    """The record opens a round again after its player left the room; reporting from it
    goes through the seat that played it, as the results do
    (games.rounds.selectors.round_and_seat)."""
    bob = finished.room.players.get(nickname="Bob")
    cookie = session_of("Bob", finished)
    player_leave(room=finished.room, player=bob, now=finished.finished_at)
    client = browser(cookie)
    mine = client.get(url(finished.room.code), {"round": finished.number})
    assert mine.status_code == 200, mine.content
    assert [r["word"] for r in mine.json()["refused"]] == [NOT_IN_LIST, "THE", "IT"]
    token = client.get("/account/login/").context["csrf_token"]
    body = {"round": 1, "word": "site", "kind": "should_not_count"}
    response = client.post(
        url(finished.room.code),
        json.dumps(body),
        content_type="application/json",
        headers={"X-CSRFToken": str(token)},
    )
    assert response.status_code == 201, response.content
    assert WordReport.objects.get().player_id == bob.pk
