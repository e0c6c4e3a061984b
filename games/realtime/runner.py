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

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections, connections

from games.realtime.delivery import outbox_deliver, outbox_deliver_sync, serving_loop_set
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
    serving_loop_set(asyncio.get_running_loop())
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
