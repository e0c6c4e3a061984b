"""Rooms, seats and sockets for the game tests, over a small dictionary and the shipped dice."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.identity import COOKIE_NAME, cookie_value, identity_create
from games.models import Player, PlayerIdentity, Room, Round
from games.rooms import services as rooms
from games.routing import websocket_application
from games.rules import clock
from solver.caches import caches_clear
from solver.dictionaries import shipped
from solver.dictionaries.packing import words_pack
from solver.dictionaries.services import dictionary_create
from solver.engine.wordlist import WordList, parse_word_list
from solver.models import DiceSet, Dictionary
from tests.fixed_dice import fixed_dice_create

DATA = Path(__file__).resolve().parents[1] / "data"
application = websocket_application()


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> Iterator[None]:
    """Give each test a fresh in-process channel layer (a Redis layer is bound to the event
    loop of the test that made it); the Redis tests ask for Redis themselves."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def quick_password_hashes(settings: Any) -> None:
    """Hash the test accounts' passwords in microseconds rather than the production hasher's
    deliberate fraction of a second (every sign-up, log-in and lockout test pays it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@functools.cache
def _algs4_words() -> tuple[WordList, bytes]:
    """The algs4 list, read and packed once per process (every game test stores it)."""
    words = parse_word_list((DATA / "dictionaries" / "dictionary-algs4.txt").read_text())
    return words, words_pack(words.words)


@pytest.fixture
def game_data(db: None) -> Dictionary:
    """A default dictionary (the algs4 words), the shipped dice sets and the fixed test dice.

    Stored in the test's own transaction and rolled back after it (milliseconds: nothing to
    empty), which is all a test needs that calls services, selectors and views in its own
    thread. Nothing commits there, so no on-commit effect runs (the outbox's messages, a
    standing left to the background): a test that checks them runs the call inside
    `django_capture_on_commit_callbacks(execute=True)`. A test whose database work runs in
    other threads (a socket: the consumer's services run in database threads; threads of its
    own) or that checks the commits themselves asks for `game_data_committed`, or is marked
    `django_db(transaction=True)`: the same rows are then committed, and every table is
    emptied after the test (hundreds of milliseconds on PostgreSQL).
    """
    words, packed = _algs4_words()
    dictionary = dictionary_create(
        name="Test words", slug="test", word_list=words, alphabet=words.alphabet, words_gz=packed
    )
    for fields in shipped.dice_sets():
        DiceSet.objects.get_or_create(slug=fields["slug"], defaults=fields)
    fixed_dice_create()
    return dictionary


@pytest.fixture
def game_data_committed(transactional_db: None, game_data: Dictionary) -> Dictionary:
    """`game_data`, committed: for a test whose database work runs in other threads."""
    return game_data


def new_identity() -> PlayerIdentity:
    """Return a new anonymous player identity (a new browser)."""
    return identity_create()


def make_room(
    settings: dict[str, Any] | None = None, nickname: str = "Ann"
) -> tuple[Room, Player, str]:
    """Create a room; return it, its host and the host's identity cookie."""
    identity = new_identity()
    room, host = rooms.room_create(identity=identity, nickname=nickname, settings=settings or {})
    return room, host, cookie_value(identity)


def seat(room: Room, nickname: str) -> tuple[Player, str]:
    """Give a new browser a seat in the room; return the player and its identity cookie."""
    identity = new_identity()
    return rooms.player_join(room=room, identity=identity, nickname=nickname), cookie_value(
        identity
    )


def reschedule(rnd: Round, *, starts_in: float, ends_in: float | None) -> Round:
    """Move a round's clock (tests cannot wait minutes for a real round)."""
    now = clock.now()
    rnd.starts_at = now + timedelta(seconds=starts_in)
    rnd.ends_at = None if ends_in is None else now + timedelta(seconds=ends_in)
    rnd.save(update_fields=["starts_at", "ends_at"])
    caches_clear("rounds kept")  # this process's copy of the round had the old clock
    return rnd


async def connect(
    room: Room, cookie: str, query: str = "", origin: bytes = b"http://testserver"
) -> WebsocketCommunicator:
    """Open a socket to the room as the browser with this identity cookie."""
    communicator = WebsocketCommunicator(
        application,
        f"/ws/rooms/{room.code}/{query}",
        headers=[(b"cookie", f"{COOKIE_NAME}={cookie}".encode()), (b"origin", origin)],
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    if "last_seq=" not in query:
        await in_room(communicator)
    return communicator


IN_ROOM_FRAMES = ("snapshot", "arena_snapshot", "error")  # sent once in the group, or refused


async def in_room(communicator: WebsocketCommunicator, timeout: float = 10) -> None:
    """Wait until a socket just accepted (a player's, a spectator's or an arena player's)
    has joined its room (its snapshot, sent once it is in the room's group, or its refusal
    has come), leaving every frame in place for the test to read. The handshake alone is
    not enough: the socket's connect handler still runs after it, and a round another
    socket started meanwhile reached this one only in its snapshot, never as the
    `round_started` event a test waits for (a CI run saw it)."""
    queue: asyncio.Queue[dict[str, Any]] = communicator.output_queue
    seen: list[dict[str, Any]] = []
    try:
        async with asyncio.timeout(timeout):
            while True:
                output = await queue.get()
                seen.append(output)
                if output["type"] != "websocket.send":
                    break  # closed
                if json.loads(output.get("text") or "{}").get("type") in IN_ROOM_FRAMES:
                    break
    except TimeoutError:
        raise AssertionError(f"no snapshot within {timeout} s; frames: {seen}") from None
    finally:  # put everything back, in order (no await between the drain and the refill)
        while not queue.empty():
            seen.append(queue.get_nowait())
        for output in seen:
            queue.put_nowait(output)


async def receive_until(
    communicator: WebsocketCommunicator,
    kind: str,
    timeout: float = 3,
    where: Callable[[dict[str, Any]], bool] = lambda message: True,
) -> dict[str, Any]:
    """Return the next message of a type (or event of a kind) that passes `where`."""
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if (message["type"] == kind or message.get("event") == kind) and where(message):
            return message


def results_get(url: str, cookie: str) -> dict[str, Any]:
    """Return a finished round's results as the browser with this identity cookie fetches
    them."""
    client = Client()
    client.cookies[COOKIE_NAME] = cookie
    response = client.get(url)
    assert response.status_code == 200, response.content
    results: dict[str, Any] = response.json()
    return results


def migrate_to(*targets: tuple[str, str]) -> Any:
    """Migrate the test database to `targets` (with none, to the latest) and return the app
    registry as it was there: a migration test's models, which later migrations change."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    goal = list(targets) or executor.loader.graph.leaf_nodes()
    executor.migrate(goal)
    return executor.loader.project_state(goal).apps
