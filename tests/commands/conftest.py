"""Run management commands as a user would: a separate process, its output and exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


# A database with no tables, as before `migrate`: the commands fall back to the shipped files.
UNMIGRATED = "sqlite:///:memory:"


def manage(
    *args: str, stdin: str = "", cache: Path | None = None, database: str = UNMIGRATED
) -> subprocess.CompletedProcess[str]:
    """Run `manage.py ARGS` and return what it printed and its exit status.

    The database is never the developer's own: an empty one unless a test gives its URL.
    """
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "DATABASE_URL": database}
    if cache is not None:
        env["BOGGLE_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compiled-dictionary cache shared by the command tests (so YAWL is built once)."""
    return tmp_path_factory.getbasetemp() / "command-cache"
