"""A real game server for browser tests: daphne (HTTP and websockets) on a free port, with its
own SQLite database, so it runs the same locally and in CI (where the suite's database is
PostgreSQL). Tests read the database only to learn a round's words and to move its clock."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.fixed_dice import words_needed

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RunningRound:
    """The words and board of a round, as the server stored them."""

    number: int
    board: str
    rows: int
    cols: int
    solution: list[tuple[str, list[int], int]]

    def words_needed(self, needed: int) -> None:
        """Fail loudly, naming the board, unless it holds at least `needed` words."""
        words_needed(self.solution, needed, self.board)

    def word(
        self, *, length: int | None = None, avoid: tuple[str, ...] = ()
    ) -> tuple[str, list[int]]:
        """Return a word of the solution (of a given length if asked) and its path."""
        for word, path, _ in sorted(self.solution, key=lambda w: (-len(w[1]), w[0])):
            if word not in avoid and (length is None or len(path) == length):
                return word, path
        raise LookupError(f"no word of {length} dice on {self.board}")


class GameServer:
    """daphne serving the project against a fresh SQLite file in `directory`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.database = directory / "db.sqlite3"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = directory / "daphne.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.database}",
            "BOGGLE_CACHE_DIR": str(directory / "cache"),
            "BOGGLE_SWEEP_INTERVAL": "1",
            "DEBUG": "true",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "REDIS_URL": "",  # one process: the in-memory channel layer
            "DAILY_SECRET": "browser tests",  # a fixed daily board for each day
            # A second between the start and the board, not three: the suite starts ~50 rounds.
            "BOGGLE_COUNTDOWN_SECONDS": "1",
        }

    def manage(self, *args: str) -> None:
        """Run a management command against this server's database."""
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def prepare(self, *, fixed_dice: bool = False) -> GameServer:
        """Create the database with the shipped data (and the fixed test dice if asked), in
        one management process: what every server of the suite starts from."""
        steps = [
            "from django.core.management import call_command",
            "call_command('migrate', interactive=False, verbosity=0)",
            "call_command('load_dictionaries', verbosity=0)",
        ]
        if fixed_dice:  # a row of data, as an admin would add it: no test hook in the server
            steps.append("from tests.fixed_dice import fixed_dice_create; fixed_dice_create()")
        self.manage("shell", "-c", "; ".join(steps))
        return self

    def copy_from(self, prepared: GameServer) -> GameServer:
        """Start from a copy of a prepared server's database and compiled lists."""
        shutil.copyfile(prepared.database, self.database)
        cache = prepared.directory / "cache"
        if cache.exists():
            shutil.copytree(cache, self.directory / "cache")
        return self

    def start(self, *, fixed_dice: bool = False, prepared: bool = False) -> GameServer:
        """Start daphne on this server's database (prepared first unless `prepared` says it
        already is) and wait until it answers."""
        if not prepared:
            self.prepare(fixed_dice=fixed_dice)
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        with self.log.open("w") as log:  # daphne writes to its own copy of the file
            self.process = subprocess.Popen(
                [*command, "boggle_site.asgi:application"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"daphne did not start: {self.log.read_text()}")

    def stop(self) -> None:
        """Stop daphne (it would wait for open sockets; tests need not)."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        self.process = None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.database, timeout=10) as db:
            return db.execute(sql, params).fetchall()

    def running_round(self, code: str) -> RunningRound:
        """Return the running round of the room with this code."""
        rows = self._query(
            "SELECT r.number, r.board, r.solution FROM games_round r JOIN games_room m"
            " ON r.room_id = m.id WHERE m.code = ? AND r.status = 'running'",
            (code,),
        )
        assert rows, f"room {code} has no running round"
        number, board, solution = rows[0]
        size = board.split("-", 1)[0]
        r, c = (int(n) for n in size.split("x"))
        return RunningRound(number, board, r, c, [tuple(w) for w in json.loads(solution)])

    def words_add(self, code: str, nickname: str, words: list[tuple[str, list[int]]]) -> None:
        """Record words as found by a player in the room's running round (straight into the
        database: a test of what a snapshot carries, not of submitting)."""
        (round_id, player_id), *_ = self._query(
            "SELECT r.id, p.id FROM games_round r JOIN games_room m ON r.room_id = m.id"
            " JOIN games_player p ON p.room_id = m.id"
            " WHERE m.code = ? AND r.status = 'running' AND p.nickname = ?",
            (code, nickname),
        )
        now = datetime.now(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
        with sqlite3.connect(self.database, timeout=10) as db:
            db.executemany(
                "INSERT INTO games_submission"
                " (round_id, player_id, word, path, points, client_id, created_at)"
                " VALUES (?, ?, ?, ?, 1, ?, ?)",
                [
                    (round_id, player_id, word, json.dumps(path), f"seeded-{n}", now)
                    for n, (word, path) in enumerate(words)
                ],
            )

    def end_round_in(self, code: str, seconds: float) -> None:
        """Move the running round's end to `seconds` from now (a real round lasts minutes)."""
        ends = datetime.now(UTC).replace(tzinfo=None) + timedelta(seconds=seconds)
        self._query(
            "UPDATE games_round SET ends_at = ? WHERE status = 'running'"
            " AND room_id = (SELECT id FROM games_room WHERE code = ?)",
            (ends.strftime("%Y-%m-%d %H:%M:%S.%f"), code),
        )

    def wait_for_round_status(
        self, code: str, number: int, status: str, timeout: float = 15
    ) -> None:
        """Wait until the room's round `number` has the status (as the sweeper sets it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self._query(
                "SELECT r.status FROM games_round r JOIN games_room m ON r.room_id = m.id"
                " WHERE m.code = ? AND r.number = ?",
                (code, number),
            )
            if rows and rows[0][0] == status:
                return
            time.sleep(0.1)
        raise AssertionError(f"round {number} of room {code} is not {status} after {timeout} s")
