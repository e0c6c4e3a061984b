"""Live counts: coalesced per room and sent at most every so often, off the path that changed them.

Each kind is a feature's (the word counts of a room's running round, games.rounds.counts; how
many spectators watch a room, games.spectators.counts). A service records in the outbox that
a room's count of a kind changed; the runner that delivers the outbox hands those
rooms here. Each worker then sends a room its current count (one query for all the rooms due)
at most once per period of that kind, so a burst of words, or of spectators, costs one message
per room, not one per change per socket. Counts are whole, so a lost or duplicated message
does no harm, and snapshots carry them too.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from solver.caches import cache_register

log = logging.getLogger(__name__)
Notices = list[tuple[str, dict[str, Any]]]  # (group, notice) pairs


@dataclass
class Coalesced:
    """One kind of count: the rooms whose count changed, sent by this worker at most once
    every `every_s` per room, by a task of the event loop or by the sweeper's thread."""

    what: str  # for the log
    every_s: float
    notices: Callable[[Iterable[int]], Notices]
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent_at: dict[int, float] = field(default_factory=dict)  # room -> last sent (monotonic)
    waiting: set[int] = field(default_factory=set)  # rooms noted in the event loop
    waiting_sync: set[int] = field(default_factory=set)  # noted in threads without a loop
    task: asyncio.Task[None] | None = None

    def take_due(self, waiting: set[int], now: float) -> list[int]:
        """Take from `waiting` the rooms whose count may be sent at `now`, marking them sent."""
        with self.lock:
            for room_id, at in list(self.sent_at.items()):
                if now - at >= self.every_s:
                    del self.sent_at[room_id]
            due = [room_id for room_id in waiting if room_id not in self.sent_at]
            waiting.difference_update(due)
            self.sent_at.update(dict.fromkeys(due, now))
        return due

    def next_wait(self, waiting: set[int], now: float) -> float | None:
        """Return how long until a room in `waiting` may be sent, or None if none waits."""
        with self.lock:
            if not waiting:
                return None
            return max(0.0, min(self.sent_at.get(r, now) + self.every_s - now for r in waiting))

    def changed(self, room_ids: Iterable[int]) -> None:
        """Note, in the event loop, that these rooms' counts changed: they go out with its
        next send, `every_s` from the first change (not sooner than that after the last)."""
        with self.lock:
            self.waiting.update(room_ids)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._send_soon())

    async def _send_soon(self) -> None:
        wait = self.every_s
        while True:
            await asyncio.sleep(wait)
            due = self.take_due(self.waiting, monotonic())
            if due:
                try:
                    notices = await database_sync_to_async(self.notices)(due)
                    layer = get_channel_layer()
                    for group, notice in notices:
                        await layer.group_send(group, notice)
                except Exception:  # a courtesy; the next change or a snapshot resends
                    log.exception("sending %s failed", self.what)
            # No await between this look and returning: a change noted meanwhile sees the
            # task still running and is sent by it, or sees it done and starts another.
            next_wait = self.next_wait(self.waiting, monotonic())
            if next_wait is None:
                return
            wait = next_wait

    def send_due(self, room_ids: Iterable[int] = ()) -> None:
        """Note, from a thread without an event loop (the sweeper), that these rooms' counts
        changed, and send now those of every room so noted that may be sent; the rest wait
        for the next call (the sweeper calls every second)."""
        with self.lock:
            self.waiting_sync.update(room_ids)
        due = self.take_due(self.waiting_sync, monotonic())
        if not due:
            return
        layer = get_channel_layer()
        if layer is None:
            return
        for group, notice in self.notices(due):
            async_to_sync(layer.group_send)(group, notice)

    def forget(self) -> None:
        """Forget every room noted or sent (a test starts from nothing)."""
        with self.lock:
            self.sent_at.clear()
            self.waiting.clear()
            self.waiting_sync.clear()


_KINDS: dict[str, Coalesced] = {}


def count_kind(what: str, every_s: float, notices: Callable[[Iterable[int]], Notices]) -> Coalesced:
    """Make a kind of live count known to every delivery (once, as its feature's module is
    imported): `notices` reads the rooms' counts now; each room's is sent at most every
    `every_s`."""
    kind = _KINDS[what] = Coalesced(what, every_s, notices)
    return kind


def counts_changed(changed: dict[str, set[int]]) -> None:
    """Note, in the event loop, the rooms whose counts of each kind changed."""
    for what, room_ids in changed.items():
        _KINDS[what].changed(room_ids)


def counts_send_due(changed: dict[str, set[int]]) -> None:
    """Note, from a thread without an event loop (the sweeper), the rooms whose counts
    changed, and send those of every kind that are due."""
    for what, kind in _KINDS.items():
        try:
            kind.send_due(changed.get(what, ()))
        except Exception:  # counts are a courtesy; the next change or a snapshot resends
            log.exception("sending %s failed", what)


def _counts_forget() -> None:
    """Forget every room noted or sent, of every kind (a test starts from nothing)."""
    for kind in _KINDS.values():
        kind.forget()


cache_register("live counts", _counts_forget)
