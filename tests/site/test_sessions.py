"""A seat belongs to a session the server issued: a cookie naming a key the client made up,
or a session that is gone, never holds a seat (DESIGN §4, "Identity")."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings as site_settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client

from games.models import Player, Room
from tests.games.conftest import application, connect, receive_until

pytestmark = pytest.mark.usefixtures("shipped_data")

FORGED = "attackerchosen0000000000000000aa"


def forged_client(key: str = FORGED) -> Client:
    """Return a browser whose session cookie names `key`, a key no session was stored under."""
    browser = Client()
    browser.cookies[site_settings.SESSION_COOKIE_NAME] = key
    return browser


def issued_key(browser: Client) -> str:
    """Return the session key in the browser's cookie."""
    return browser.cookies[site_settings.SESSION_COOKIE_NAME].value


def room_code() -> str:
    Client().post("/", {"nickname": "Ann", "preset": "classic"})
    return Room.objects.get().code


def test_joining_with_a_made_up_session_key_seats_the_player_under_a_new_server_key() -> None:
    code = room_code()
    browser = forged_client()
    response = browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    assert response.status_code == 302
    bob = Player.objects.get(nickname="Bob")
    assert bob.session_key != FORGED
    assert issued_key(browser) == bob.session_key
    assert Session.objects.filter(session_key=bob.session_key).exists()
    assert not Player.objects.filter(session_key=FORGED).exists()


def test_creating_a_room_with_a_made_up_session_key_uses_a_new_server_key() -> None:
    browser = forged_client()
    browser.post("/", {"nickname": "Ann", "preset": "classic"})
    ann = Player.objects.get()
    assert ann.session_key != FORGED and issued_key(browser) == ann.session_key
    assert Session.objects.filter(session_key=ann.session_key).exists()


def test_knowing_a_made_up_key_does_not_let_anyone_make_that_seat_leave() -> None:
    code = room_code()
    forged_client().post(f"/r/{code}/join/", {"nickname": "Bob"})
    forged_client().post(f"/r/{code}/leave/")
    assert Player.objects.get(nickname="Bob").removed_at is None


def test_a_seat_held_under_a_key_with_no_session_cannot_be_left_by_that_cookie() -> None:
    """A seat from before this rule (bound to a cookie that was never a session) stays put
    whoever sends that cookie."""
    code = room_code()
    room = Room.objects.get(code=code)
    Player.objects.create(room=room, session_key=FORGED, nickname="Old")
    forged_client().post(f"/r/{code}/leave/")
    assert Player.objects.get(nickname="Old").removed_at is None


def test_a_browser_that_keeps_its_session_keeps_its_key_and_seat() -> None:
    code = room_code()
    browser = Client()
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    key = issued_key(browser)
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    assert issued_key(browser) == key
    assert Player.objects.filter(nickname__startswith="Bob").count() == 1
    assert b'id="room-data"' in browser.get(f"/r/{code}/").content


def test_a_lost_session_gets_a_fresh_cookie_and_the_join_form_then_the_player_rejoins() -> None:
    code = room_code()
    browser = Client()
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    lost = issued_key(browser)
    SessionStore(session_key=lost).delete()  # expired, or the sessions table was cleared

    page = browser.get(f"/r/{code}/")
    assert page.status_code == 200 and f"Join room {code}" in page.content.decode()
    fresh = issued_key(browser)
    assert fresh != lost and Session.objects.filter(session_key=fresh).exists()

    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    again = Player.objects.get(session_key=fresh)
    assert b'id="room-data"' in browser.get(f"/r/{code}/").content
    assert again.nickname == "Bob 2"  # the lost seat still holds "Bob"


def test_a_room_page_without_any_cookie_creates_no_session() -> None:
    code = room_code()
    sessions = Session.objects.count()
    browser = Client()
    assert f"Join room {code}" in browser.get(f"/r/{code}/").content.decode()
    assert Session.objects.count() == sessions
    assert site_settings.SESSION_COOKIE_NAME not in browser.cookies


@pytest.mark.django_db(transaction=True)
async def test_only_the_server_issued_key_opens_the_seat_s_socket(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    code = await sync_to_async(room_code)()
    browser = forged_client()
    await sync_to_async(browser.post)(f"/r/{code}/join/", {"nickname": "Bob"})
    room = await Room.objects.aget(code=code)

    forged = WebsocketCommunicator(
        application,
        f"/ws/rooms/{code}/",
        headers=[(b"cookie", f"sessionid={FORGED}".encode()), (b"origin", b"http://testserver")],
    )
    connected, close_code = await forged.connect()
    assert not connected and close_code == 4403

    socket = await connect(room, issued_key(browser))
    snapshot = await receive_until(socket, "snapshot")
    bob = await Player.objects.aget(nickname="Bob")
    assert snapshot["me"] == bob.id
    await socket.disconnect()
    channel_layers.backends.clear()
