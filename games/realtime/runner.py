"""Calling a service, then delivering what it emitted: the one way out for every effect.

A service records its effects (room events, changed word or spectator counts) in the outbox of
games.realtime.outbox as its transaction commits; the runner collects that outbox around the
call and delivers it: messages to the rooms' channel-layer groups, changed counts to
games.realtime.counts, which coalesces them. The consumer runs services with `service_run` (in a
database thread), the sweeper and bots with `service_run_sync`. Delivery comes first, then
the service's value or its exception: what committed before a failure still goes out.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connections

from games.realtime import counts
from games.realtime.outbox import Outbox, outbox_collect

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What one service call came to: its value or its exception, and what it emitted."""

    value: T | None
    error: BaseException | None
    outbox: Outbox

    def unwrap(self) -> T:
        """Return the value, or raise the service's exception."""
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]  # None only when T allows it


def _collect(action: Callable[[], T]) -> Outcome[T]:
    """Call a service and collect what it emitted, keeping its exception for later."""
    with outbox_collect() as outbox:
        try:
            return Outcome(action(), None, outbox)
        except Exception as exc:  # raised by the caller, after the outbox is delivered
            return Outcome(None, exc, outbox)


# Services, one thread each --------------------------------------------------------------

FRESH_S = 5.0  # a connection used this recently is taken as alive without asking
_local = threading.local()


def _last_use() -> dict[str, float]:
    """Return this thread's map of connection alias -> when it was last used (monotonic)."""
    if not hasattr(_local, "used"):
        _local.used = {}
    used: dict[str, float] = _local.used
    return used


class _TrustFreshConnections(SyncToAsync):
    """Channels' database_sync_to_async, minus a query per call.

    Like it, this tidies the thread's connections before and after each call (one that
    failed or outlived CONN_MAX_AGE is closed). But that tidying also makes Django check the
    connection with a query of its own before the next one (CONN_HEALTH_CHECKS), which cost
    a round trip per word. A connection used less than FRESH_S seconds ago is taken as
    alive: if it died even so (PostgreSQL restarted), the call fails, the socket closes, and
    the page reconnects and sends its unanswered words again.
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        now = time.monotonic()
        used = _last_use()
        for conn in connections.all(initialized_only=True):
            if conn.connection is not None and now - used.get(conn.alias, -math.inf) < FRESH_S:
                conn.health_check_done = True  # type: ignore[attr-defined]  # not in the stubs
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            now = time.monotonic()
            for conn in connections.all(initialized_only=True):
                used[conn.alias] = now
            close_old_connections()


# On PostgreSQL services run in a pool of threads (settings.BOGGLE_DB_THREADS), each with its
# own connection, so one socket's commit (a disk flush) does not hold up the others; every
# service is a transaction of its own and needs no thread affinity. SQLite has one writer at
# a time anyway.
_in_one_thread = _TrustFreshConnections(_collect)


class Lane:
    """Database threads of their own for one kind of service, so that it never queues
    behind the others: a worker's words do not wait while a thousand sockets arriving at
    once read their snapshots in the shared pool. On SQLite, the one thread as ever."""

    def __init__(self, threads: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        self.call = _TrustFreshConnections(_collect, thread_sensitive=False, executor=self.executor)

    def close(self) -> None:
        """Let the threads end once their calls are done."""
        self.executor.shutdown(wait=False)


_pool: Lane | None = None


def _shared_pool() -> Lane:
    """Return the database threads every service without a lane of its own runs in."""
    global _pool
    if _pool is None:
        _pool = Lane(settings.BOGGLE_DB_THREADS, "db")
    return _pool


async def service_run(action: Callable[[], T], lane: Lane | None = None) -> T:
    """Run a service (or a read) in a database thread (of the lane, if given), deliver what
    it emitted, then return its value or raise its exception. Call it from the event
    loop."""
    global _serving_loop
    _serving_loop = asyncio.get_running_loop()
    # The engine from the settings, not `connection.vendor`: in the event loop `connection`
    # is a per-task object, and asking it made a DatabaseWrapper for every socket (2 KiB).
    postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    call = (lane or _shared_pool()).call if postgres else _in_one_thread
    outcome: Outcome[T] = await call(action)
    if outcome.outbox:
        await outbox_deliver(outcome.outbox)
    return outcome.unwrap()


def service_run_sync(action: Callable[[], T]) -> T:
    """Run a service in this thread (one with no event loop: the sweeper), deliver what it
    emitted, then return its value or raise its exception."""
    outcome = _collect(action)
    outbox_deliver_sync(outcome.outbox)
    return outcome.unwrap()


# Delivery -------------------------------------------------------------------------------


def _unsent(group: str, message: dict[str, Any]) -> None:
    log.warning(
        "could not send %s to %s: the channel layer is unavailable",
        message.get("event", message["type"]),
        group,
    )


async def outbox_deliver(outbox: Outbox) -> None:
    """Send an outbox's messages and note its changed counts, from the event loop."""
    layer = get_channel_layer()
    for group, message in outbox.messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # stored already: clients catch up by sequence number
            _unsent(group, message)
    if outbox.counts_changed:
        counts.WORD_COUNTS.changed(outbox.counts_changed)
    if outbox.spectators_changed:
        counts.SPECTATORS.changed(outbox.spectators_changed)


# The event loop that serves this worker's sockets, once one has run a service. The sweep
# thread hands its outboxes to it: asgiref's async_to_sync would run each message in a new
# event loop on a new thread, with a Redis connection of its own, and closing that loop walks
# every task of the process (thousands of sockets' tasks) holding the GIL: 31 ms a message
# under `make bench-daily`, while the sockets' words waited.
_serving_loop: asyncio.AbstractEventLoop | None = None
HANDOFF_TIMEOUT_S = 10.0


def _serving_loop_elsewhere() -> asyncio.AbstractEventLoop | None:
    """Return the serving event loop if it is running and this thread is not its own."""
    loop = _serving_loop
    if loop is None or not loop.is_running() or loop.is_closed():
        return None
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    return None if here is loop else loop


def outbox_deliver_sync(outbox: Outbox) -> None:
    """Send an outbox's messages and the counts due, from a thread with no event loop: on
    the worker's serving loop when it runs, else here."""
    loop = _serving_loop_elsewhere()
    if loop is not None:
        if outbox:
            handed = asyncio.run_coroutine_threadsafe(outbox_deliver(outbox), loop)
            try:
                handed.result(timeout=HANDOFF_TIMEOUT_S)
            except Exception:  # the loop stopped or is stuck: stored, clients catch up
                handed.cancel()
                log.exception("handing an outbox to the serving loop failed")
        outbox = Outbox()  # below: only the counts noted here before the loop served
    layer = get_channel_layer()
    for group, message in outbox.messages if layer is not None else ():
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # stored already: clients catch up by sequence number
            _unsent(group, message)
    for kind, changed in (
        (counts.WORD_COUNTS, outbox.counts_changed),
        (counts.SPECTATORS, outbox.spectators_changed),
    ):
        try:
            kind.send_due(changed)
        except Exception:  # counts are a courtesy; the next change or a snapshot resends
            log.exception("sending %s failed", kind.what)
