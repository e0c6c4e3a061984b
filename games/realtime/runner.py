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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Generic, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

from games.models import sql
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


# Services, in database threads ---------------------------------------------------------
#
# Channels' database_sync_to_async tidies the thread's connections before and after each call
# (one that failed or outlived CONN_MAX_AGE is closed; CONN_HEALTH_CHECKS is off, see
# boggle_site/settings.py, or each call would add a query). On PostgreSQL services run in a
# pool of threads (settings.BOGGLE_DB_THREADS), each with its own connection, so one socket's
# commit (a disk flush) does not hold up the others; every service is a transaction of its own
# and needs no thread affinity. SQLite has one writer at a time anyway: its services share
# Channels' one database thread.
_in_one_thread = database_sync_to_async(_collect)


class Lane:
    """Database threads of their own for one kind of service, so that it never queues
    behind the others: a worker's words do not wait while a thousand sockets arriving at
    once read their snapshots in the shared pool. On SQLite, the one thread as ever."""

    def __init__(self, threads: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        self.call = database_sync_to_async(_collect, thread_sensitive=False, executor=self.executor)

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
    call = (lane or _shared_pool()).call if sql.on_postgresql() else _in_one_thread
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
