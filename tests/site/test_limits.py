"""What one address may create: rooms and seats per ten minutes (games/limits/throttle.py), and the
seats of one room (settings.BOGGLE_ROOM_PLAYERS_MAX)."""

from __future__ import annotations

import contextvars
import itertools
import threading
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import Client

from games.limits import throttle
from games.models import Player, Room

pytestmark = pytest.mark.usefixtures("shipped_data", "one_window")

NOW = 600 * 3_000_000 + 300.0  # the middle of a window: no test crosses into the next one
_addresses = itertools.count(1)


@pytest.fixture
def one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count every attempt of a test in one window, whatever the clock does meanwhile."""
    monkeypatch.setattr(throttle, "_now", lambda: NOW)


def an_address() -> str:
    """Return an address with no attempts counted (the counters may be in Redis, kept from
    an earlier run)."""
    n = next(_addresses)
    address = f"198.18.{n // 250}.{n % 250 + 1}"
    window, _ = throttle._window(NOW, 600)
    for allowance in (throttle.ROOMS_CREATED, throttle.SEATS_TAKEN):
        caches["throttle"].delete(f"{allowance.name}:{address}:{window}")
    return address


def test_an_address_that_started_its_allowance_of_rooms_is_refused_another(
    settings: Any,
) -> None:
    settings.BOGGLE_ROOMS_PER_ADDRESS = 3
    browser = Client(REMOTE_ADDR=an_address())
    statuses = [
        browser.post("/", {"nickname": f"Ann{n}", "preset": "classic"}).status_code
        for n in range(4)
    ]
    assert statuses == [302, 302, 302, 429]
    assert Room.objects.count() == 3
    refused = browser.post("/", {"nickname": "Ann", "preset": "classic"})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= throttle.ROOMS_CREATED.window
    page = refused.content.decode()
    assert throttle.ROOMS_CREATED.refusal in page and "<h1" in page
    neighbour = Client(REMOTE_ADDR=an_address())
    assert neighbour.post("/", {"nickname": "Bo", "preset": "classic"}).status_code == 302
    assert browser.get("/").status_code == 200  # the home page itself stays open


def test_forms_that_create_nothing_do_not_use_up_the_allowance(settings: Any) -> None:
    settings.BOGGLE_ROOMS_PER_ADDRESS = 1
    browser = Client(REMOTE_ADDR=an_address())
    for _ in range(3):
        assert browser.post("/", {"nickname": "", "preset": "classic"}).status_code == 400
    assert browser.post("/", {"nickname": "Ann", "preset": "classic"}).status_code == 302


def test_an_address_that_took_its_allowance_of_seats_is_refused_another(settings: Any) -> None:
    settings.BOGGLE_SEATS_PER_ADDRESS = 2
    Client(REMOTE_ADDR=an_address()).post("/", {"nickname": "Host", "preset": "classic"})
    code = Room.objects.get().code
    flooder = an_address()
    statuses = [
        Client(REMOTE_ADDR=flooder).post(f"/r/{code}/join/", {"nickname": "Bot"}).status_code
        for _ in range(3)
    ]
    assert statuses == [302, 302, 429]
    by_code = Client(REMOTE_ADDR=flooder).post("/join/", {"code": code, "nickname": "Bot"})
    assert by_code.status_code == 429
    assert throttle.SEATS_TAKEN.refusal in by_code.content.decode()
    assert Player.objects.count() == 3


def test_a_full_room_says_so_and_seats_nobody(settings: Any) -> None:
    settings.BOGGLE_ROOM_PLAYERS_MAX = 2
    Client().post("/", {"nickname": "Host", "preset": "classic"})
    code = Room.objects.get().code
    assert Client().post(f"/r/{code}/join/", {"nickname": "Bob"}).status_code == 302
    refused = Client(REMOTE_ADDR=an_address()).post(f"/r/{code}/join/", {"nickname": "Cy"})
    assert refused.status_code == 400
    assert "This room is full." in refused.content.decode()
    assert Player.objects.count() == 2


def test_the_defaults_fit_what_the_results_were_measured_at() -> None:
    from boggle_site import settings as defaults

    assert defaults.BOGGLE_ROOM_PLAYERS_MAX == 50
    assert throttle.ROOMS_CREATED.default == 20 and throttle.SEATS_TAKEN.default == 100


def test_every_request_counts_through_one_cache_object_and_its_connections() -> None:
    """Django gives each request's context a `throttle` cache object of its own (with Redis:
    a new pool, a new connection); the counters keep one for the process instead."""
    seen: list[object] = []
    address = an_address()

    def request() -> None:  # each as a request does it: a thread and a context of its own
        throttle.attempt_record(throttle.ROOMS_CREATED, address)
        seen.append(throttle._counters())

    for _ in range(3):
        thread = threading.Thread(target=contextvars.Context().run, args=(request,))
        thread.start()
        thread.join()
    assert len(seen) == 3 and all(cache is seen[0] for cache in seen)
    assert throttle.attempts(throttle.ROOMS_CREATED, address) == 3
    if isinstance(seen[0], RedisCache):  # one pool, one connection: the calls took turns
        pools = seen[0]._cache._pools
        assert len(pools) == 1
        (pool,) = pools.values()
        assert len(pool._available_connections) + len(pool._in_use_connections) <= 1
