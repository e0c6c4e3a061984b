"""Clients whose own clocks are five minutes off: the server's clock is the only one that
counts, and every frame carries it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from games.models import Round
from games.rules import clock
from tests.resilience import figures
from tests.resilience.client import GameClient, until
from tests.resilience.conftest import Cluster, run, table_make

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

SKEW = 300.0  # seconds
TOLERANCE = 0.25  # seconds of error allowed in the remaining time a client computes


def test_clients_five_minutes_off_see_the_right_time_and_cannot_play_late(
    cluster: Cluster,
) -> None:
    table = table_make(2, ends_in=5)
    behind, ahead = (
        GameClient(
            f"skew{n}", table.room.code, key, cluster.ports[n:] + cluster.ports[:n], clock_skew=skew
        )  # fmt: skip
        for n, (key, skew) in enumerate(zip(table.keys, (-SKEW, SKEW), strict=True))
    )
    clients = [behind, ahead]
    ends_at_ms = int(table.ends_at * 1000)

    async def scenario() -> dict[str, Any]:
        for client in clients:
            client.start()
        await asyncio.gather(*(client.wait_online() for client in clients))
        for _ in range(3):  # a few frames to estimate the offset from, as pages do
            for client in clients:
                await client.send({"type": "ping"})
            await asyncio.sleep(0.1)
        seen = {}
        for client in clients:
            truth = table.ends_at - time.time()
            seen[client.name] = {
                "computed": client.remaining(ends_at_ms),
                "truth": truth,
                "naive": table.ends_at - client.own_clock(),  # trusting its own clock
            }
        in_time = [await c.submit(table.words[n]) for n, c in enumerate(clients)]
        # The client ahead thinks the round ended five minutes ago: its "clock hit zero"
        # must not end the round early.
        await ahead.send({"type": "clock_zero", "round": 1})
        await asyncio.sleep(0.5)
        early_status = await asyncio.to_thread(_status, table.round.pk)
        # The client behind thinks five minutes remain after the end: its word is refused.
        await asyncio.sleep(max(0.0, table.ends_at + clock.GRACE.total_seconds() - time.time()))
        await asyncio.sleep(0.1)
        late = await behind.submit(table.words[2])
        await until(lambda: not any(c.pending for c in clients), 5)
        await until(lambda: all(1 in c.results for c in clients), 5)
        for client in clients:
            await client.stop()
        return {"seen": seen, "in_time": in_time, "late": late, "early_status": early_status}

    outcome = run(scenario())
    for name, seen in outcome["seen"].items():
        assert abs(seen["computed"] - seen["truth"]) <= TOLERANCE, (name, seen)
        assert abs(abs(seen["naive"] - seen["truth"]) - SKEW) <= 1  # the skew was real
    assert outcome["early_status"] == Round.RUNNING
    for client, client_id in zip(clients, outcome["in_time"], strict=True):
        assert client.answers[client_id].accepted
    assert behind.answers[outcome["late"]].reason == "round_not_running"
    assert behind.own_clock() < table.ends_at  # by its own clock, the round was still on
    for client in clients:
        assert client.frames > 5 and client.frames_without_server_time == 0
    rnd = Round.objects.get(pk=table.round.pk)
    words = {w["word"] for row in rnd.results["players"] for w in row["words"]}
    assert words == {table.words[0], table.words[1]}
    figures.record(
        "clock_skew",
        skew_s=SKEW,
        remaining_time_error_ms=max(
            abs(s["computed"] - s["truth"]) * 1000 for s in outcome["seen"].values()
        ),
        frames_checked_for_server_time=sum(c.frames for c in clients),
    )


def _status(round_id: int) -> str:
    return Round.objects.values_list("status", flat=True).get(pk=round_id)
