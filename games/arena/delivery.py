"""An arena round's results, pushed over every player's socket at time-up (docs/arena.md).

At time-up every player of an arena wants their results in the same second. Over HTTP that
was one request per player, each reading and encoding the round's shared part again (2,000
players: a median of 35 s). Here each worker, on the round_ended event, loads the finished
round once (two queries: the round, and every player's ArenaEntry as stored, words as text),
encodes its shared part once, in slices that fit a frame; each socket then sends its player's
own part (their row in the top list, rank, percentile, the words only they found:
games.arena.results.arena_results_mine, which splices in their stored words
undecoded) and those slices as they are. Nothing here writes: the round is finished
and its results never change, so a worker keeps the last few in memory.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games import protocol
from games.arena.results import EntryRow, arena_results_mine
from games.models import ArenaEntry, Round
from games.realtime.runner import service_run
from solver.caches import cache_register

KEEP = 4  # finished arena rounds a worker keeps (several arenas end close together)
_SHARED_APART = ("players", "arena", "solution")  # sent per player, or in slices


@dataclass(frozen=True)
class FinishedArenaRound:
    """One finished arena round, ready to send: its shared part encoded once, and every
    player's own entry."""

    number: int
    shared: dict[str, Any]  # the round's stored results (the top list and `arena` used here)
    head: str  # the shared part without the solution and the per-player keys, encoded
    solution: list[str]  # the solution in encoded slices (protocol.arena_results_parts)
    entries: dict[int, EntryRow]  # by player

    def frames(self, seat_id: int, server_time: int) -> list[str]:
        """Return the frames of one player's results."""
        mine = arena_results_mine(self.shared, self.entries.get(seat_id), seat_id)
        return protocol.arena_results_frames(
            self.number, mine, self.head, self.solution, server_time
        )


_kept: OrderedDict[tuple[int, int], FinishedArenaRound] = OrderedDict()
_kept_lock = threading.Lock()
_loading: dict[tuple[int, int], asyncio.Future[FinishedArenaRound | None]] = {}


def finished_arena_round_load(room_id: int, number: int) -> FinishedArenaRound | None:
    """Return a finished arena round read from the database and keep it (None: the round is
    not finished, or not an arena's)."""
    rnd = Round.objects.filter(room_id=room_id, number=number, room__is_arena=True).first()
    if rnd is None or rnd.status != Round.FINISHED or not rnd.results:
        return None
    shared: dict[str, Any] = rnd.results
    head = {k: v for k, v in shared.items() if k not in _SHARED_APART}
    finished = FinishedArenaRound(
        number=number,
        shared={k: shared[k] for k in ("players", "arena") if k in shared},
        head=protocol.encode(head),
        solution=protocol.arena_results_parts(
            shared.get("solution", []), settings.WEBSOCKET_MAX_FRAME_BYTES
        ),
        entries={
            row[0]: EntryRow(*row)
            for row in ArenaEntry.objects.filter(round=rnd).values_list(*EntryRow._fields)
        },
    )
    with _kept_lock:
        _kept[(room_id, number)] = finished
        while len(_kept) > KEEP:
            _kept.popitem(last=False)
    return finished


async def finished_arena_round(room_id: int, number: int) -> FinishedArenaRound | None:
    """Return a finished arena round, from this worker's memory or read once: the thousand
    sockets that ask at the same time-up wait for one read."""
    key = (room_id, number)
    kept = _kept.get(key)
    if kept is not None:
        return kept
    future = _loading.get(key)
    if future is None:
        future = asyncio.ensure_future(
            service_run(lambda: finished_arena_round_load(room_id, number))
        )
        _loading[key] = future
        future.add_done_callback(lambda _: _loading.pop(key, None))
    return await asyncio.shield(future)


def _finished_arena_rounds_forget() -> None:
    """Forget every kept round (tests, which reuse ids across databases)."""
    with _kept_lock:
        _kept.clear()


cache_register("finished arena rounds", _finished_arena_rounds_forget)
