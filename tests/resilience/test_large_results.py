"""Results far larger than a websocket frame, under the production flag: a real daphne worker
runs with --websocket-max-message-size 65536 (boggle_site/ops/cluster.py, as
docs/operations.md says).

Before the results went over HTTP, round_ended carried them whole: daphne closed every
socket of the room with 1011, and every reconnect's snapshot again, so the room was broken
for good. Now the socket announces them, every client fetches them (gzip) and the host
starts the next round.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.models import Player, Round, Submission
from games.rounds import services as rounds
from games.rounds.kinds import room_kind
from games.rules import clock
from tests.games.conftest import make_room, reschedule, seat
from tests.resilience import figures
from tests.resilience.client import GameClient, until
from tests.resilience.conftest import Cluster, _cluster, run

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = 50
UNTIMED = 0  # the host ends the round: nothing here waits for a clock
# Seeded boards, never left to luck: with the test's 6,013-word list, these give results of
# about 420 KB (10×10) and 118 KB (Super Big 6×6), far over a frame (the test checks).
TEN_BY_TEN = ({"preset": "custom", "dice": "english-letters", "rows": 10, "cols": 10}, 6)
SUPER_BIG = ({"preset": "superbig"}, 4)


@pytest.fixture
def one_worker(
    tmp_path: Path, static_root: Path, transactional_db: None, game_data: Any
) -> Iterator[Cluster]:
    """One production worker (and its own Redis): the frame limit is the point, not failover."""
    made = _cluster(tmp_path, static_root, workers=1)
    try:
        yield made
    finally:
        made.stop()


def _room_with_words(room_settings: dict[str, Any], seed: int) -> tuple[list[str], Round]:
    """Seat PLAYERS browsers, start a seeded round and give each player three words in four
    of the board's (a deterministic share: most words are found by several players)."""
    room, host, host_key = make_room({**room_settings, "duration": UNTIMED}, nickname="host")
    seated = [seat(room, f"p{n}") for n in range(1, PLAYERS)]
    players: list[Player] = [host, *(player for player, _ in seated)]
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=seed)
    reschedule(rnd, starts_in=-1, ends_in=None)
    Submission.objects.bulk_create(
        Submission(round=rnd, player=player, word=word, path=path, points=points, client_id=f"w{j}")
        for i, player in enumerate(players)
        for j, (word, path, points) in enumerate(rnd.solution)
        if (i + j) % 4
    )
    return [host_key, *(key for _, key in seated)], rnd


def _play_two_rounds(cluster: Cluster, keys: list[str], rnd: Round) -> list[GameClient]:
    """Every seat connects; the host ends the round, every client fetches the results, the
    host starts the next round and every client sees it start; a browser opened after the
    round ended gets its snapshot and the results too."""
    port = cluster.ports[0]
    code = rnd.room.code
    clients = [
        GameClient(name=f"c{n}", code=code, cookie=key, ports=[port]) for n, key in enumerate(keys)
    ]
    late = GameClient(name="late", code=code, cookie=keys[1], ports=[port])

    async def scenario() -> None:
        for client in clients:
            client.start()
        await asyncio.gather(*(client.wait_online() for client in clients))
        assert await clients[0].send({"type": "end_round"})
        await until(lambda: all(rnd.number in c.results for c in clients), 60)
        late.start()  # a fresh tab: no last event, so a full snapshot of the finished round
        await until(lambda: rnd.number in late.results, 30)
        assert await clients[0].send({"type": "start_round"})
        await until(lambda: all(rnd.number + 1 in c.rounds_started for c in clients), 30)
        for client in [*clients, late]:
            await client.stop()

    run(scenario())
    return [*clients, late]


def _check(cluster: Cluster, clients: list[GameClient], rnd: Round) -> None:
    rnd.refresh_from_db()
    limit = settings.WEBSOCKET_MAX_FRAME_BYTES
    assert limit == 65536
    results_bytes = len(json.dumps(rnd.results, separators=(",", ":")))
    assert results_bytes > limit  # the defect's size: over one frame
    for client in clients:
        assert client.results[rnd.number] == room_kind(rnd.room).results_seen(rnd, None)
        assert set(client.results_encodings) == {"gzip"}, client.name
        assert len(client.connections) == 1 and 1011 not in client.closes  # never dropped
        assert not client.errors, client.errors
    assert clients[-1].snapshots and clients[-1].snapshots[0]["results_url"]
    assert Round.objects.filter(room=rnd.room, number=rnd.number + 1).exists()
    logs = cluster.logs_text()
    assert "exceeding payload limit" not in logs and "not sending" not in logs, logs
    largest = max(client.largest_frame for client in clients)
    assert largest < limit
    figures.record(
        f"large_results_{rnd.room.settings['rows']}x{rnd.room.settings['cols']}",
        results_bytes=results_bytes,
        results_gzip_bytes=max(max(c.results_wire_bytes) for c in clients),
        largest_frame_bytes=largest,
        clients=len(clients),
    )


@pytest.mark.parametrize(
    ("room_settings", "seed"), [TEN_BY_TEN, SUPER_BIG], ids=["10x10", "superbig-6x6"]
)
def test_results_larger_than_a_frame_reach_every_client_and_the_next_round_starts(
    one_worker: Cluster, room_settings: dict[str, Any], seed: int
) -> None:
    keys, rnd = _room_with_words(room_settings, seed)
    clients = _play_two_rounds(one_worker, keys, rnd)
    _check(one_worker, clients, rnd)
