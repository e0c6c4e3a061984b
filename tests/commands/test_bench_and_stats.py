"""`manage.py bench_solver` and `board_stats` print their figures (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.commands.conftest import DATA, manage


def test_bench_ends_with_a_json_line_of_figures(cache: Path) -> None:
    result = manage(
        "bench_solver",
        *("--boards", "300", "--reference-boards", "30", "--repeats", "1"),
        *("--race-dictionaries", "yawl", "--race-boards", "200"),
        cache=cache,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.splitlines()[-1])
    for key in (
        "kernel_boards_per_s",
        "reference_boards_per_s",
        "ratio",
        "dictionary_load_s",
        "dictionary_bytes",
        "batch_overhead_us",
        "solve_call_overhead_us",
    ):
        assert figures[key] > 0
    assert figures["mismatches"] == 0
    assert "boards/s" in result.stdout and "10×10 board" in result.stdout
    # The old kernel races the new one and the batch path on 4×4 and 5×5 boards of each
    # dictionary (no boggle-zoo unless --zoo names one).
    assert [(r["dictionary"], r["dice"], r["boards"]) for r in figures["races"]] == [
        ("yawl", "new16", 200),
        ("yawl", "big25", 50),
    ]
    for race in figures["races"]:
        for key in ("old_boards_per_s", "new_boards_per_s", "ratio", "batch_boards_per_s"):
            assert race[key] > 0
        assert race["zoo_boards_per_s"] is None
    assert "kernel race" in result.stdout and "per-board cost" in result.stdout


def test_bench_can_skip_the_race(cache: Path) -> None:
    result = manage(
        "bench_solver",
        *("--boards", "50", "--reference-boards", "5", "--repeats", "1"),
        *("--race-dictionaries", ""),
        cache=cache,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.splitlines()[-1])
    assert figures["races"] == [] and figures["batch_overhead_us"] is None
    assert "kernel race" not in result.stdout


def test_bench_refuses_a_zoo_folder_without_boggle_zoo(cache: Path, tmp_path: Path) -> None:
    (tmp_path / "yawl.bin").write_bytes(b"")
    result = manage(
        "bench_solver",
        *("--boards", "50", "--reference-boards", "5", "--repeats", "1"),
        *("--race-dictionaries", "yawl", "--race-boards", "20", "--zoo", str(tmp_path)),
        cache=cache,
    )
    assert result.returncode == 1 and "cpp_boggle" in result.stderr


def test_bench_refuses_unknown_dice(cache: Path) -> None:
    result = manage("bench_solver", "--dice", "d20", cache=cache)
    assert result.returncode == 2 and "invalid choice: 'd20'" in result.stderr


def test_board_stats_agree_on_the_best_board(cache: Path) -> None:
    algs4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")
    result = manage(
        "board_stats", "--boards", "30", "--seed", "7", "--dictionary", algs4, cache=cache
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert (
        "Highest-scoring board" in out
        and "board-first search" in out
        and "lexicon-first search" in out
    )
    assert "both algorithms found the same words on all 30 boards" in out
    again = manage(
        "board_stats", "--boards", "30", "--seed", "7", "--dictionary", algs4, cache=cache
    )
    assert again.stdout.splitlines()[:7] == out.splitlines()[:7]
