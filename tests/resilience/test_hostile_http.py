"""Hostile HTTP: nicknames made to break out of the page, and floods of guessed room codes."""

from __future__ import annotations

import http.cookiejar
import json
import random
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from games.limits import throttle
from games.models import Player, Room
from games.rooms.selectors import room_snapshot
from games.rooms.services import CODE_ALPHABET, CODE_LENGTH
from games.rules import clock
from tests.resilience import figures
from tests.resilience.conftest import Cluster, table_make

pytestmark = [pytest.mark.resilience, pytest.mark.django_db(transaction=True)]

HOSTILE = [
    "<img src=x onerror=f()>",
    '"><script>f()</script>',
    "' onfocus='f()' x='",
    "</textarea><svg onload=f()>",
    "{{ 7|add:7 }}{% now 'Y' %}",
]
QUOTED = "Mal' onfocus 'x' -_."  # passes the nickname rules: letters, spaces, - _ . '


class Injected(HTMLParser):
    """Collects what a page would run: event-handler attributes and script or svg elements
    outside the page's own json_script blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, _ in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
        if tag in ("svg", "img", "iframe"):
            self.found.append(f"<{tag}>")
        data_or_file = ("type", "application/json") in attrs or any(n == "src" for n, _ in attrs)
        if tag == "script" and not data_or_file:
            self.found.append("<script> inline")


def injected(html: str) -> list[str]:
    parser = Injected()
    parser.feed(html)
    return parser.found


def guessed_code(rng: random.Random) -> str:
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def an_address() -> str:
    """A fresh client address each run (counts in Redis outlive a run by a minute)."""
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_nickname_is_refused_and_shown_as_text(game_data: Any, name: str) -> None:
    table = table_make(1, ends_in=60)
    client = Client(REMOTE_ADDR=an_address())
    page = client.post(f"/r/{table.room.code}/join/", {"nickname": name})
    html = page.content.decode()
    assert page.status_code == 400
    assert injected(html) == [], html
    assert escape(name) in html  # echoed in the form, as text (template syntax unevaluated)
    assert escape(name) == name or name not in html
    assert not Player.objects.filter(nickname=name).exists()


def test_names_in_the_database_render_as_text_wherever_they_appear(game_data: Any) -> None:
    """Names already stored (a seat taken with the quoted name that the rules allow, and one
    written straight into the database, as an older release or a bug might have) never
    become markup on the server-rendered pages."""
    table = table_make(2, ends_in=60)
    stored = "<img src=x onerror=f()>"
    Player.objects.filter(pk=table.players[1].pk).update(nickname=stored)
    guest = Client(REMOTE_ADDR=an_address())
    joined = guest.post(f"/r/{table.room.code}/join/", {"nickname": QUOTED})
    assert joined.status_code == 302
    assert Player.objects.filter(room=table.room, nickname=QUOTED).exists()
    for page in (guest.get(f"/r/{table.room.code}/"), Client().get(f"/r/{table.room.code}/")):
        html = page.content.decode()
        assert page.status_code == 200
        assert injected(html) == [], html
        assert stored not in html


def test_the_snapshot_carries_names_as_data_for_the_page_to_insert_as_text(
    game_data: Any,
) -> None:
    """The websocket side: names travel as JSON strings; static/js inserts them with
    textContent (tests/browser/test_nicknames.py checks it in Chromium)."""
    table = table_make(2, ends_in=60)
    Player.objects.filter(pk=table.players[1].pk).update(nickname=HOSTILE[0])
    room = Room.objects.get(pk=table.room.pk)
    snapshot = room_snapshot(room, table.players[0], clock.now())
    assert HOSTILE[0] in [p["nickname"] for p in snapshot["players"]]
    assert json.loads(json.dumps(snapshot))["players"][1]["nickname"] == HOSTILE[0]


def test_a_flood_of_guessed_codes_is_refused_and_joins_nothing(
    game_data: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The misses are counted in windows of a minute: the whole flood falls in one.
    monkeypatch.setattr(throttle, "_now", lambda: 30_000_000.0 * throttle.WINDOW + 1)
    table = table_make(1, ends_in=60)
    rng = random.Random(5)
    flooder, neighbour = an_address(), an_address()
    client = Client(REMOTE_ADDR=flooder)
    statuses = []
    started = time.monotonic()
    for n in range(200):  # the three ways a code is looked up, in turn
        code = guessed_code(rng)
        if n % 3 == 0:
            response = client.post(f"/r/{code}/join/", {"nickname": f"g{n}"})
        elif n % 3 == 1:
            response = client.post("/join/", {"code": code, "nickname": f"g{n}"})
        else:
            response = client.get(f"/r/{code}/")
        statuses.append(response.status_code)
    elapsed = time.monotonic() - started
    assert statuses[: throttle.MISSES_ALLOWED] == [404] * throttle.MISSES_ALLOWED
    assert set(statuses[throttle.MISSES_ALLOWED :]) == {429}
    # Even the right code joins nothing from an address that has been guessing.
    refused = client.post(f"/r/{table.room.code}/join/", {"nickname": "Lucky"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) <= throttle.WINDOW
    assert not Player.objects.filter(nickname__startswith="g").exists()
    assert not Player.objects.filter(nickname="Lucky").exists()
    # Others are not punished for it.
    other = Client(REMOTE_ADDR=neighbour)
    assert other.post(f"/r/{table.room.code}/join/", {"nickname": "Neighbour"}).status_code == 302
    assert Player.objects.filter(room=table.room, nickname="Neighbour").exists()
    figures.record(
        "join_flood_in_process",
        attempts=len(statuses),
        looked_up=statuses.count(404),
        refused_429=statuses.count(429),
        players_created=0,
        seconds=elapsed,
    )


def test_an_ipv6_subscriber_counts_as_one_address() -> None:
    request = type("R", (), {})()
    keys = set()
    for host in ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2:abcd::"):
        request.META = {"REMOTE_ADDR": host}  # type: ignore[attr-defined]
        keys.add(throttle.client_key(request))  # type: ignore[arg-type]
    assert keys == {"2001:db8:1:2::/64"}


class _Http:
    """A browser-like HTTP client for a real worker: cookies, CSRF token, a claimed address
    (daphne runs with --proxy-headers, as behind the proxy)."""

    def __init__(self, address: str) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), urllib.request.ProxyHandler({})
        )
        self.address = address

    def request(self, url: str, form: dict[str, str] | None = None) -> int:
        data = None
        headers = {"X-Forwarded-For": self.address}
        if form is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token or ""}).encode()
            origin = url.split("/", 3)
            headers["Origin"] = f"{origin[0]}//{origin[2]}"
        req = urllib.request.Request(url, data=data, headers=headers)
        try:
            with self.opener.open(req, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)


def _window_with_time_left(seconds: float) -> None:
    """Wait, if need be, until the throttle's current window has `seconds` left."""
    left = throttle.WINDOW - time.time() % throttle.WINDOW
    if left < seconds:
        time.sleep(left + 0.05)


@pytest.mark.postgres
@pytest.mark.redis
def test_two_workers_share_one_count_of_guesses(cluster: Cluster) -> None:
    table = table_make(1, ends_in=60)
    rng = random.Random(9)
    urls = [worker.http_url for worker in cluster.workers]
    flooder = _Http(an_address())
    assert flooder.request(urls[0] + "/") == 200  # a CSRF cookie, as a browser has
    _window_with_time_left(20)  # the workers count by the clock: the flood in one window
    statuses = []
    for n in range(60):  # alternate workers, as a proxy would
        statuses.append(flooder.request(f"{urls[n % 2]}/r/{guessed_code(rng)}/"))
    assert statuses.count(404) == throttle.MISSES_ALLOWED  # one count across both workers
    assert set(statuses[throttle.MISSES_ALLOWED :]) == {429}
    lucky = flooder.request(f"{urls[1]}/r/{table.room.code}/join/", {"nickname": "Lucky"})
    assert lucky == 429
    neighbour = _Http(an_address())
    assert neighbour.request(urls[1] + "/") == 200
    joined = neighbour.request(f"{urls[0]}/r/{table.room.code}/join/", {"nickname": "Neighbour"})
    assert joined == 200  # redirected to the room page, which answers 200
    assert set(Player.objects.filter(room=table.room).values_list("nickname", flat=True)) == {
        "host",
        "Neighbour",
    }
    figures.record(
        "join_flood_two_workers",
        attempts=len(statuses),
        looked_up=statuses.count(404),
        refused_429=statuses.count(429),
    )
