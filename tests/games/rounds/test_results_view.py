"""A round's results over HTTP: only for browsers seated in the room, only once the round is
over, compressed, and cacheable (finished results never change)."""

from __future__ import annotations

import gzip
import json
from datetime import timedelta

import pytest
from django.test import Client

from games.models import Round
from games.protocol import NOT_IN_ROOM, ROUND_RUNNING
from games.rooms.views import NO_SUCH_ROOM
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.selectors import NO_SUCH_ROUND, NOT_SEEN
from games.rules import clock
from games.rules.scoring import round_results
from games.seats import services as seats
from solver.engine.commonness import commonness
from solver.models import Dictionary
from tests.games.conftest import make_room, seat

pytestmark = pytest.mark.django_db

SEED = 6  # a 10×10 board with well over 100 words in the test list: results worth gzipping


def browser(cookie: str | None = None) -> Client:
    client = Client()
    if cookie:
        client.cookies["player"] = cookie
    return client


def played(*, finish: bool = True) -> tuple[Round, str, str]:
    """Return a seeded round (finished unless asked), the host's and a player's identity cookies."""
    settings = {"preset": "custom", "dice": "english-letters", "rows": 10, "cols": 10}
    room, host, host_key = make_room({**settings, "duration": 0})
    _, bob_key = seat(room, "Bob")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    if finish:
        assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
        rnd.refresh_from_db()
    return rnd, host_key, bob_key


def url(rnd: Round) -> str:
    return f"/r/{rnd.room.code}/rounds/{rnd.number}/results.json"


def test_a_seated_browser_gets_the_stored_results(game_data: Dictionary) -> None:
    rnd, host_key, bob_key = played()
    for key in (host_key, bob_key):
        response = browser(key).get(url(rnd))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        shown = response.json()
        assert shown["players"] == rnd.results["players"]
        assert len(shown["solution"]) == len(rnd.solution) > 100


def test_an_empty_round_stores_its_words_once_and_shows_them_all(game_data: Dictionary) -> None:
    """Started and ended with nothing found (an untimed room in a loop made 15 a second, each
    storing the board's words three times): the results keep the players' table only, and
    the board's words are rebuilt from the round's solution when read, the same as before."""
    rnd, host_key, _ = played()
    stored = rnd.results
    assert stored["unfound"] is True and "solution" not in stored and "missed" not in stored
    shown = browser(host_key).get(url(rnd)).json()
    whole = round_results(
        solution=rnd.solution, found=[], players={}, cancel_duplicates=False,
        commonness=commonness,
    )  # fmt: skip
    assert shown["solution"] == whole["solution"] and shown["missed"] == whole["missed"]
    assert "unfound" not in shown
    assert len(json.dumps(stored)) * 5 < len(json.dumps(shown))  # a fifth of what it was


def test_a_round_with_a_word_found_stores_its_results_whole(game_data: Dictionary) -> None:
    rnd, host_key, _ = played(finish=False)
    word, _, _ = rnd.solution[0]
    answer = submissions.submission_create(
        player_id=rnd.room.host_id, room_id=rnd.room_id, client_id="w1", word=word,
        path=None, now=rnd.starts_at + timedelta(seconds=1),
    )  # fmt: skip
    assert answer["accepted"], answer
    assert rounds.round_end(round_id=rnd.id, now=rnd.starts_at + timedelta(seconds=2), force=True)
    rnd.refresh_from_db()
    assert "unfound" not in rnd.results and len(rnd.results["solution"]) == len(rnd.solution)
    assert browser(host_key).get(url(rnd)).json() == rnd.results


def test_browsers_without_a_seat_are_refused_with_a_reason(game_data: Dictionary) -> None:
    rnd, _, bob_key = played()
    other_room, _, other_key = make_room(nickname="Eve")
    for client in (browser(), browser(other_key), browser("no-such-session")):
        response = client.get(url(rnd))
        assert response.status_code == 403
        assert response.json() == {
            "error": NOT_IN_ROOM,
            "message": NOT_SEEN,
        }
    bob = rnd.room.players.get(nickname="Bob")
    seats.player_leave(room=rnd.room, player=bob, now=clock.now())
    assert browser(bob_key).get(url(rnd)).status_code == 200  # he played it (his record)
    host = rnd.room.players.get(nickname="Ann")
    later = rounds.round_start(room=rnd.room, player=host, now=clock.now(), seed=SEED)
    assert rounds.round_end(round_id=later.id, now=clock.now(), force=True)
    assert browser(bob_key).get(url(later)).status_code == 403  # played after he left


def test_a_running_rounds_results_never_leave(game_data: Dictionary) -> None:
    rnd, host_key, _ = played(finish=False)
    response = browser(host_key).get(url(rnd))
    assert response.status_code == 409
    assert response.json() == {
        "error": ROUND_RUNNING,
        "message": "The round is still being played.",
    }
    assert rnd.solution[0][0] not in response.content.decode()


def test_unknown_rooms_and_rounds_are_404_with_a_reason(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    missing_round = browser(host_key).get(f"/r/{rnd.room.code}/rounds/2/results.json")
    assert missing_round.status_code == 404
    assert missing_round.json()["error"] == NO_SUCH_ROUND
    huge = browser(host_key).get(f"/r/{rnd.room.code}/rounds/{2**70}/results.json")
    assert huge.status_code == 404
    missing_room = browser(host_key).get("/r/ZZZZZZ/rounds/1/results.json")
    assert missing_room.status_code == 404
    assert missing_room.json()["error"] == NO_SUCH_ROOM


def test_results_are_gzipped_for_a_browser_that_accepts_it(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    plain = browser(host_key).get(url(rnd))
    packed = browser(host_key).get(url(rnd), headers={"Accept-Encoding": "gzip, deflate, br"})
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    assert len(packed.content) * 4 < len(plain.content)


def test_finished_results_are_cached_privately_and_revalidated_by_etag(
    game_data: Dictionary,
) -> None:
    rnd, host_key, bob_key = played()
    first = browser(host_key).get(url(rnd))
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    cache_control = {part.strip() for part in first["Cache-Control"].split(",")}
    assert cache_control == {"private", "max-age=86400"}
    assert "Cookie" in first["Vary"]
    again = browser(host_key).get(url(rnd), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and "private" in again["Cache-Control"]
    # gzip makes the tag weak (W/"…"); the browser sends that back, and it still matches.
    packed = browser(bob_key).get(url(rnd), headers={"Accept-Encoding": "gzip"})
    assert packed["ETag"] == f"W/{etag}"
    weak = browser(bob_key).get(
        url(rnd), headers={"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]}
    )
    assert weak.status_code == 304
    # Revalidation never skips the seat check.
    stranger = browser().get(url(rnd), headers={"If-None-Match": etag})
    assert stranger.status_code == 403


def test_only_reading_is_allowed(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    assert browser(host_key).post(url(rnd)).status_code == 405
    assert browser(host_key).head(url(rnd)).status_code == 200
