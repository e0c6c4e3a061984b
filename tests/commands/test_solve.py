"""`manage.py solve`: the seed-000 client's output, options, and clear errors for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands.conftest import DATA, manage

ALGS4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")


def test_prints_sorted_words_then_the_score(cache: Path) -> None:
    result = manage(
        "solve", str(DATA / "boards" / "board-q.txt"), "--dictionary", ALGS4, cache=cache
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "Score = 84"
    words = lines[:-1]
    assert words == sorted(words) and len(words) == 29
    assert "QUESTIONS" in words and "EQUATION" in words


def test_default_dictionary_is_yawl_and_rows_are_accepted(cache: Path) -> None:
    result = manage("solve", str(DATA / "boards" / "board-points1000.txt"), cache=cache)
    assert result.stdout.splitlines()[-1] == "Score = 1000"
    by_rows = manage("solve", "TSME/NOSN/ERET/APLA", "--dictionary", "yawl", cache=cache)
    assert by_rows.stdout == result.stdout


def test_rule_options_change_the_answer(cache: Path) -> None:
    board = str(DATA / "boards" / "board4x4.txt")
    base = manage("solve", board, "--dictionary", ALGS4, cache=cache).stdout.splitlines()
    longer = manage("solve", board, "--dictionary", ALGS4, "--min-length", "4", cache=cache)
    assert all(len(w) >= 4 for w in longer.stdout.splitlines()[:-1])
    assert len(longer.stdout.splitlines()) < len(base)
    linear = manage("solve", board, "--dictionary", ALGS4, "--scoring", "linear", cache=cache)
    assert linear.stdout.splitlines()[-1] != base[-1]
    rook = manage("solve", board, "--dictionary", ALGS4, "--adjacency", "rook", cache=cache)
    assert len(rook.stdout.splitlines()) < len(base)


def test_enable2k_is_shipped_too(cache: Path) -> None:
    result = manage("solve", "ATEE/APYO/TINU/EDSE", "--dictionary", "enable2k", cache=cache)
    assert result.returncode == 0 and result.stdout.splitlines()[-1].startswith("Score = ")


def test_skipped_dictionary_words_are_reported(tmp_path: Path, cache: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("tape don't pity\n")
    result = manage("solve", "ATEE/APYO/TINU/EDSE", "--dictionary", str(words), cache=cache)
    assert result.stdout.splitlines() == ["TAPE", "Score = 1"]
    assert "skipped 1 word(s)" in result.stderr and "DON'T" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("4 4\nA B C\n", "short.txt: a 4×4 board needs 16 faces, found 3"),
        ("2 2\nA B\nC 9\n", "short.txt:3: unknown face '9'"),
        ("-2 2\nA B\n", "short.txt:1: size -2 must be at least 1"),
        ("A B C D\n", "short.txt:1: size 'A' is not a whole number"),
        ("", "short.txt: expected the row and column counts"),
        ("3\n", "short.txt: expected the row and column counts"),
    ],
)
def test_malformed_board_files(tmp_path: Path, cache: Path, content: str, message: str) -> None:
    board = tmp_path / "short.txt"
    board.write_text(content)
    result = manage("solve", str(board), "--dictionary", ALGS4, cache=cache)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-board.txt"], "missing-board.txt: no such board file"),
        (["ABC/AB"], "row 2 has 2 faces, expected 3"),
        (["AB/CD", "--dictionary", "klingon"], "unknown dictionary 'klingon'"),
        (["AB/CD", "--scoring", "double"], "invalid choice: 'double'"),
        (["AB/CD", "--adjacency", "queen"], "invalid choice: 'queen'"),
        (["AB/CD", "--min-length", "0"], "0 must be at least 1"),
        (["AB/CD", "--min-length", "three"], "'three' is not a whole number"),
    ],
)
def test_bad_arguments(cache: Path, args: list[str], message: str) -> None:
    result = manage("solve", *args, cache=cache)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no words found"),
        (b"\xff\xfe\x00c\x00a", "not UTF-8"),
        (b"1234 5678\n", "no usable words (skipped 2 word(s) with characters that are not"),
    ],
)
def test_unusable_dictionaries(tmp_path: Path, cache: Path, content: bytes, message: str) -> None:
    words = tmp_path / "bad.txt"
    words.write_bytes(content)
    result = manage("solve", "AB/CD", "--dictionary", str(words), cache=cache)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_unreadable_dictionary(tmp_path: Path, cache: Path) -> None:
    folder = tmp_path / "a-folder.txt"
    folder.mkdir()
    result = manage("solve", "AB/CD", "--dictionary", str(folder), cache=cache)
    assert result.returncode == 2 and "Traceback" not in result.stderr
