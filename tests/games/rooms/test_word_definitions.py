"""A word's definition after a round: asked for word by word over HTTP, only by browsers seated
in the room, only once the round is over, only for words of the round; never in a frame."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Round
from games.protocol import NOT_IN_ROOM, ROUND_RUNNING
from games.rooms.views import DEFINITION_MAX_AGE, NOT_IN_ROUND
from games.rounds.selectors import WordNotInRound, round_word_definition
from solver.definitions.selectors import word_define
from solver.engine.definitions import shipped_glossaries
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM
from tests.games.conftest import connect, make_room, reschedule, results_get, seat
from tests.games.rounds.test_results_view import browser as results_browser
from tests.games.rounds.test_results_view import played

pytestmark = pytest.mark.django_db
db = database_sync_to_async


# An address no other test counts attempts for: the 404s these tests ask for count as room
# guesses (games/limits/throttle.py), and the suite's other misses from 127.0.0.1 must not add up.
ADDRESS = "198.18.200.9"


def browser(cookie: str | None = None) -> Client:
    """A browser at this file's own address, with a seat's identity cookie when given one."""
    client = results_browser(cookie)
    client.defaults["REMOTE_ADDR"] = ADDRESS
    return client


def url(rnd: Round, word: str) -> str:
    return f"/r/{rnd.room.code}/rounds/{rnd.number}/words/{word}/definition.json"


def defined_and_not(rnd: Round) -> tuple[str, str | None]:
    """Return a word of the round with a definition and one without, if it has one."""
    words = [w for w, _, _ in rnd.solution]
    defined = next(w for w in words if word_define(word=w) is not None)
    undefined = next((w for w in words if word_define(word=w) is None), None)
    return defined, undefined


def glosses(words: list[str]) -> set[str]:
    """Return the glosses of these words' definitions long enough never to turn up by chance."""
    found = set()
    for word in words:
        definition = word_define(word=word)
        if definition is not None:
            found.update(s.gloss for s in definition.senses if len(s.gloss) >= 16)
    return found


def test_a_seated_browser_gets_a_finished_rounds_word_defined_with_its_base_form(
    game_data: Dictionary,
) -> None:
    rnd, host_key, bob_key = played()
    word, _ = defined_and_not(rnd)
    expected = word_define(word=word)
    assert expected is not None
    for key in (host_key, bob_key):
        response = browser(key).get(url(rnd, word.lower()))  # any case
        assert response.status_code == 200
        assert response.json() == {
            "word": word,
            "definition": expected.as_dict(),
            "summary": expected.summary(),
        }
    assert expected.summary().startswith(expected.heading() + ": ")


def test_a_word_without_a_definition_says_so_with_null(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every word of the seeded board has a definition once the word-game glossary is asked
    # too; without it (as with an admin's source that replaces the shipped ones), some lack one.
    published = shipped_glossaries()[:3]
    monkeypatch.setattr("solver.definitions.selectors.shipped_glossaries", lambda: published)
    rnd, host_key, _ = played()
    _, word = defined_and_not(rnd)
    assert word is not None
    response = browser(host_key).get(url(rnd, word))
    assert response.status_code == 200
    assert response.json() == {"word": word, "definition": None, "summary": None}


def test_no_definition_leaves_while_the_round_runs(game_data: Dictionary) -> None:
    rnd, host_key, _ = played(finish=False)
    word, _ = defined_and_not(rnd)
    response = browser(host_key).get(url(rnd, word))
    assert response.status_code == 409
    assert response.json() == {
        "error": ROUND_RUNNING,
        "message": "The round is still being played.",
    }
    body = response.content.decode()
    assert word not in body and not any(g in body for g in glosses([word]))


def test_words_the_round_does_not_hold_are_refused_with_a_reason(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    words = {w for w, _, _ in rnd.solution}
    outside = next(w for w in ("QUASHED", "ZEBRA", "HOUSE", "APPLE") if w not in words)
    for word in (outside, "X" * 300, "no-such-word"):
        response = browser(host_key).get(url(rnd, word))
        assert response.status_code == 404
        body = response.json()
        assert body["error"] == NOT_IN_ROUND
        assert body["message"].endswith(f"is not a word of round {rnd.number}.")
        assert len(body["message"]) < 100  # a long word is cut short in the message
    with pytest.raises(WordNotInRound):
        round_word_definition(rnd, outside)


def test_browsers_without_a_seat_get_no_definition(game_data: Dictionary) -> None:
    rnd, _, _ = played()
    word, _ = defined_and_not(rnd)
    _, _, other_key = make_room(nickname="Eve")
    for client in (browser(), browser(other_key)):
        response = client.get(url(rnd, word))
        assert response.status_code == 403
        assert response.json()["error"] == NOT_IN_ROOM


def test_a_definition_is_cached_privately_for_an_hour(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    word, _ = defined_and_not(rnd)
    response = browser(host_key).get(url(rnd, word))
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert cache_control == {"private", f"max-age={DEFINITION_MAX_AGE}"}
    assert "Cookie" in response["Vary"]
    assert browser(host_key).post(url(rnd, word)).status_code == 405


def test_the_stored_results_carry_no_definitions(game_data: Dictionary) -> None:
    rnd, host_key, _ = played()
    words = [w for w, _, _ in rnd.solution]
    stored = json.dumps(results_get(f"/r/{rnd.room.code}/rounds/1/results.json", host_key))
    checked = glosses(words)
    assert len(checked) > 20
    assert not [g for g in checked if g in stored]


async def test_no_frame_a_player_gets_during_a_round_holds_a_definition(
    game_data_committed: Dictionary,
) -> None:
    room, _, host_key = await db(make_room)({**FIXED_ROOM, "duration": 60})  # words every time
    _, bob_key = await db(seat)(room, "Bob")
    host_socket, bob_socket = await connect(room, host_key), await connect(room, bob_key)
    frames: list[str] = []

    async def read_until(socket: Any, kind: str) -> dict[str, Any]:
        while True:
            message = await socket.receive_json_from(timeout=3)
            frames.append(json.dumps(message, ensure_ascii=False))
            if message["type"] == kind or message.get("event") == kind:
                return dict(message)

    await host_socket.send_json_to({"type": "start_round"})
    for socket in (host_socket, bob_socket):
        await read_until(socket, "round_started")
    rnd = await db(Round.objects.get)(room=room, status=Round.RUNNING)
    await db(reschedule)(rnd, starts_in=-1, ends_in=60)
    words = [w for w, _, _ in rnd.solution]
    for number, (socket, word) in enumerate(zip((host_socket, bob_socket), words, strict=False)):
        await socket.send_json_to({"type": "submit", "client_id": f"c{number}", "word": word})
        await read_until(socket, "submit_result")
    for socket in (host_socket, bob_socket):  # a reconnect's snapshot mid-round, too
        await socket.send_json_to({"type": "resume", "last_seq": None})
        await read_until(socket, "snapshot")
    await host_socket.send_json_to({"type": "end_round"})
    ended = [await read_until(socket, "round_ended") for socket in (host_socket, bob_socket)]
    checked = await db(glosses)(words)
    assert len(checked) > 5, "the board must hold defined words for this test to mean anything"
    assert not [g for g in checked if any(g in frame for frame in frames)]
    # Once the round is over, the same words are defined on request.
    word, _ = await db(defined_and_not)(rnd)
    path = ended[0]["data"]["results_url"].replace("results.json", f"words/{word}/definition.json")
    response = await db(browser(bob_key).get)(path)
    assert response.status_code == 200 and response.json()["definition"] is not None
    for socket in (host_socket, bob_socket):
        await socket.disconnect(timeout=10)
