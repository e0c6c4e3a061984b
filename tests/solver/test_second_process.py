"""A word added in one process reaches a running worker process within seconds, no restart.

Two real processes share a database (SQLite in a file) and the compiled-dictionary store,
as daphne workers on one host do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.dictionaries.tries import RECHECK_SECONDS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

SETUP = """
from solver.engine.wordlist import parse_word_list
from solver.dictionaries.services import dictionary_create
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
dictionary_create(name="Tiny", slug="tiny", word_list=parse_word_list("cat dog"), alphabet=alphabet)
"""
# A worker holds the row it read at start-up (as a room does) and keeps asking for its trie.
WORKER = """
import time
from solver.models import Dictionary
from solver.dictionaries.selectors import dictionary_trie
row = Dictionary.objects.get(slug="tiny")
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    found = "ZEBRA" in dictionary_trie(row)
    print(f"{time.monotonic():.3f} {found}", flush=True)
    if found:
        break
    time.sleep(0.1)
"""
ADMIN = """
from solver.models import Dictionary
from solver.dictionaries.services import dictionary_word_add
dictionary_word_add(dictionary=Dictionary.objects.get(slug="tiny"), word="zebra")
"""


def shell(env: dict[str, str], code: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
    )


def test_a_running_worker_sees_an_added_word_within_seconds(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
        "BOGGLE_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONWARNINGS": "ignore",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    shell(env, SETUP)
    with subprocess.Popen(  # leaving the block closes the pipe and reaps the worker
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", WORKER],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    ) as worker:
        try:
            assert worker.stdout is not None
            first = worker.stdout.readline().split()
            assert first[1] == "False", "the worker sees the list before the change"
            shell(env, ADMIN)
            changed_at = time.monotonic()
            lines = [line.split() for line in worker.stdout]
            assert worker.wait(timeout=30) == 0
        finally:
            worker.kill()
    seen_at = float(lines[-1][0])
    assert lines[-1][1] == "True", "the worker never saw the added word"
    # time.monotonic() is one clock for every process on the host.
    assert seen_at - changed_at < RECHECK_SECONDS + 1.5
