"""Sockets and resumes per seat and per address: more sockets than a seat or an address may
hold are refused, and resumes faster than any page sends them are refused and cut off."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import protocol
from games.limits import addresses as address_sockets
from games.limits import sockets as socket_limits
from games.limits.buckets import RESUME_BURST, resume_bucket
from games.models import Player, Room
from games.rooms.consumer import MAX_REFUSALS
from games.rules import clock
from games.seats import presence
from solver.models import Dictionary
from tests.games.conftest import application, connect, make_room, receive_until, seat

pytestmark = pytest.mark.django_db
db = database_sync_to_async


def from_address(host: str) -> Any:
    """Return the site's socket application as reached from `host` (daphne puts the peer's
    address, or with --proxy-headers the forwarded one, in scope["client"])."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await application({**scope, "client": [host, 50_000]}, receive, send)

    return app


async def open_socket(room: Room, key: str, host: str | None = None) -> WebsocketCommunicator:
    """Open a socket as the browser with this identity cookie (from `host`), accepted or not."""
    communicator = WebsocketCommunicator(
        application if host is None else from_address(host),
        f"/ws/rooms/{room.code}/",
        headers=[(b"cookie", f"player={key}".encode()), (b"origin", b"http://testserver")],
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected  # refused sockets are accepted first, to be told why
    return communicator


async def admitted(communicator: WebsocketCommunicator) -> bool:
    """Return whether the socket got its snapshot (else it was told why and closed)."""
    output = await communicator.receive_output(timeout=3)
    message = json.loads(output["text"])
    return bool(message["type"] == "snapshot")


async def refusal(communicator: WebsocketCommunicator) -> tuple[str, int]:
    """Return the error code and the close code a refused socket gets."""
    message = json.loads((await communicator.receive_output(timeout=3))["text"])
    closed = await communicator.receive_output(timeout=3)
    assert message["type"] == "error" and closed["type"] == "websocket.close", (message, closed)
    await communicator.disconnect(timeout=10)
    return message["code"], closed["code"]


def connections(player: Player) -> int:
    return Player.objects.get(pk=player.pk).connections


ADDRESSES = ["203.0.113.7", "198.51.100.1", "2001:db8::/64", "192.0.2.9"]


@pytest.fixture
def addresses() -> Iterator[None]:
    """Start and end with no socket counted for the addresses the tests use (the places
    may live in a Redis that outlives the test)."""
    for address in ADDRESSES:
        address_sockets.places_forget(address)
    yield
    for address in ADDRESSES:
        address_sockets.places_forget(address)


def counted(address: str) -> int:
    return address_sockets.places_count(address, now=clock.now())


# Sockets per seat and per address -------------------------------------------------------


async def test_a_seat_holds_its_limit_of_sockets_and_closing_one_frees_a_place(
    game_data_committed: Dictionary, settings: Any
) -> None:
    settings.BOGGLE_SOCKETS_PER_SEAT = 3
    room, host, key = await db(make_room)()
    tabs = [await open_socket(room, key) for _ in range(3)]
    assert [await admitted(tab) for tab in tabs] == [True, True, True]
    extra = await open_socket(room, key)
    assert await refusal(extra) == (protocol.TOO_MANY_TABS, protocol.CLOSE_TOO_MANY_SOCKETS)
    assert await db(connections)(host) == 3  # the refused socket was never counted
    bob, bob_key = await db(seat)(room, "Bob")
    other_seat = await open_socket(room, bob_key)
    assert await admitted(other_seat)  # another seat in the room is not affected
    await tabs.pop().disconnect(timeout=10)
    assert await db(connections)(host) == 2
    again = await open_socket(room, key)
    assert await admitted(again)
    assert await db(connections)(host) == 3
    for socket in [*tabs, again, other_seat]:
        await socket.disconnect(timeout=10)
    assert await db(connections)(host) == 0 and await db(connections)(bob) == 0


async def test_an_address_holds_its_limit_of_sockets_over_all_its_seats(
    game_data_committed: Dictionary, settings: Any, addresses: None
) -> None:
    settings.BOGGLE_SOCKETS_PER_ADDRESS = 3
    room, host, key = await db(make_room)()
    guests = [await db(seat)(room, f"Guest{n}") for n in range(3)]
    home = "203.0.113.7"
    sockets = [
        await open_socket(room, key, home),
        await open_socket(room, key, home),
        await open_socket(room, guests[0][1], home),
    ]
    assert [await admitted(socket) for socket in sockets] == [True, True, True]
    assert await db(counted)(home) == 3
    extra = await open_socket(room, guests[1][1], home)
    code = await refusal(extra)
    assert code == (protocol.TOO_MANY_SOCKETS, protocol.CLOSE_TOO_MANY_SOCKETS)
    assert await db(connections)(guests[1][0]) == 0  # refused before its seat counted it
    elsewhere = await open_socket(room, guests[1][1], "198.51.100.1")
    assert await admitted(elsewhere)  # another address is not affected
    await sockets.pop().disconnect(timeout=10)
    assert await db(counted)(home) == 2
    again = await open_socket(room, guests[2][1], home)
    assert await admitted(again)
    for socket in [*sockets, elsewhere, again]:
        await socket.disconnect(timeout=10)
    assert await db(counted)(home) == 0


async def test_a_full_seat_does_not_use_up_its_address(
    game_data_committed: Dictionary, settings: Any, addresses: None
) -> None:
    settings.BOGGLE_SOCKETS_PER_SEAT, settings.BOGGLE_SOCKETS_PER_ADDRESS = 1, 2
    room, _, key = await db(make_room)()
    _, bob_key = await db(seat)(room, "Bob")
    first = await open_socket(room, key, "2001:db8::1")
    assert await admitted(first)
    for _ in range(3):  # refused by the seat: each gives its address place back
        code, _ = await refusal(await open_socket(room, key, "2001:db8::2"))
        assert code == protocol.TOO_MANY_TABS
    bob = await open_socket(room, bob_key, "2001:db8::3")  # the same /64 network
    assert await admitted(bob)
    assert await db(counted)("2001:db8::/64") == 2
    await first.disconnect(timeout=10)
    await bob.disconnect(timeout=10)


def test_addresses_are_counted_like_the_room_guess_throttle() -> None:
    def address(scope: dict[str, Any]) -> str | None:
        place = socket_limits.address_place(socket_limits.address_of(scope), "socket")
        return None if place is None else place.address

    assert address({"client": ["2001:db8::1", 1]}) == address({"client": ["2001:db8::9", 2]})
    assert address({"client": ["::ffff:192.0.2.1", 1]}) == "192.0.2.1"
    assert address({"client": ["192.0.2.1", 1]}) != address({"client": ["192.0.2.2", 1]})
    assert address({"client": None}) is None and address({}) is None  # nothing to count by


def test_places_of_sockets_not_heard_from_stop_counting(addresses: None) -> None:
    """A worker that died (or restarted) never released its sockets' places: they stop
    counting once unrenewed for STALE_S, so the address is not locked out for good."""
    now, stale = clock.now(), timedelta(seconds=address_sockets.STALE_S + 1)
    gone = [address_sockets.Place("192.0.2.9", f"dead-{n}") for n in range(3)]
    for place in gone:
        assert address_sockets.place_claim(place, limit=3, now=now - stale)
    alive = address_sockets.Place("192.0.2.9", "alive")
    assert address_sockets.place_claim(alive, limit=3, now=now - stale) is False
    address_sockets.place_renew(gone[0], now=now - stale / 2)  # one was still in use
    assert address_sockets.places_count("192.0.2.9", now=now) == 1
    assert address_sockets.place_claim(alive, limit=3, now=now)
    assert address_sockets.places_count("192.0.2.9", now=now) == 2
    address_sockets.place_release(alive)
    assert address_sockets.places_count("192.0.2.9", now=now) == 1


async def test_a_socket_in_use_keeps_its_place(addresses: None) -> None:
    place = address_sockets.Place("192.0.2.9", "in-use", renewed=time.monotonic())
    claimed_at = clock.now() - timedelta(seconds=address_sockets.STALE_S - 1)
    assert await db(address_sockets.place_claim)(place, limit=1, now=claimed_at)
    assert socket_limits.socket_used(place) is None  # a message soon after: not renewed yet
    later = clock.now() + timedelta(seconds=2)  # past the claim's STALE_S
    assert await db(address_sockets.places_count)("192.0.2.9", now=later) == 0
    place.renewed -= address_sockets.RENEW_S  # a message RENEW_S after the last renewal
    renewing = socket_limits.socket_used(place)  # in the background: the message goes on
    assert renewing is not None
    await renewing
    assert await db(address_sockets.places_count)("192.0.2.9", now=later) == 1


def test_a_count_that_fails_lets_the_socket_in(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    away = address_sockets._client("redis://127.0.0.1:1/0")  # nobody listens there
    monkeypatch.setattr(address_sockets, "_redis", lambda: away)
    room, host, _ = make_room()
    place = address_sockets.Place("192.0.2.9", "socket")
    assert presence.socket_open(player=host, place=place, now=clock.now()) is None
    assert connections(host) == 1
    presence.socket_close(player_id=host.id, place=place, now=clock.now())
    assert connections(host) == 0


# Resumes ----------------------------------------------------------------------------------


async def test_resumes_past_their_own_limit_are_refused_then_cut_off(
    game_data_committed: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock standing still: only the buckets' bursts decide, however slow the machine.
    monkeypatch.setattr("games.rooms.consumer.time", SimpleNamespace(monotonic=lambda: 1000.0))
    room, _, key = await db(make_room)()
    socket = await connect(room, key)
    await receive_until(socket, "snapshot")
    for _ in range(int(RESUME_BURST)):
        await socket.send_json_to({"type": "resume", "last_seq": None})
        assert (await socket.receive_json_from())["type"] == "snapshot"
    await socket.send_json_to({"type": "resume", "last_seq": None})
    assert (await socket.receive_json_from())["code"] == protocol.RATE_LIMITED
    await socket.send_json_to({"type": "ping"})  # other messages have their own limit
    assert (await socket.receive_json_from())["type"] == "pong"
    codes = []
    for _ in range(20):
        await socket.send_json_to({"type": "resume", "last_seq": None})
    while True:
        output = await socket.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        codes.append(json.loads(output["text"]).get("code"))
    assert codes == [protocol.RATE_LIMITED] * 9  # ten refusals in all, then closed
    assert output["code"] == 4429


def test_a_page_resuming_on_gaps_is_never_refused_and_a_resume_flood_is_cut_off() -> None:
    page = resume_bucket()  # static/js/socket.js asks at most every three seconds
    assert all(page.allow(100.0 + 3 * n) for n in range(200))
    tab = resume_bucket()  # or a few at once (a gap and a late board together)
    assert all(tab.allow(100.0 + n / 100) for n in range(int(RESUME_BURST)))
    flood = resume_bucket()  # seven a second, as in issue 11
    cut_at = next(
        n for n in range(70) if not flood.allow(100.0 + n / 7) and flood.refused >= MAX_REFUSALS
    )
    assert cut_at < 21  # closed within three seconds


# Handshakes per address and worker ------------------------------------------------------


@pytest.fixture
def openings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start with no address remembered (the suite lifts the limit for its other tests)."""
    monkeypatch.setattr(socket_limits, "_openings", {})


def client(host: str) -> str | None:
    return socket_limits.address_of({"client": [host, 50_000]})


def test_an_address_opens_a_burst_of_sockets_then_one_per_interval(
    settings: Any, openings: None
) -> None:
    settings.BOGGLE_SOCKET_OPENS_BURST, settings.BOGGLE_SOCKET_OPENS_PER_SECOND = 3, 2
    home = client("203.0.113.50")
    assert [socket_limits.opening_allowed(home, 100.0) for _ in range(4)] == [True] * 3 + [False]
    assert socket_limits.opening_allowed(client("198.51.100.50"), 100.0)  # another address
    assert not socket_limits.opening_allowed(client("203.0.113.50"), 100.4)
    assert socket_limits.opening_allowed(home, 100.5)  # a token back after 1/rate s
    assert not socket_limits.opening_allowed(home, 100.5)
    # The same /64 network is one address; an address the server does not know is not limited.
    settings.BOGGLE_SOCKET_OPENS_BURST = 1
    assert socket_limits.opening_allowed(client("2001:db8::1"), 100.0)
    assert not socket_limits.opening_allowed(client("2001:db8::2"), 100.0)
    assert all(
        socket_limits.opening_allowed(socket_limits.address_of({}), 100.0) for _ in range(10)
    )


def test_addresses_are_forgotten_idle_first_when_too_many_are_remembered(
    settings: Any, openings: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOGGLE_SOCKET_OPENS_BURST, settings.BOGGLE_SOCKET_OPENS_PER_SECOND = 2, 1
    monkeypatch.setattr(socket_limits, "OPENINGS_TRACKED", 4)
    hosts = [f"192.0.2.{n}" for n in range(6)]
    for n, host in enumerate(hosts[:4]):
        socket_limits.opening_allowed(client(host), float(n))  # each used one of its two
    # At 3.5 the first three have filled up again: they are forgotten, the busy one is kept.
    socket_limits.opening_allowed(client(hosts[4]), 3.5)
    assert set(socket_limits._openings) == {hosts[3], hosts[4]}
    for host in hosts[:2]:
        socket_limits.opening_allowed(client(host), 3.5)
    # All four busy: the half heard from longest ago goes.
    socket_limits.opening_allowed(client(hosts[5]), 3.5)
    assert len(socket_limits._openings) == 3 and hosts[3] not in socket_limits._openings


async def test_a_socket_past_its_addresses_burst_is_refused_at_the_handshake(
    game_data_committed: Dictionary, settings: Any, openings: None, addresses: None
) -> None:
    settings.BOGGLE_SOCKET_OPENS_BURST, settings.BOGGLE_SOCKET_OPENS_PER_SECOND = 2, 0.001
    room, host, key = await db(make_room)()
    home = "192.0.2.9"
    sockets = [await open_socket(room, key, home) for _ in range(2)]
    assert [await admitted(socket) for socket in sockets] == [True, True]
    extra = WebsocketCommunicator(
        from_address(home),
        f"/ws/rooms/{room.code}/",
        headers=[(b"cookie", f"player={key}".encode()), (b"origin", b"http://testserver")],
    )
    connected, _ = await extra.connect(timeout=10)
    assert not connected  # closed before it was accepted: daphne answers the handshake 403
    assert await db(connections)(host) == 2 and await db(counted)(home) == 2
    elsewhere = await open_socket(room, key, "198.51.100.1")
    assert await admitted(elsewhere)  # another address opens as before
    for socket in [*sockets, elsewhere]:
        await socket.disconnect(timeout=10)


def test_an_address_starts_so_many_rounds_then_is_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One address may hold 20 rooms, each with its own round limit: their rounds together
    are counted against the address too (throttle.ROUNDS_STARTED); an unknown address is not
    counted, as the socket limits do not count it."""
    from games.limits import throttle

    monkeypatch.setattr(throttle, "_now", lambda: 3600 * 500_000 + 30.0)  # one window
    allowance = throttle.ROUNDS_STARTED
    started: list[int] = []

    def start() -> int:
        started.append(len(started) + 1)
        return started[-1]

    for _ in range(allowance.allowed):
        throttle.socket_allowance_use(allowance, "198.51.100.9", start, protocol.ROUNDS_TOO_FAST)
    with pytest.raises(protocol.ProtocolError) as refused:
        throttle.socket_allowance_use(allowance, "198.51.100.9", start, protocol.ROUNDS_TOO_FAST)
    assert refused.value.code == protocol.ROUNDS_TOO_FAST
    assert refused.value.detail == allowance.refusal
    assert len(started) == allowance.allowed  # the refused one did not run
    code = protocol.ROUNDS_TOO_FAST
    assert (
        throttle.socket_allowance_use(allowance, "198.51.100.10", start, code)
        == allowance.allowed + 1
    )
    assert throttle.socket_allowance_use(allowance, None, start, code) == allowance.allowed + 2
