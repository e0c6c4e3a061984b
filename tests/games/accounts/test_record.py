"""A player's record: figures read from the rounds as stored, against rounds played to order,
and each past round's results opened again from it."""

from __future__ import annotations

import pytest
from django.test import Client

from games.accounts.record import ARENA, DAILY, ROOM, SOLO, player_record
from games.identity import COOKIE_NAME, identities_of_player
from games.models import Player, PlayerIdentity, Round
from games.rooms import services as rooms
from games.rules import clock
from games.seats import services as seats
from solver.models import Dictionary
from tests.games.conftest import make_room, seat
from tests.games.played import ROOM_SETTINGS, round_played

pytestmark = pytest.mark.django_db


def browser(cookie: str) -> Client:
    client = Client()
    client.cookies[COOKIE_NAME] = cookie
    return client


def ann_s_rounds() -> tuple[str, Player, Player, list[Round]]:
    """Ann plays two rounds with Bob and one alone; return her cookie, her seat, Bob's seat
    and the rounds (oldest first).

    Round 1: Ann STRANGE 5, PLATES 3, RATES (Bob too: struck) = 8; Bob TRAINS 3.
    Round 2: Ann INTEGRAL 11, TAILS 2 = 13; Bob RETAILERS 11, TRAINS 3 = 14.
    Solo: Ann PLANETS 5, SITES 2 = 7.
    """
    room, ann, ann_cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    bob, _ = seat(room, "Bob")
    first = round_played(room, ann, {ann: ["STRANGE", "PLATES", "RATES"], bob: ["RATES", "TRAINS"]})
    second = round_played(room, ann, {ann: ["INTEGRAL", "TAILS"], bob: ["RETAILERS", "TRAINS"]})
    assert ann.identity is not None
    solo, me = rooms.room_create(
        identity=ann.identity, nickname="Ann", settings=ROOM_SETTINGS, solo=True
    )
    alone = round_played(solo, me, {me: ["PLANETS", "SITES"]})
    return ann_cookie, ann, bob, [first, second, alone]


def test_the_record_counts_rounds_points_and_words_from_the_stored_results(
    game_data: Dictionary,
) -> None:
    _, ann, _, played = ann_s_rounds()
    assert ann.identity is not None
    record = player_record(identities_of_player(ann.identity))
    assert len(record.rounds) == 3
    assert record.rounds_by_kind == {ROOM: 2, SOLO: 1, DAILY: 0, ARENA: 0}
    assert [r.title for r in record.rounds] == [
        "Solo, round 1",
        f"Room {played[1].room.code}, round 2",
        f"Room {played[0].room.code}, round 1",
    ]
    assert record.points == 8 + 13 + 7
    assert record.words == 3 + 2 + 2  # the struck RATES was found, for no points
    assert [r.round_id for r in record.rounds] == [r.id for r in reversed(played)]
    assert [(r.score, r.words, r.rank, r.players) for r in record.rounds] == [
        (7, 2, 1, 1),
        (13, 2, 2, 2),  # Bob's 14 beat her
        (8, 3, 1, 2),
    ]


def test_the_record_names_the_longest_and_highest_scoring_words_and_the_best_round(
    game_data: Dictionary,
) -> None:
    _, ann, _, played = ann_s_rounds()
    assert ann.identity is not None
    record = player_record(identities_of_player(ann.identity))
    assert record.longest is not None and record.highest is not None
    assert (record.longest.word, record.longest.round.round_id) == ("INTEGRAL", played[1].id)
    assert (record.highest.word, record.highest.points) == ("INTEGRAL", 11)  # not Bob's
    assert record.best_round is not None and record.best_round.round_id == played[1].id


def test_ties_go_to_the_word_found_first(game_data: Dictionary) -> None:
    room, ann, _ = make_room(ROOM_SETTINGS, nickname="Ann")
    first = round_played(room, ann, {ann: ["STRANGE", "PLATES"]})
    round_played(room, ann, {ann: ["STRAITS", "LINERS"]})  # as long, as many points
    assert ann.identity is not None
    record = player_record([ann.identity])
    assert record.longest is not None and record.longest.word == "STRANGE"
    assert record.longest.round.round_id == first.id
    assert record.best_round is not None and record.best_round.round_id == first.id


def test_a_player_with_no_finished_round_has_an_empty_record(game_data: Dictionary) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    assert ann.identity is not None
    empty = player_record([ann.identity])
    assert (empty.rounds, empty.points, empty.longest, empty.best_round) == ([], 0, None, None)
    page = browser(cookie).get("/me/")
    assert page.status_code == 200 and 'data-testid="record-empty"' in page.content.decode()
    assert Client().get("/me/").status_code == 200  # no identity at all: empty, nothing made
    assert PlayerIdentity.objects.count() == 1


def test_a_round_before_the_player_sat_down_is_not_theirs(game_data: Dictionary) -> None:
    room, ann, _ = make_room(ROOM_SETTINGS, nickname="Ann")
    round_played(room, ann, {ann: ["STRANGE"]})
    late, _ = seat(room, "Late")
    assert late.identity is not None
    assert player_record([late.identity]).rounds == []


def test_the_record_page_shows_the_figures_and_links_every_past_round(
    game_data: Dictionary,
) -> None:
    cookie, _, _, played = ann_s_rounds()
    page = browser(cookie).get("/me/")
    html = page.content.decode()
    assert page.status_code == 200 and "<h1" in html
    assert 'data-testid="rounds-played">3<' in html
    assert 'data-testid="points">28<' in html and 'data-testid="words">7<' in html
    assert 'data-testid="longest-word">INTEGRAL<' in html
    assert 'data-testid="best-round">13 points<' in html
    assert html.count('data-testid="past-round"') == 3
    for rnd in played:
        assert f'href="/r/{rnd.room.code}/rounds/{rnd.number}/"' in html


def test_a_past_round_opens_its_results_again_for_its_players_only(
    game_data: Dictionary,
) -> None:
    cookie, ann, bob, played = ann_s_rounds()
    rnd = played[0]
    page = browser(cookie).get(f"/r/{rnd.room.code}/rounds/{rnd.number}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "js/past_round.js" in html and "<h1" in html
    assert f'"me": {ann.id}' in html
    assert f"/r/{rnd.room.code}/rounds/{rnd.number}/results.json" in html
    results = browser(cookie).get(f"/r/{rnd.room.code}/rounds/{rnd.number}/results.json")
    assert results.status_code == 200 and results.json() == rnd.results

    _, _, stranger = make_room(ROOM_SETTINGS, nickname="Eve")
    assert browser(stranger).get(f"/r/{rnd.room.code}/rounds/1/").status_code == 404
    assert Client().get(f"/r/{rnd.room.code}/rounds/1/").status_code == 404
    assert browser(cookie).get(f"/r/{rnd.room.code}/rounds/9/").status_code == 404


def test_a_player_who_left_the_room_still_opens_the_rounds_they_played(
    game_data: Dictionary,
) -> None:
    room, ann, _ = make_room(ROOM_SETTINGS, nickname="Ann")
    bob, bob_cookie = seat(room, "Bob")
    first = round_played(room, ann, {bob: ["TRAINS"]})
    seats.player_leave(room=room, player=bob, now=clock.now())
    later = round_played(room, ann, {ann: ["STRANGE"]})
    assert browser(bob_cookie).get(f"/r/{room.code}/rounds/{first.number}/").status_code == 200
    json_url = f"/r/{room.code}/rounds/{first.number}/results.json"
    assert browser(bob_cookie).get(json_url).status_code == 200
    assert browser(bob_cookie).get(f"/r/{room.code}/rounds/{later.number}/").status_code == 404
    later_json = f"/r/{room.code}/rounds/{later.number}/results.json"
    assert browser(bob_cookie).get(later_json).status_code == 403
