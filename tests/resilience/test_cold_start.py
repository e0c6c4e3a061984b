"""Every worker and the sweep stopped for twice a round's length, then started again as a
deploy or a reboot does: one worker and the sweep process."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

import pytest

from games.models import Player, Round
from tests.resilience import figures
from tests.resilience.client import MAX_DELAY, WAIT_SLACK, until
from tests.resilience.conftest import Cluster, clients_for, run, table_make, wait_for

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

ROUND = 4.0  # seconds: the rounds' length here
# Seconds after the worker is back by which every overdue round must be over: 2 on a quick
# host, with WAIT_SLACK's room for a slow one (the sweep process's own start, Django loaded,
# took 3 s there before its first sweep). The figure is recorded below.
WITHIN = 2.0 * WAIT_SLACK


@pytest.mark.parametrize("cluster", [True], ids=["with-sweep"], indirect=True)
def test_the_sweep_back_ends_every_overdue_round_once(cluster: Cluster) -> None:
    played = [table_make(2, ends_in=ROUND) for _ in range(2)]
    deserted = table_make(2, ends_in=ROUND)  # nobody reconnects here: only the sweep can end it
    tables = [*played, deserted]
    clients = [c for n, t in enumerate(played) for c in clients_for(t, cluster.ports, f"t{n}c")]

    async def scenario() -> dict[str, Any]:
        for client in clients:
            client.start()
        await asyncio.gather(*(client.wait_online() for client in clients))
        for n, client in enumerate(clients):
            table = played[n // 2]
            await client.submit(table.words[n % 2])
        await until(lambda: not any(c.pending for c in clients), 5)
        cluster.workers[0].kill(signal.SIGKILL)  # one dies, the other is stopped politely
        cluster.workers[1].stop()
        assert cluster.sweeper is not None
        cluster.sweeper.kill(signal.SIGKILL)
        down_at = time.time()
        for client in clients:  # asleep until the rounds are checked: no client helps
            await client.stop()
        await asyncio.sleep(2 * ROUND)
        spawned = time.time()
        await asyncio.to_thread(cluster.sweeper.start)  # it listens on no port: up at once
        await asyncio.to_thread(cluster.workers[0].start)
        ready = time.time()
        ended = []
        for table in tables:
            finished = await asyncio.to_thread(
                wait_for, lambda t=table: _finished_at(t.round.pk), ready + WITHIN - time.time()
            )
            assert finished is not None, cluster.logs_text()
            ended.append(finished)
        woken = time.time()
        for client in clients:  # they reconnect (from their last event) and get the results
            client.start()
        await until(lambda: all(1 in c.results for c in clients), MAX_DELAY)
        await until(lambda: not any(c.pending for c in clients), 5)
        for client in clients:
            await client.stop()
        return {
            "down_at": down_at, "spawned": spawned, "ready": ready, "ended": ended,
            "woken": woken,
        }  # fmt: skip

    outcome = run(scenario())
    ready, ended = outcome["ready"], outcome["ended"]
    assert outcome["spawned"] - outcome["down_at"] >= 2 * ROUND
    for table in tables:
        rnd = Round.objects.get(pk=table.round.pk)
        assert rnd.status == Round.FINISHED and rnd.results is not None
        assert rnd.finished_at is not None and rnd.finished_at.timestamp() <= ready + WITHIN
        assert table.room.events.filter(type="round_ended").count() == 1  # scored once
        for row in rnd.results["players"]:
            total = Player.objects.get(pk=row["id"]).total_score
            assert total == row["score"] == row["total"]  # counted into the total once
    for n, client in enumerate(clients):
        table = played[n // 2]
        rnd = Round.objects.get(pk=table.round.pk)
        assert client.results[1]["players"] == rnd.results["players"]
        assert client.accepted_words() == {table.words[n % 2]}
    figures.record(
        "cold_start",
        workers_down_s=outcome["spawned"] - outcome["down_at"],
        worker_start_to_listening_s=ready - outcome["spawned"],
        overdue_rounds=len(tables),
        last_round_ended_after_listening_s=max(ended) - ready,
        last_round_ended_after_spawn_s=max(ended) - outcome["spawned"],
        clients_had_results_after_reconnecting_s=max(c.round_ended_at[1] for c in clients)
        - outcome["woken"],
    )


def _finished_at(round_id: int) -> float | None:
    finished = Round.objects.get(pk=round_id).finished_at
    return None if finished is None else finished.timestamp()
