"""`manage.py bench_boards` prints its figures and a JSON last line (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.commands.conftest import DATA, manage

ALGS4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")


def test_the_lowest_board_and_the_targets_are_printed_and_verified(cache: Path) -> None:
    result = manage(
        "bench_boards",
        *("--only", "min,targets", "--yawl", ALGS4, "--min-seconds", "20"),
        *("--max-seconds", "1", "--jobs", "1"),
        cache=cache,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.splitlines()[-1])
    assert figures["min"]["score"] == 0  # algs4 is small: a wordless new16 roll exists
    assert set(figures["targets"]) == {"2500", "3000", "3500", "4000"}
    assert "lowest new16 / YAWL board: 0 points" in result.stdout


def test_an_unknown_section_is_refused(cache: Path) -> None:
    result = manage("bench_boards", "--only", "free4,free9", cache=cache)
    assert result.returncode == 2 and "unknown section free9" in result.stderr
