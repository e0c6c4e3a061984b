"""Real processes for the resilience suite: daphne workers on the test's PostgreSQL database and
a private Redis of their own (never the machine's shared one, so killing it harms nothing).

The workers run as docs/operations.md says (DEBUG off, static files collected, the default
3-second sweep): what the tests measure is what a deployment gets.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings as django_settings
from django.db import connection

from boggle_site.ops.cluster import (
    ROOT,
    RedisServer,
    Sweeper,
    Worker,
    free_port,
    redis_server_path,
)
from games.models import Player, Room, Round
from games.rounds import services as rounds
from games.rules import clock
from tests.conftest import require_service
from tests.fixed_dice import words_needed
from tests.games.conftest import game_data, make_room, seat  # noqa: F401 (game_data: a fixture)
from tests.resilience.client import GameClient

T = TypeVar("T")


def probe_redis_server() -> str | None:
    """Check that this machine can start a Redis of its own."""
    return None if redis_server_path() else "redis-server is not installed"


def database_url() -> str:
    """Return the URL of the test database this process uses (after pytest-django set it up)."""
    db = connection.settings_dict
    user, password = db["USER"] or "", db["PASSWORD"] or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return f"postgres://{auth}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="package")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Static files collected once, as a deployment does (workers run with DEBUG off)."""
    root = tmp_path_factory.mktemp("static")
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "collectstatic", "STATIC_ROOT": str(root)}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return root


@dataclass
class Cluster:
    """Workers and their Redis; every process is stopped when the test ends."""

    redis: RedisServer
    workers: list[Worker]
    logs: Path
    extra: list[Worker] = field(default_factory=list)
    sweeper: Sweeper | None = None  # `manage.py sweep`, as production runs it

    @property
    def ports(self) -> list[int]:
        return [worker.port for worker in self.workers]

    def start(self) -> None:
        """Start Redis and every worker, in parallel, and wait until all listen."""
        if not self.redis.alive:
            self.redis.start()
        for worker in self.workers:
            worker.start(wait=False)
        if self.sweeper is not None:
            self.sweeper.start()
        for worker in self.workers:
            worker.wait_ready()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        if self.sweeper is not None:
            self.sweeper.stop()
        self.redis.stop()

    def logs_text(self) -> str:
        """Return every worker's log (for assertion messages)."""
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}"
            for path in sorted(self.logs.glob("*.log"))
        )


def _cluster(
    tmp_path: Path,
    static_root: Path,
    workers: int,
    env: dict[str, str] | None = None,
    sweeper: bool = False,
) -> Cluster:
    require_service("redis-server", probe_redis_server)
    logs = tmp_path / "logs"
    redis = RedisServer(port=free_port(), log_path=logs / "redis.log")
    worker_env = {
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis.url,
        "DEBUG": "false",
        "HTTPS": "false",  # plain http on 127.0.0.1; everything else as in production
        "SECRET_KEY": django_settings.SECRET_KEY,  # cookies signed here are valid there
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": str(static_root),
        "BOGGLE_SWEEP_INTERVAL": "3",  # the default, stated: tests must not pass on a faster one
        "LOG_LEVEL": "INFO",
        **(env or {}),
    }
    ports = [free_port() for _ in range(workers)]
    cluster = Cluster(
        redis=redis,
        workers=[
            Worker(port=port, log_path=logs / f"worker-{n}.log", env=worker_env)
            for n, port in enumerate(ports)
        ],
        logs=logs,
        sweeper=Sweeper(port=0, log_path=logs / "sweep.log", env=worker_env) if sweeper else None,
    )
    cluster.start()
    return cluster


@pytest.fixture(params=[False], ids=["workers"])
def cluster(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    static_root: Path,
    transactional_db: None,
    game_data: Any,  # noqa: F811 (the fixture imported above)
) -> Iterator[Cluster]:
    """Two fresh workers and a fresh Redis (and, parametrized True, a sweep process of its
    own, as in production). Each test has its own: workers that outlived a test would race
    the flush of the test database (a deadlock), and fault tests kill them."""
    made = _cluster(tmp_path, static_root, workers=2, sweeper=request.param)
    try:
        yield made
    finally:
        made.stop()


# Rooms, rounds and clients ---------------------------------------------------------------


@dataclass
class Table:
    """A room with seated players and a running round, as the test set it up."""

    room: Room
    host: Player
    keys: list[str]  # identity cookies, the host's first
    players: list[Player]
    round: Round
    ends_at: float  # time.time() at which the round ends

    @property
    def words(self) -> list[str]:
        return [word for word, _, _ in self.round.solution]


# 6×6 boards of English letter frequencies: fifty words or so with the test's small list.
BIG_BOARD = {"preset": "custom", "dice": "english-letters", "rows": 6, "cols": 6, "min_length": 3}
# The board every table is drawn from: 59 words with the test's list, four for each of the
# most players a test seats (eight) with room to spare; table_make checks it.
BIG_BOARD_SEED = 6


def table_make(players: int, *, ends_in: float, starts_in: float = -1.0) -> Table:
    """Seat `players` browsers in a new room and start a round ending in `ends_in` seconds
    (rounds last 30 s at least; tests move the clock in the database, which workers read)."""
    room, host, host_key = make_room(BIG_BOARD, nickname="host")
    seated = [seat(room, f"p{n}") for n in range(1, players)]
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=BIG_BOARD_SEED)
    words_needed(rnd.solution, 4 * players, rnd.board)
    now = clock.now()
    rnd.starts_at, rnd.ends_at = (
        now + timedelta(seconds=starts_in),
        now + timedelta(seconds=ends_in),
    )
    rnd.save(update_fields=["starts_at", "ends_at"])
    assert rnd.ends_at is not None
    return Table(
        room=room,
        host=host,
        keys=[host_key] + [key for _, key in seated],
        players=[host] + [player for player, _ in seated],
        round=rnd,
        ends_at=rnd.ends_at.timestamp(),
    )


def clients_for(table: Table, ports: list[int], prefix: str = "c") -> list[GameClient]:
    """Return a client per seat, spread over the workers in turn (each prefers its own and
    fails over to the next)."""
    return [
        GameClient(
            name=f"{prefix}{n}",
            code=table.room.code,
            cookie=key,
            ports=ports[n % len(ports) :] + ports[: n % len(ports)],
        )
        for n, key in enumerate(table.keys)
    ]


def run(coroutine: Any) -> Any:
    """Run a scenario on a fresh event loop (the tests are synchronous: they reach the
    database directly between the scenario's steps)."""
    return asyncio.run(coroutine)


def wait_for(condition: Callable[[], T], timeout: float, step: float = 0.05) -> T:
    """Poll until condition() is truthy; return it."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print what the resilience tests measured, and keep it in var/."""
    from tests.resilience import figures

    if figures.measured:
        terminalreporter.section("resilience figures")
        for line in figures.lines():
            terminalreporter.write_line(line)
        figures.save()
