"""The sweep: every few seconds, end overdue rounds and tidy rooms, in every worker; every
second, let computer players play the words their plans have reached, and keep every arena
someone is in on its schedule (games.arena.services.arenas_tick).

Rounds normally end by a timer in a process holding the room's sockets; the sweep catches
every round whose timer died with its process (or never ran: no process was up at the end).
It runs in a thread of each daphne worker, started by the worker's first connection (daphne
has no start-up hook: SweepOnFirstConnection wraps the ASGI application), and in production
also as a process of its own, `manage.py sweep`, which sweeps whether or not any client
connects: after an outage, every overdue round ends as soon as it is back (docs/operations.md).
Sweeps in several processes are safe: ending a round is one idempotent transition.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from games.arena.selectors import arena_next_due
from games.arena.services import arenas_end_due, arenas_tick
from games.bots.services import bots_play
from games.realtime.runner import service_run_sync
from games.rooms.services import rooms_tidy
from games.rounds.services import rounds_end_due
from games.rules import clock
from games.spectators.services import spectators_tidy

log = logging.getLogger(__name__)
_started = threading.Event()


def sweep_once() -> int:
    """End every overdue round and tidy rooms; return how many rounds this sweep ended."""
    now = clock.now()
    ended = rounds_end_due(now=now)
    rooms_tidy(now=now)
    spectators_tidy(now=now)
    return ended


BOT_TICK = 1.0  # seconds between two looks at what computer players should play
MIN_WAIT = 0.05  # seconds the loop sleeps at least (an arena round due that will not end)


def _run(interval: float) -> None:
    next_sweep = 0.0
    while True:
        started = time.monotonic()
        try:
            close_old_connections()
            # Every tick goes through the runner, even when no bot plays: it also sends the
            # word counts that were not yet due at the previous tick.
            service_run_sync(lambda: bots_play(now=clock.now()))
            service_run_sync(lambda: arenas_end_due(now=clock.now()))  # announced at once
            service_run_sync(lambda: arenas_tick(now=clock.now()))  # schedule and live top
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + interval
                ended = service_run_sync(sweep_once)
                if ended:
                    log.info("sweep ended %d overdue round(s)", ended)
        except Exception:  # a database hiccup must not stop future sweeps
            log.exception("sweep failed")
        time.sleep(_wait(time.monotonic() - started, interval, _arena_due()))


def _wait(elapsed: float, interval: float, arena_due: float) -> float:
    """Return the seconds to sleep before the next tick: ticks start BOT_TICK (or the sweep
    interval, if shorter) apart, however long the last one's work took, and no later than an
    arena round's end is due. (Sleeping a whole tick after the work, the live top, sent from
    the tick, was replaced every 1.4 s at the median under `make bench-arena`.)"""
    return max(MIN_WAIT, min(min(interval, BOT_TICK) - elapsed, arena_due))


def _arena_due() -> float:
    """Return the seconds until an arena round is due to end (a tick's when none runs)."""
    try:
        due = service_run_sync(lambda: arena_next_due(clock.now()))
    except Exception:
        log.exception("reading the arenas' next end failed")
        return BOT_TICK
    return BOT_TICK if due is None else due + MIN_WAIT


def sweeper_start() -> bool:
    """Start this process's sweep thread once; return whether this call started it."""
    interval = float(settings.BOGGLE_SWEEP_INTERVAL)
    if interval <= 0 or _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_run, args=(interval,), name="boggle-sweep", daemon=True).start()
    return True


def sweep_forever(interval: float) -> None:
    """Sweep in this thread until the process is stopped (`manage.py sweep`)."""
    _started.set()  # nothing else in this process starts another
    _run(interval)


Scope = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]


class SweepOnFirstConnection:
    """ASGI wrapper that starts the sweep when the server hands the process its first
    connection (daphne has no start-up hook), then passes everything through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if not _started.is_set():
            sweeper_start()
        await self.app(scope, receive, send)
