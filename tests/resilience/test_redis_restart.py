"""Redis killed for ten seconds mid-round, then restarted empty (no groups, no messages)."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Player, Room, Round
from tests.resilience import figures
from tests.resilience.client import WAIT_SLACK, GameClient, until
from tests.resilience.conftest import Cluster, Table, clients_for, run, table_make

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

OUTAGE = 10.0
BACK_WITHIN = 15.0  # seconds after Redis returns
# A round that ends with Redis up: as late as with every process healthy (1.5 s on a quick
# host, with WAIT_SLACK's room for a slow one; the figure is recorded).
ON_TIME = 1.5 * WAIT_SLACK
SWEEP = 3.0  # BOGGLE_SWEEP_INTERVAL: with Redis down no socket lives, so the sweep ends rounds


async def play(client: GameClient, words: list[str], stop: float, rng: random.Random) -> None:
    """Submit about a word a second until `stop`, offline or not (the browser queues them)."""
    made_up = ("".join(rng.choice("QXZJ") for _ in range(5)) for _ in itertools.count())
    for word in itertools.chain(words, made_up):
        if time.time() >= stop:
            return
        await client.submit(word)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


@database_sync_to_async
def _state(room_id: int) -> tuple[int, dict[int, int]]:
    room = Room.objects.get(pk=room_id)
    return room.seq, dict(Player.objects.filter(room=room).values_list("id", "connections"))


def test_redis_restarted_empty_mid_round_loses_nothing(cluster: Cluster) -> None:
    start = time.time()
    kill_at, back_at = start + 6, start + 6 + OUTAGE
    # Two rounds end while Redis is down (sockets cannot live without it), one after.
    during = [
        table_make(2, ends_in=kill_at + 4 - start),
        table_make(2, ends_in=kill_at + 4 - start),
    ]
    after = table_make(4, ends_in=back_at + 5 - start)
    tables: list[Table] = [*during, after]

    seats = [
        (client, table, player)
        for n, table in enumerate(tables)
        for client, player in zip(
            clients_for(table, cluster.ports, f"r{n}c"), table.players, strict=True
        )
    ]
    clients = [client for client, _, _ in seats]
    by_table = {id(client): table for client, table, _ in seats}

    async def scenario() -> dict[str, Any]:
        for client in clients:
            client.start()
        await asyncio.gather(*(client.wait_online() for client in clients))
        rng = random.Random(11)
        playing = []
        for n, client in enumerate(clients):
            table = by_table[id(client)]
            own = table.words[n % len(table.keys) :: len(table.keys)]
            stop = table.ends_at - 0.3
            playing.append(
                asyncio.create_task(play(client, own, stop, random.Random(rng.random())))
            )
        await asyncio.sleep(max(0.0, kill_at - time.time()))
        acked_before = {c.name: c.accepted_words() for c in clients}
        cluster.redis.kill()
        killed = time.time()
        await until(lambda: not any(c.online.is_set() for c in clients), 5)
        await asyncio.sleep(max(0.0, killed + OUTAGE - time.time()))
        cluster.redis.start()
        returned = time.time()
        await until(lambda: all(c.rejoined and c.rejoined[-1] > returned for c in clients), 20)
        back = [c.rejoined[-1] - returned for c in clients]
        # The right state: every event caught up, every acknowledged word still there.
        for table in tables:
            seq, connections = await _state(table.room.id)
            mine = [c for c in clients if by_table[id(c)] is table]
            await until(lambda mine=mine, seq=seq: all(c.last_seq == seq for c in mine), 5)
            assert all(n == 1 for n in connections.values()), connections  # one socket each
        for client in clients:
            await client.send({"type": "resume", "last_seq": None})  # ask for a snapshot
        await until(
            lambda: all(c.snapshots[-1]["server_time"] > returned * 1000 for c in clients), 5
        )
        for client, _, player in seats:
            snapshot = client.snapshots[-1]
            if snapshot["round"]["status"] == "running":
                mine = {w["word"] for w in snapshot["round"]["my_words"]}
            else:  # the snapshot says where the results are; the client fetches them
                number = snapshot["round"]["number"]
                await until(lambda client=client, number=number: number in client.results, 10)
                players = client.results[number]["players"]
                row = next(r for r in players if r["id"] == player.id)
                mine = {w["word"] for w in row["words"]}
            assert acked_before[client.name] <= mine
        await asyncio.gather(*playing)
        await asyncio.sleep(max(0.0, after.ends_at - time.time()))
        await until(lambda: all(1 in c.results for c in clients), ON_TIME + 5)
        await until(lambda: not any(c.pending for c in clients), 10)
        for client in clients:
            await client.stop()
        return {"back": back, "killed": killed, "returned": returned}

    outcome = run(scenario())
    assert max(outcome["back"]) <= BACK_WITHIN
    lateness = []
    for table in tables:
        rnd = Round.objects.get(pk=table.round.pk)
        assert rnd.status == Round.FINISHED and rnd.finished_at is not None
        lateness.append(rnd.finished_at.timestamp() - table.ends_at)
        assert table.room.events.filter(type="round_ended").count() == 1
    assert all(late <= SWEEP + 1 for late in lateness[:2]), cluster.logs_text()
    assert lateness[2] <= ON_TIME, cluster.logs_text()
    acknowledged = 0
    for client, table, player in seats:
        rnd = Round.objects.get(pk=table.round.pk)
        results = {row["id"]: {w["word"] for w in row["words"]} for row in rnd.results["players"]}
        assert not client.pending
        assert results[player.id] == client.accepted_words(), client.name
        acknowledged += len(client.accepted_words())
    figures.record(
        "redis_restart",
        outage_s=outcome["returned"] - outcome["killed"],
        clients_back_after_redis_returned_s=[round(b, 2) for b in sorted(outcome["back"])],
        rounds_ended_in_outage_late_by_s=[round(x, 2) for x in lateness[:2]],
        round_ended_after_outage_late_by_s=lateness[2],
        acknowledged_words=acknowledged,
        words_lost=0,
    )
