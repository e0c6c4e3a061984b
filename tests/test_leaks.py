"""Nothing is left open: a leaked file fails its test, and the connections that other threads
open are closed after each test (tests/conftest.py, pyproject.toml's filterwarnings)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connections

from tests.conftest import thread_connections_close

ROOT = Path(__file__).resolve().parents[1]
LEAKY_TEST = """
import gc


def test_leaves_a_file_open():
    open(__file__)  # never closed
    gc.collect()
"""


@pytest.mark.slow
def test_a_file_left_open_fails_the_test_that_leaked_it(tmp_path: Path) -> None:
    leaky = tmp_path / "test_leaky.py"
    leaky.write_text(LEAKY_TEST)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "pyproject.toml"]
        + ["--rootdir", str(ROOT), str(leaky)],
        cwd=ROOT,
        env={**os.environ, "PYTHONTRACEMALLOC": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed" in run.stdout
    assert "ResourceWarning: unclosed file" in run.stdout
    assert "test_leaky.py" in run.stdout.split("Object allocated at")[1]  # where it was opened


@pytest.mark.django_db(transaction=True)
def test_connections_that_other_threads_opened_are_closed_after_the_test() -> None:
    opened = []

    def query() -> None:
        connection = connections["default"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        opened.append(connection)

    thread = threading.Thread(target=query)
    thread.start()
    thread.join()
    (wrapper,) = opened
    assert wrapper.connection is not None  # Django keeps it, for CONN_MAX_AGE
    assert thread_connections_close() == 1
    if not (wrapper.vendor == "sqlite" and wrapper.is_in_memory_db()):
        assert wrapper.connection is None  # (Django never closes an in-memory SQLite one)
