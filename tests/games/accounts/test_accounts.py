"""Accounts: signing up keeps what the browser played, logging in on another device brings
the record along, logging out leaves the account behind; password rules, throttled logins,
and bad input answered clearly with nothing changed."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.cache import caches
from django.http import HttpResponse
from django.test import Client

from games.accounts.forms import USERNAME_TAKEN
from games.accounts.record import player_record
from games.accounts.views import PASSWORD_CHANGED
from games.identity import COOKIE_NAME, account_identity, cookie_value, identities_of_player
from games.limits import throttle
from games.models import Player, PlayerIdentity
from games.protocol import PLAYER_REMOVED
from games.rooms import services as rooms_services
from solver.models import Dictionary
from tests.games.conftest import make_room, seat
from tests.games.played import ROOM_SETTINGS, round_played

pytestmark = pytest.mark.django_db

PASSWORD = "plum-orchard-79"
NOW = 3600 * 500_000 + 1800.0  # the middle of a throttle window: no test crosses into the next
_addresses = itertools.count(1)


@pytest.fixture(autouse=True)
def one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count every sign-up of a test in one window, whatever the clock does meanwhile."""
    monkeypatch.setattr(throttle, "_now", lambda: NOW)


def an_address() -> str:
    """Return an address with no sign-ups counted (the counters may be in Redis, kept from
    an earlier run)."""
    n = next(_addresses)
    address = f"198.19.{n // 250}.{n % 250 + 1}"
    window, _ = throttle._window(NOW, throttle.ACCOUNTS_CREATED.window)
    caches["throttle"].delete(f"{throttle.ACCOUNTS_CREATED.name}:{address}:{window}")
    return address


def browser(cookie: str = "", address: str = "") -> Client:
    """Return a new browser (a device), with this identity cookie if given."""
    client = Client(REMOTE_ADDR=address or an_address())
    if cookie:
        client.cookies[COOKIE_NAME] = cookie
    return client


def sign_up(
    client: Client, username: str = "ann", password: str = PASSWORD, again: str = ""
) -> HttpResponse:
    data = {"username": username, "password1": password, "password2": again or password}
    response: HttpResponse = client.post("/account/signup/", data)
    return response


def log_in(client: Client, username: str = "ann", password: str = PASSWORD) -> HttpResponse:
    data = {"username": username, "password": password}
    response: HttpResponse = client.post("/account/login/", data)
    return response


def record_rounds(client: Client) -> int:
    """Return how many rounds the record page of this browser lists."""
    return client.get("/me/").content.decode().count('data-testid="past-round"')


def test_signing_up_moves_everything_the_browser_played_into_the_account(
    game_data: Dictionary,
) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    round_played(room, ann, {ann: ["STRANGE"]})
    client = browser(cookie)
    assert record_rounds(client) == 1
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == "/me/"
    user = User.objects.get(username="ann")
    ann.refresh_from_db()
    assert ann.identity is not None and ann.identity.user == user
    assert account_identity(user) == ann.identity
    assert record_rounds(client) == 1
    assert b'id="room-data"' in client.get(f"/r/{room.code}/").content  # the seat is kept


def test_signing_up_with_nothing_played_gives_the_account_an_identity(
    game_data: Dictionary,
) -> None:
    client = browser()
    assert sign_up(client).status_code == 302
    user = User.objects.get(username="ann")
    identity = PlayerIdentity.objects.get(user=user)
    client.post("/", {"nickname": "Ann", "preset": "classic"})
    assert Player.objects.get(nickname="Ann").identity == identity


def test_logging_in_on_another_device_brings_the_record_and_the_seats(
    game_data: Dictionary,
) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    round_played(room, ann, {ann: ["STRANGE"]})
    laptop = browser(cookie)
    sign_up(laptop)
    phone = browser()
    assert record_rounds(phone) == 0
    assert log_in(phone).status_code == 302
    assert record_rounds(phone) == 1
    user = User.objects.get(username="ann")
    assert account_identity(user) == ann.identity
    assert phone.cookies[COOKIE_NAME].value == cookie_value(ann.identity)
    assert b'id="room-data"' in phone.get(f"/r/{room.code}/").content  # the same seat


def test_logging_in_adds_what_the_device_played_anonymously_to_the_account(
    game_data: Dictionary,
) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    round_played(room, ann, {ann: ["STRANGE"]})
    sign_up(browser(cookie))
    other, phone_seat_owner, phone_cookie = make_room(ROOM_SETTINGS, nickname="Ann on phone")
    round_played(other, phone_seat_owner, {phone_seat_owner: ["PLATES"]})
    phone = browser(phone_cookie)
    log_in(phone)
    assert record_rounds(phone) == 2
    phone_seat_owner.refresh_from_db()
    user = User.objects.get(username="ann")
    assert phone_seat_owner.identity == account_identity(user)  # the seat moved along
    assert b'id="room-data"' in phone.get(f"/r/{other.code}/").content
    laptop = browser()
    log_in(laptop)
    assert b'id="room-data"' in laptop.get(f"/r/{other.code}/").content  # the account's now


def test_a_second_seat_in_a_room_is_given_up_at_login_and_its_round_counts_once(
    game_data: Dictionary,
) -> None:
    """The phone sat in the room as Ann2 while the account sat there as Ann: after the
    phone logs in it plays as the account (Ann's seat), so Ann2's seat, which nothing could
    open again, leaves the room (the room is told); its rounds stay in the record."""
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    phone_seat, phone_cookie = seat(room, "Ann2")
    round_played(room, ann, {ann: ["STRANGE"], phone_seat: ["PLATES"]})
    sign_up(browser(cookie))
    phone = browser(phone_cookie)
    log_in(phone)
    user = User.objects.get(username="ann")
    phone_seat.refresh_from_db()
    assert phone_seat.identity is not None and phone_seat.identity.user == user
    assert phone_seat.identity != account_identity(user)  # one seat per identity per room
    assert phone_seat.removed_at is not None
    assert room.events.filter(type=PLAYER_REMOVED, payload={"player_id": phone_seat.pk}).exists()
    ann.refresh_from_db()
    assert ann.removed_at is None
    record = player_record(identities_of_player(account_identity(user)))
    assert [(r.round_id, r.score) for r in record.rounds] == [(ann.room.rounds.get().id, 5)]


def test_logging_out_leaves_the_account_behind(game_data: Dictionary) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    round_played(room, ann, {ann: ["STRANGE"]})
    client = browser(cookie)
    sign_up(client)
    response = client.post("/account/logout/")
    assert response.status_code == 302
    assert response.cookies[COOKIE_NAME]["max-age"] == 0  # the identity cookie is deleted
    assert "_auth_user_id" not in client.session
    assert record_rounds(client) == 0
    assert f"Join room {room.code}" in client.get(f"/r/{room.code}/").content.decode()
    client.post(f"/r/{room.code}/join/", {"nickname": "Guest"})
    guest = Player.objects.get(nickname="Guest")
    assert guest.identity is not None and guest.identity.user is None
    assert client.get("/account/logout/").status_code == 405  # a link cannot log anyone out


def test_a_round_played_logged_in_opens_again_after_logging_out_and_in(
    game_data: Dictionary,
) -> None:
    """Logged in, a round runs; the player logs out in another tab; at time-up this tab's
    request for the results says how to see them, and after logging in again it gets them."""
    client = browser()
    sign_up(client)
    user = User.objects.get(username="ann")
    room, seat_ = rooms_services.room_create(
        identity=account_identity(user), nickname="Ann", settings=ROOM_SETTINGS, solo=True
    )
    rnd = round_played(room, seat_, {seat_: ["STRANGE"]})
    client.post("/account/logout/")  # the other tab: the same browser's cookies
    url = f"/r/{room.code}/rounds/{rnd.number}/results.json"
    refused = client.get(url)
    assert refused.status_code == 403
    assert "log in again: it is in your record" in refused.json()["message"]
    log_in(client)
    shown = client.get(url)
    assert shown.status_code == 200 and shown.json()["players"][0]["nickname"] == "Ann"


def test_a_forged_cookie_naming_an_account_identity_is_not_the_account(
    game_data: Dictionary,
) -> None:
    """After logging out (or with a copied cookie), the account's identity cookie alone
    opens nothing: an account's identity is played only while logged in."""
    room, _, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    client = browser(cookie)
    sign_up(client)
    account_cookie = client.cookies[COOKIE_NAME].value
    stolen = browser(account_cookie)
    assert f"Join room {room.code}" in stolen.get(f"/r/{room.code}/").content.decode()
    assert record_rounds(stolen) == 0


def test_changing_the_password_keeps_this_browser_in_and_ends_other_sessions(
    game_data: Dictionary,
) -> None:
    laptop = browser()
    sign_up(laptop)
    phone = browser()
    log_in(phone)
    new = "quince-harbour-42"
    response = laptop.post(
        "/account/password/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert PASSWORD_CHANGED in response.content.decode()
    assert "_auth_user_id" in laptop.session
    assert phone.get("/account/password/").status_code == 302  # logged out: to the login
    assert log_in(browser(), password=PASSWORD).status_code == 400
    assert log_in(browser(), password=new).status_code == 302


def test_a_wrong_old_password_or_a_weak_new_one_changes_nothing(game_data: Dictionary) -> None:
    client = browser()
    sign_up(client)
    user = User.objects.get(username="ann")
    before = user.password
    cases = [
        ({"old_password": "wrong", "new_password1": "quince-harbour-42"}, "incorrectly"),
        ({"old_password": PASSWORD, "new_password1": "12345678"}, "too common"),
        ({"old_password": PASSWORD, "new_password1": "ann"}, "too short"),
    ]
    for data, message in cases:
        data["new_password2"] = data["new_password1"]
        response = client.post("/account/password/", data)
        assert response.status_code == 400 and message in response.content.decode()
    user.refresh_from_db()
    assert user.password == before


@pytest.mark.parametrize(
    ("password", "again", "message"),
    [
        ("short1", "", "This password is too short"),
        ("password123", "", "This password is too common"),
        ("8237461829", "", "This password is entirely numeric"),
        ("annannann1", "", "too similar to the username"),
        (PASSWORD, "other-password-9", "The two password fields didn’t match"),
    ],
)
def test_a_bad_password_is_refused_with_the_reason_and_nothing_is_made(
    game_data: Dictionary, password: str, again: str, message: str
) -> None:
    room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
    response = sign_up(browser(cookie), username="annann", password=password, again=again)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not User.objects.exists()
    ann.refresh_from_db()
    assert ann.identity is not None and ann.identity.user is None


def test_a_taken_username_in_any_case_is_refused_and_nothing_changes(
    game_data: Dictionary,
) -> None:
    sign_up(browser())
    room, bob, cookie = make_room(ROOM_SETTINGS, nickname="Bob")
    for name in ("ann", "ANN"):
        response = sign_up(browser(cookie), username=name)
        assert response.status_code == 400 and USERNAME_TAKEN in response.content.decode()
    assert User.objects.count() == 1
    bob.refresh_from_db()
    assert bob.identity is not None and bob.identity.user is None
    response = sign_up(browser(), username="")
    assert response.status_code == 400 and "This field is required." in response.content.decode()


def test_a_wrong_password_says_so_and_logs_nobody_in(game_data: Dictionary) -> None:
    sign_up(browser())
    client = browser()
    response = log_in(client, password="not-it")
    assert response.status_code == 400
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_five_wrong_passwords_lock_the_login_out_even_with_the_right_one(
    game_data: Dictionary,
) -> None:
    sign_up(browser())
    client = browser()
    statuses = [log_in(client, password=f"guess-{n}").status_code for n in range(5)]
    assert statuses == [400, 400, 400, 400, 429]
    refused = log_in(client)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many wrong passwords" in page and "15 minutes" in page and "<h1" in page
    assert "_auth_user_id" not in client.session
    assert log_in(browser()).status_code == 302  # from another address: fine
    assert AccessAttempt.objects.filter(username="ann").exists()


def test_retyping_a_wrong_password_five_times_refuses_the_right_one_for_a_while(
    game_data: Dictionary,
) -> None:
    """Changing the password and deleting the account ask for it again: 25 wrong old
    passwords were answered one by one, then the right one worked. The count is the
    account's, from any device and address, shared by the two forms."""
    laptop, phone = browser(), browser()
    sign_up(laptop)
    log_in(phone)
    new = "quince-harbour-42"
    statuses = [
        laptop.post(
            "/account/password/",
            {"old_password": f"guess-{n}", "new_password1": new, "new_password2": new},
        ).status_code
        for n in range(3)
    ]
    statuses += [
        phone.post("/account/delete/", {"password": f"guess-{n}"}).status_code for n in range(2)
    ]
    assert statuses == [400] * 5
    right = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    for client, path, data in [
        (laptop, "/account/password/", right),
        (phone, "/account/delete/", {"password": PASSWORD}),
    ]:
        refused = client.post(path, data)
        assert refused.status_code == 429, path
        assert "Too many wrong passwords for this account" in refused.content.decode()
        assert int(refused["Retry-After"]) <= 900
    assert User.objects.filter(username="ann").exists()
    assert log_in(browser(), password=PASSWORD).status_code == 302  # unchanged
    assert laptop.get("/account/password/").status_code == 200  # the page itself still shows


def test_sign_up_failures_are_counted_so_usernames_cannot_be_probed_in_bulk(
    game_data: Dictionary,
) -> None:
    """Each refused sign-up says whether a name is taken: about 50 probes a second went
    uncounted. After 30 refusals from one address in ten minutes it answers 429."""
    sign_up(browser(), username="ann")
    prober = browser()
    statuses = [sign_up(prober, username="ANN").status_code for n in range(30)]
    assert statuses == [400] * 30
    refused = sign_up(prober, username="zed")
    assert refused.status_code == 429
    assert "Too many sign-ups failed from your network" in refused.content.decode()
    assert not User.objects.filter(username="zed").exists()
    assert sign_up(browser(), username="zed").status_code == 302  # another address: fine


def test_signing_up_is_refused_after_too_many_accounts_from_one_address(
    game_data: Dictionary,
) -> None:
    address = an_address()
    for n in range(throttle.ACCOUNTS_CREATED.allowed):
        assert sign_up(browser(address=address), username=f"player{n}").status_code == 302
    refused = sign_up(browser(address=address), username="onemore")
    assert refused.status_code == 429
    assert "Too many accounts" in refused.content.decode()
    assert not User.objects.filter(username="onemore").exists()


@pytest.mark.postgres
async def test_a_logged_in_browser_s_socket_opens_the_account_s_seat(
    game_data_committed: Dictionary,
) -> None:
    """The socket knows the player by the login too (the session cookie), not only by
    the identity cookie: a second device of the account opens the same seat."""
    from asgiref.sync import sync_to_async
    from django.conf import settings

    from tests.games.conftest import receive_until

    def set_up() -> tuple[str, int, str]:
        room, ann, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
        sign_up(browser(cookie))
        phone = browser()
        log_in(phone)
        return room.code, ann.id, phone.cookies[settings.SESSION_COOKIE_NAME].value

    code, ann_id, session = await sync_to_async(set_up)()
    socket = session_socket(code, session)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    snapshot = await receive_until(socket, "snapshot")
    assert snapshot["me"] == ann_id
    await socket.disconnect(timeout=10)


@pytest.mark.postgres
async def test_a_socket_with_an_ended_or_made_up_session_is_not_the_account(
    game_data_committed: Dictionary,
) -> None:
    """The session cookie counts only while the login lasts: after the phone logs out, or
    with a session key nobody was given, the socket has no seat in the account's room (and
    looking the made-up key up stores nothing)."""
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.contrib.sessions.models import Session

    def set_up() -> tuple[str, str]:
        room, _, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
        sign_up(browser(cookie))
        phone = browser()
        log_in(phone)
        session = phone.cookies[settings.SESSION_COOKIE_NAME].value
        assert phone.post("/account/logout/").status_code == 302
        return room.code, session

    code, ended = await sync_to_async(set_up)()
    sessions = await Session.objects.acount()
    for session in (ended, "x" * 32):
        connected, close_code = await session_socket(code, session).connect(timeout=10)
        assert not connected and close_code == 4403
    assert await Session.objects.acount() == sessions


@pytest.mark.postgres
async def test_a_password_change_closes_the_account_s_sockets_and_only_this_browser_returns(
    game_data_committed: Dictionary,
) -> None:
    """Django ends the account's other sessions when its password changes, but a socket is
    let in only when it opens: the phone's open room went on chatting. Now every socket of
    the account closes (4401); the laptop, still logged in, reconnects to its seat; the
    phone finds none (4403)."""
    from asgiref.sync import sync_to_async
    from django.conf import settings

    from games.protocol import CLOSE_NOT_IN_ROOM, CLOSE_SIGNED_OUT
    from tests.games.conftest import receive_until

    name = settings.SESSION_COOKIE_NAME

    def set_up() -> tuple[str, Client, str]:
        room, _, cookie = make_room(ROOM_SETTINGS, nickname="Ann")
        laptop = browser(cookie)
        sign_up(laptop)
        phone = browser()
        log_in(phone)
        return room.code, laptop, phone.cookies[name].value

    async def opened(session: str) -> Any:
        socket = session_socket(code, session)
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await receive_until(socket, "snapshot")
        return socket

    async def close_code(socket: Any) -> int:
        while True:
            output = await socket.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                return int(output["code"])

    code, laptop, phone_session = await sync_to_async(set_up)()
    phone, own = await opened(phone_session), await opened(laptop.cookies[name].value)
    new = "quince-harbour-42"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    changed = await sync_to_async(lambda: laptop.post("/account/password/", data))()
    assert changed.status_code == 302
    assert await close_code(phone) == CLOSE_SIGNED_OUT
    assert await close_code(own) == CLOSE_SIGNED_OUT
    back = await opened(laptop.cookies[name].value)  # the session Django kept logged in
    await back.disconnect(timeout=10)
    connected, refused = await session_socket(code, phone_session).connect(timeout=10)
    assert (connected, refused) == (False, CLOSE_NOT_IN_ROOM)


def session_socket(code: str, session: str) -> Any:
    """Return a socket to a room's seat sending only a session cookie (no identity cookie)."""
    from channels.testing import WebsocketCommunicator
    from django.conf import settings

    from tests.games.conftest import application

    return WebsocketCommunicator(
        application,
        f"/ws/rooms/{code}/",
        headers=[
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()),
            (b"origin", b"http://testserver"),
        ],
    )
