"""Three triggers ending the same round at once: one results row, one broadcast."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import close_old_connections, connection

from games.models import Player, Round
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.kinds import room_kind
from games.rules import clock
from tests.resilience import figures
from tests.resilience.client import until
from tests.resilience.conftest import Cluster, Table, clients_for, run, table_make

pytestmark = [pytest.mark.resilience, pytest.mark.django_db(transaction=True)]

REPEATS = 10


def _at_once(*actions: Any) -> list[Any]:
    """Run the actions in threads released together; return their results in order."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run_one(n: int) -> None:
        try:
            barrier.wait()
            results[n] = actions[n]()
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run_one, args=(n,)) for n in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def _race(table: Table, rnd: Round, player: Player) -> list[Any]:
    """A socket's timer, a sweep and a late word, all at the same instant."""
    now = clock.now()
    return _at_once(
        lambda: rounds.round_end(round_id=rnd.id, now=now),
        lambda: rounds.rounds_end_due(now=now),
        lambda: submissions.submission_create(
            player_id=player.id, room_id=table.room.id, client_id="late", word=table.words[1],
            path=None, now=now,
        ),
    )  # fmt: skip


@pytest.mark.postgres
def test_timer_sweep_and_late_word_racing_end_the_round_once(game_data: Any) -> None:
    enders = []
    for _ in range(REPEATS):
        table = table_make(2, ends_in=-1)  # due (grace included) the moment the race starts
        rnd, player = table.round, table.players[1]
        Round.objects.filter(pk=rnd.pk).update(ends_at=clock.now() - timedelta(seconds=1))
        # Words found in time (stored directly: the race is about the end).
        rnd.submissions.create(player=player, word=table.words[0], path=[], points=1, client_id="a")
        timer, sweep, word = _race(table, rnd, player)
        enders.append(int(timer) + sweep)
        assert word["accepted"] is False and word["reason"] == "round_not_running"
        rnd.refresh_from_db()
        assert rnd.status == Round.FINISHED and rnd.results is not None
        assert table.room.events.filter(type="round_ended").count() == 1
        scored = {row["id"]: row["score"] for row in rnd.results["players"]}
        totals = dict(Player.objects.filter(room=table.room).values_list("id", "total_score"))
        assert totals == scored  # added to the game totals once
    # The late word ended it too when it won the race (its round_end result is not returned).
    assert all(n <= 1 for n in enders)


@pytest.mark.postgres
@pytest.mark.redis
def test_every_trigger_in_two_workers_gives_one_broadcast(cluster: Cluster) -> None:
    table = table_make(4, ends_in=3)
    clients = clients_for(table, cluster.ports)

    async def scenario() -> None:
        for client in clients:
            client.start()
        await asyncio.gather(*(client.wait_online() for client in clients))
        # Each worker holds two sockets, so two timers per worker fire at ends_at + grace;
        # both sweeps may look too; and every client says its clock hit zero, then sends a
        # late word, at that same moment.
        await asyncio.sleep(max(0.0, table.ends_at + clock.GRACE.total_seconds() - time.time()))
        await asyncio.gather(
            *(c.send({"type": "clock_zero", "round": 1}) for c in clients),
            *(c.submit(table.words[n]) for n, c in enumerate(clients)),
        )
        await until(lambda: all(1 in c.results for c in clients), 5)
        await until(lambda: not any(c.pending for c in clients), 5)
        await asyncio.sleep(1)  # any second broadcast would arrive by now
        for client in clients:
            await client.stop()

    run(scenario())
    assert table.room.events.filter(type="round_ended").count() == 1
    assert [c.round_ended_frames for c in clients] == [1] * len(clients)
    rnd = Round.objects.get(pk=table.round.pk)
    seen = room_kind(rnd.room).results_seen(rnd, None)  # as every player reads them
    assert all(c.results[1] == seen for c in clients)
    for client in clients:  # the late words: refused, so no results differ from the stored
        assert all(not a.accepted for a in client.answers.values())
    assert rnd.finished_at is not None
    figures.record(
        "three_triggers",
        round_ended_events=1,
        broadcasts_per_client=1,
        round_end_after_ends_at_s=rnd.finished_at.timestamp() - table.ends_at,
    )
