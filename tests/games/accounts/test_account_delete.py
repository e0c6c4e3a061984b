"""Deleting an account deletes its record: nothing is left but the anonymised seats other
players' results need, and those results still show, with the player anonymised."""

from __future__ import annotations

import json

import pytest
from axes.models import AccessAttempt, AccessLog
from django.contrib.auth.models import User
from django.test import Client

from games.accounts.services import DELETED_NICKNAME
from games.chat.services import chat_post
from games.identity import COOKIE_NAME
from games.models import (
    ChatMessage,
    Player,
    PlayerIdentity,
    Refusal,
    Room,
    RoomEvent,
    Round,
    Submission,
    WordReport,
)
from games.protocol import NOT_A_WORD
from games.rules import clock
from solver.models import Dictionary
from tests.games.conftest import make_room, results_get, seat
from tests.games.played import ROOM_SETTINGS, round_played

pytestmark = pytest.mark.django_db

PASSWORD = "plum-orchard-79"


def account_with_rounds() -> tuple[Client, Room, Room, str]:
    """Ann plays a round with Bob and a solo game, then signs up as "annika"; return her
    browser, the shared room, her solo room and Bob's cookie."""
    shared, ann, ann_cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    bob, bob_cookie = seat(shared, "Bob")
    rnd = round_played(shared, ann, {ann: ["STRANGE", "RATES"], bob: ["RATES", "TRAINS"]})
    Refusal.objects.create(round=rnd, player=ann, word="ANNQ", reason=NOT_A_WORD)
    for who, line in ((ann, "good game"), (bob, "thanks Ann")):  # between rounds: open
        who.refresh_from_db()
        shared.refresh_from_db()
        chat_post(room=shared, player=who, text=line, now=clock.now())
    for who in (ann, bob):
        WordReport.objects.create(
            round=rnd,
            player=who,
            dictionary=rnd.dictionary,
            word="RATES",
            kind=WordReport.Kind.SHOULD_NOT_COUNT,
            reason=f"{who.nickname} wrote this",
            created_at=rnd.finished_at,
        )
    client = Client(REMOTE_ADDR="198.18.9.1")
    client.cookies[COOKIE_NAME] = ann_cookie
    client.post("/", {"nickname": "Ann", "preset": "classic", "solo": "1"})
    solo = Room.objects.get(is_solo=True)
    response = client.post(
        "/account/signup/",
        {"username": "annika", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    phone = Client(REMOTE_ADDR="198.18.9.3")  # django-axes keeps what it saw of these
    phone.post("/account/login/", {"username": "annika", "password": "wrong-one"})
    phone.post("/account/login/", {"username": "annika", "password": PASSWORD})
    phone.post("/account/logout/")
    phone.post("/account/login/", {"username": "annika", "password": "wrong-one"})
    return client, shared, solo, bob_cookie


def names_in(value: object) -> str:
    return json.dumps(value)


def test_deleting_the_account_leaves_only_anonymised_rows_others_need(
    game_data: Dictionary,
) -> None:
    client, shared, solo, bob_cookie = account_with_rounds()
    assert AccessAttempt.objects.filter(username="annika").exists()
    assert AccessLog.objects.filter(username="annika").exists()
    response = client.post("/account/delete/", {"password": PASSWORD})
    assert (
        response.status_code == 200 and 'data-testid="account-deleted"' in response.content.decode()
    )

    assert not User.objects.exists()
    assert not PlayerIdentity.objects.filter(user__isnull=False).exists()
    assert PlayerIdentity.objects.count() == 1  # Bob's
    assert not Room.objects.filter(pk=solo.pk).exists()  # nobody else played there
    assert not AccessAttempt.objects.filter(username="annika").exists()
    assert not AccessLog.objects.filter(username="annika").exists()
    assert "_auth_user_id" not in client.session

    seat = Player.objects.get(room=shared, bot_level="", identity__isnull=True)
    assert seat.nickname == DELETED_NICKNAME and seat.removed_at is not None
    assert Submission.objects.filter(player=seat).count() == 2  # the struck RATES stays struck
    assert not Refusal.objects.exists()
    assert list(WordReport.objects.values_list("reason", flat=True)) == ["Bob wrote this"]
    stored = Round.objects.get(room=shared)
    for kept in [
        stored.results,
        *RoomEvent.objects.filter(room=shared).values_list("payload", flat=True),
    ]:
        assert '"Ann"' not in names_in(kept)
    assert set(Player.objects.values_list("nickname", flat=True)) == {"Bob", DELETED_NICKNAME}
    # Her chat line stays for the others' talk to read, under the anonymous name; the text
    # of Bob's line is his (it names her as he wrote it).
    lines = set(ChatMessage.objects.values_list("nickname", "text"))
    assert lines == {(DELETED_NICKNAME, "good game"), ("Bob", "thanks Ann")}

    results = results_get(f"/r/{shared.code}/rounds/1/results.json", bob_cookie)
    table = {row["nickname"]: row for row in results["players"]}
    assert table[DELETED_NICKNAME]["score"] == 5
    assert [w["struck"] for w in table["Bob"]["words"] if w["word"] == "RATES"] == [True]
    assert table["Bob"]["score"] == 3


def test_a_deleted_account_cannot_log_in_and_its_browser_starts_afresh(
    game_data: Dictionary,
) -> None:
    client, shared, _, _ = account_with_rounds()
    client.post("/account/delete/", {"password": PASSWORD})
    again = Client(REMOTE_ADDR="198.18.9.2")
    response = again.post("/account/login/", {"username": "annika", "password": PASSWORD})
    assert response.status_code == 400
    page = client.get("/me/").content.decode()
    assert 'data-testid="record-empty"' in page
    assert f"Join room {shared.code}" in client.get(f"/r/{shared.code}/").content.decode()


def test_a_wrong_password_deletes_nothing(game_data: Dictionary) -> None:
    client, shared, solo, _ = account_with_rounds()
    response = client.post("/account/delete/", {"password": "not-my-password"})
    assert response.status_code == 400 and "That is not your password." in response.content.decode()
    assert User.objects.filter(username="annika").exists()
    assert Room.objects.filter(pk=solo.pk).exists()
    assert Player.objects.filter(room=shared, nickname="Ann", identity__isnull=False).exists()
    assert client.get("/account/delete/").status_code == 200


def test_only_a_logged_in_player_reaches_the_delete_page(game_data: Dictionary) -> None:
    response = Client().post("/account/delete/", {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith("/account/login/")
