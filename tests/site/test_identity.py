"""A player is an identity the server issued, kept in a signed, HTTP-only cookie: a cookie
the client made up or altered never holds a seat, and a browser that keeps its cookie keeps
its seat across reloads."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.core import signing
from django.test import Client

from games.identity import COOKIE_NAME, COOKIE_SALT, cookie_value, identity_from_cookie
from games.models import Player, PlayerIdentity, Room
from tests.games.conftest import application, connect, receive_until

pytestmark = pytest.mark.usefixtures("shipped_data")


def room_code() -> str:
    Client().post("/", {"nickname": "Ann", "preset": "classic"})
    return Room.objects.get().code


def held(browser: Client) -> PlayerIdentity:
    """Return the identity the browser's cookie names (the test fails if it names none)."""
    identity = identity_from_cookie(browser.cookies[COOKIE_NAME].value)
    assert identity is not None
    return identity


def cookie_with_key(key: str) -> str:
    """Return a cookie value naming `key`, signed as the server signs."""
    return signing.Signer(salt=COOKIE_NAME + COOKIE_SALT).sign(key)


def test_taking_a_seat_issues_a_signed_http_only_identity_cookie() -> None:
    code = room_code()
    browser = Client()
    response = browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    morsel = response.cookies[COOKIE_NAME]
    assert morsel["httponly"] and morsel["samesite"] == "Lax" and morsel["max-age"]
    bob = Player.objects.get(nickname="Bob")
    assert bob.identity is not None
    assert morsel.value == cookie_value(bob.identity)
    key, signature = morsel.value.split(":", 1)
    assert key == bob.identity.key and len(key) >= 43 and signature  # random, then signed


def test_two_browsers_get_two_different_identities() -> None:
    code = room_code()
    first, second = Client(), Client()
    first.post(f"/r/{code}/join/", {"nickname": "Bob"})
    second.post(f"/r/{code}/join/", {"nickname": "Cy"})
    assert held(first) != held(second)


def test_a_browser_that_keeps_its_cookie_keeps_its_identity_and_seat_across_reloads() -> None:
    code = room_code()
    browser = Client()
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    cookie = browser.cookies[COOKIE_NAME].value
    for _ in range(2):
        page = browser.get(f"/r/{code}/")
        assert b'id="room-data"' in page.content
        assert COOKIE_NAME not in page.cookies  # nothing to change
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    assert browser.cookies[COOKIE_NAME].value == cookie
    assert Player.objects.filter(nickname__startswith="Bob").count() == 1


def test_a_tampered_cookie_gets_a_new_identity_and_never_the_seat() -> None:
    code = room_code()
    ann = Player.objects.get(nickname="Ann")
    assert ann.identity is not None
    value = cookie_value(ann.identity)
    tampered = value[:-2] + ("yy" if value.endswith("xx") else "xx")
    browser = Client()
    browser.cookies[COOKIE_NAME] = tampered
    assert f"Join room {code}" in browser.get(f"/r/{code}/").content.decode()
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    bob = Player.objects.get(nickname="Bob")
    assert bob.identity != ann.identity and held(browser) == bob.identity


def test_a_made_up_key_signed_without_the_server_s_key_is_refused() -> None:
    code = room_code()
    ann = Player.objects.get(nickname="Ann")
    assert ann.identity is not None
    browser = Client()
    browser.cookies[COOKIE_NAME] = f"{ann.identity.key}:forgedsignature"
    assert f"Join room {code}" in browser.get(f"/r/{code}/").content.decode()
    browser.post(f"/r/{code}/leave/")
    assert Player.objects.get(nickname="Ann").removed_at is None


def test_a_signed_cookie_naming_no_identity_gets_a_new_one() -> None:
    """Signed by the server but naming no stored identity (deleted, or from another site
    sharing the key): a new identity is drawn, never one under the key the cookie chose."""
    code = room_code()
    browser = Client()
    browser.cookies[COOKIE_NAME] = cookie_with_key("chosen-by-the-client")
    browser.post(f"/r/{code}/join/", {"nickname": "Bob"})
    assert held(browser).key != "chosen-by-the-client"
    assert not PlayerIdentity.objects.filter(key="chosen-by-the-client").exists()


def test_a_room_page_without_any_cookie_creates_no_identity() -> None:
    code = room_code()
    identities = PlayerIdentity.objects.count()
    browser = Client()
    assert f"Join room {code}" in browser.get(f"/r/{code}/").content.decode()
    assert PlayerIdentity.objects.count() == identities
    assert COOKIE_NAME not in browser.cookies


@pytest.mark.django_db(transaction=True)
async def test_only_the_issued_cookie_opens_the_seat_s_socket(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    code = await sync_to_async(room_code)()
    browser = Client()
    await sync_to_async(browser.post)(f"/r/{code}/join/", {"nickname": "Bob"})
    room = await Room.objects.aget(code=code)
    issued = browser.cookies[COOKIE_NAME].value

    altered = issued[:-1] + ("B" if issued.endswith("A") else "A")
    for forged in (altered, issued.split(":")[0]):
        socket = WebsocketCommunicator(
            application,
            f"/ws/rooms/{code}/",
            headers=[
                (b"cookie", f"{COOKIE_NAME}={forged}".encode()),
                (b"origin", b"http://testserver"),
            ],
        )
        connected, close_code = await socket.connect(timeout=10)
        assert not connected and close_code == 4403

    socket = await connect(room, issued)
    snapshot = await receive_until(socket, "snapshot")
    bob = await Player.objects.aget(nickname="Bob")
    assert snapshot["me"] == bob.id
    await socket.disconnect(timeout=10)
    channel_layers.backends.clear()
