"""The runner: a service's committed effects, counts included, leave one way, after it ran."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from games import protocol
from games.bots import services as bots
from games.models import Room
from games.realtime import counts, delivery, runner
from games.realtime.outbox import event_emit, outbox_collect, room_group
from games.realtime.runner import service_run, service_run_sync
from games.rounds import counts as word_counts
from games.rounds import services as rounds
from games.rounds.submissions import submission_create
from games.rules import clock
from solver.models import Dictionary
from tests.games.conftest import make_room, reschedule

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


@pytest.fixture(autouse=True)
def fresh_counts() -> Iterator[None]:
    """Start each test with no counts sent or waiting in this process."""
    word_counts.WORD_COUNTS.forget()
    yield
    word_counts.WORD_COUNTS.forget()


async def listen(room: Room) -> str:
    """Return a channel that receives what is sent to the room's group."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(room_group(room.id), channel)
    return channel


async def received(channel: str) -> list[dict[str, Any]]:
    """Return what the channel holds now (the in-memory layer queues a send at once)."""
    layer, messages = get_channel_layer(), []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
        except TimeoutError:
            return messages


def settings_changed(room: Room) -> None:
    event_emit(room_id=room.id, kind=protocol.SETTINGS_CHANGED, data={"settings": {}})


async def test_what_a_service_committed_goes_out_before_its_error_is_raised(
    game_data: Dictionary,
) -> None:
    room, _, _ = await db(make_room)()
    channel = await listen(room)

    def emits_then_fails() -> None:
        settings_changed(room)
        raise protocol.ProtocolError(protocol.NOT_HOST)

    with pytest.raises(protocol.ProtocolError):
        await service_run(emits_then_fails)
    (message,) = await received(channel)
    assert message["type"] == "room.event" and message["event"] == protocol.SETTINGS_CHANGED


async def test_nothing_leaves_from_a_transaction_that_rolled_back(game_data: Dictionary) -> None:
    room, _, _ = await db(make_room)()
    channel = await listen(room)

    def rolls_back() -> None:
        with transaction.atomic():
            settings_changed(room)
            raise ValueError("changed my mind")

    with pytest.raises(ValueError):
        await service_run(rolls_back)
    assert await received(channel) == []


async def test_a_service_run_returns_the_services_value(game_data: Dictionary) -> None:
    room, host, _ = await db(make_room)()
    channel = await listen(room)
    rnd = await service_run(lambda: rounds.round_start(room=room, player=host, now=clock.now()))
    assert rnd.room_id == room.id
    (message,) = await received(channel)
    assert message["event"] == protocol.ROUND_STARTED


def test_an_accepted_word_records_that_its_rooms_counts_changed(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    rnd = reschedule(
        rounds.round_start(room=room, player=host, now=clock.now(), seed=3),
        starts_in=-1,
        ends_in=60,
    )
    word = rnd.solution[0][0]

    def submit(text: str, client_id: str) -> dict[str, Any]:
        return submission_create(
            player_id=host.id, room_id=room.id, client_id=client_id, word=text, path=None,
            now=clock.now(),
        )  # fmt: skip

    with outbox_collect() as refused:
        assert not submit("QQQQ", "a")["accepted"]
    assert not refused.counts_changed
    with outbox_collect() as accepted:
        assert submit(word, "b")["accepted"]
    assert accepted.counts_changed == {word_counts.WORD_COUNTS.what: {room.id}}
    assert not accepted.messages


def test_computer_players_words_reach_the_room_as_counts_through_the_runner(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bot = bots.bot_add(room=room, by=host, level="humbling")
    channel = async_to_sync(listen)(room)
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=3)
    reschedule(rnd, starts_in=-170, ends_in=10)
    async_to_sync(received)(channel)  # the round's start
    played = service_run_sync(lambda: bots.bots_play(now=clock.now()))
    assert played == len(rnd.solution)
    (notice,) = async_to_sync(received)(channel)
    assert notice["type"] == "room.notice"
    assert notice["message"] == protocol.word_counts(rnd.number, {str(bot.id): played})


def test_a_rooms_counts_go_out_at_most_every_counts_every_s(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, host, _ = make_room()
    reschedule(
        rounds.round_start(room=room, player=host, now=clock.now(), seed=3),
        starts_in=-1,
        ends_in=60,
    )
    channel = async_to_sync(listen)(room)
    async_to_sync(received)(channel)
    at = [100.0]
    monkeypatch.setattr(counts, "monotonic", lambda: at[0])

    def sent() -> int:
        return len(async_to_sync(received)(channel))

    word_counts.WORD_COUNTS.send_due([room.id])
    assert sent() == 1
    at[0] += word_counts.COUNTS_EVERY_S / 2
    word_counts.WORD_COUNTS.send_due([room.id])  # too soon: it waits
    word_counts.WORD_COUNTS.send_due([room.id])
    assert sent() == 0
    at[0] += word_counts.COUNTS_EVERY_S / 2
    # The next call (the sweeper's next tick) sends what waited, once.
    word_counts.WORD_COUNTS.send_due()
    assert sent() == 1
    word_counts.WORD_COUNTS.send_due()
    assert sent() == 0


class RecordingLayer:
    """A channel layer that notes, for each group send, the event loop it ran in."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, asyncio.AbstractEventLoop]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((message["event"], asyncio.get_running_loop()))


@pytest.fixture
def serving_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A running event loop on a thread of its own, as daphne's serves a worker's sockets."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def serve() -> None:
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(5)
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


@pytest.fixture
def recording_layer(monkeypatch: pytest.MonkeyPatch) -> RecordingLayer:
    layer = RecordingLayer()
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: layer)
    return layer


def test_a_threads_effects_go_out_on_the_workers_serving_loop(
    game_data: Dictionary,
    monkeypatch: pytest.MonkeyPatch,
    serving_loop: asyncio.AbstractEventLoop,
    recording_layer: RecordingLayer,
) -> None:
    # The sweeper's thread hands what it emitted to the loop that serves the sockets, instead
    # of making an event loop (and a thread) of its own for every message.
    loop, layer = serving_loop, recording_layer
    monkeypatch.setattr(delivery, "_serving_loop", loop)
    room, _, _ = make_room()
    service_run_sync(lambda: (settings_changed(room), settings_changed(room)))
    assert layer.sent == [(protocol.SETTINGS_CHANGED, loop)] * 2


def test_with_no_serving_loop_a_thread_delivers_its_effects_itself(
    game_data: Dictionary,
    monkeypatch: pytest.MonkeyPatch,
    serving_loop: asyncio.AbstractEventLoop,
    recording_layer: RecordingLayer,
) -> None:
    loop, layer = serving_loop, recording_layer
    room, _, _ = make_room()
    loop.call_soon_threadsafe(loop.stop)  # the worker's loop stopped (shutting down)
    for _ in range(100):
        if not loop.is_running():
            break
        time.sleep(0.01)
    monkeypatch.setattr(delivery, "_serving_loop", loop)
    service_run_sync(lambda: settings_changed(room))
    ((kind, ran_in),) = layer.sent
    assert kind == protocol.SETTINGS_CHANGED and ran_in is not loop


async def test_on_postgresql_services_run_in_as_many_threads_as_the_setting_says(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BOGGLE_DB_THREADS threads, each with its connection: never more at once, whatever
    number of services wait (more would only contend for the worker's one Python lock)."""
    monkeypatch.setitem(settings.DATABASES["default"], "ENGINE", "django.db.backends.postgresql")
    settings.BOGGLE_DB_THREADS = 3
    monkeypatch.setattr(runner, "_pool", None)  # made anew from the setting
    lock, running, most = threading.Lock(), [0], [0]
    three = threading.Barrier(3, timeout=30)  # three at once, or this fails

    def service() -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        three.wait()
        time.sleep(0.01)  # a fourth thread, were there one, would be counted meanwhile
        with lock:
            running[0] -= 1
        return threading.current_thread().name

    try:
        names = set(await asyncio.gather(*(service_run(service) for _ in range(12))))
    finally:
        pool = runner._pool
        if pool is not None:
            pool.close()
    assert most[0] == 3 and len(names) == 3
    assert all(name.startswith("db") for name in names)
