"""The page's own modules, run in Chromium: path finding and the clock arithmetic."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def run(page: Any, module: str, body: str) -> Any:
    """Import a module of static/js on a page of the site and return what body computes."""
    page.goto("/")
    return page.evaluate(f"async () => {{ const m = await import('/static/js/{module}'); {body} }}")


def test_typed_letters_find_a_path_with_qu_as_one_die(open_page: Any) -> None:
    page = open_page()
    found = run(
        page,
        "paths.js",
        """
        const board = m.boardModel({rows: 2, cols: 3, faces: ["QU", "E", "", "N", "E", "S"]});
        return [m.findPath(board, "QUEEN"), m.findPath(board, "Q"), m.findPath(board, "QUE"),
                m.findPath(board, "QUIZ"), m.findPath(board, "NS")];
        """,
    )
    assert found == [[0, 1, 4, 3], [0], [0, 1], None, None]


def test_rook_adjacency_has_no_diagonals_and_blanks_are_never_used(open_page: Any) -> None:
    page = open_page()
    found = run(
        page,
        "paths.js",
        """
        const king = m.boardModel({rows: 2, cols: 2, faces: ["A", "B", "C", "D"]});
        const rook = m.boardModel({rows: 2, cols: 2, faces: ["A", "B", "C", "D"]}, "rook");
        const blank = m.boardModel({rows: 1, cols: 3, faces: ["A", "", "B"]});
        return [m.findPath(king, "AD"), m.findPath(rook, "AD"), m.findPath(rook, "ABDC"),
                m.findPath(blank, "AB"), m.adjacent(0, 3, 2, "rook"), m.adjacent(0, 3, 2, "king")];
        """,
    )
    assert found == [[0, 3], None, [0, 1, 3, 2], None, False, True]


def test_a_path_through_a_chosen_die_is_found_when_one_exists(open_page: Any) -> None:
    page = open_page()
    found = run(
        page,
        "paths.js",
        """
        const board = m.boardModel({rows: 2, cols: 3, faces: ["T", "E", "A", "A", "E", "T"]});
        return [m.findPath(board, "TEA"), m.findPath(board, "TEA", {through: 4}),
                m.findPath(board, "TEA", {through: 2}), m.findPath(board, "TE", {through: 3})];
        """,
    )
    first, through_four, through_two, impossible = found
    assert first is not None
    assert 4 in through_four
    assert 2 in through_two
    assert impossible is None


def test_a_hopeless_search_gives_up_instead_of_hanging(open_page: Any) -> None:
    page = open_page()
    found = run(
        page,
        "paths.js",
        """
        const board = m.boardModel({rows: 10, cols: 10, faces: Array(100).fill("E")});
        const started = performance.now();
        const path = m.findPath(board, "E".repeat(40) + "X");
        return [path, performance.now() - started < 500];
        """,
    )
    assert found == [None, True]


def test_the_countdown_reads_minutes_and_seconds_rounded_up(open_page: Any) -> None:
    page = open_page()
    shown = run(
        page,
        "clock.js",
        "return [180000, 179001, 10000, 9999, 1, 0, -500].map(m.formatRemaining);",
    )
    assert shown == ["3:00", "3:00", "0:10", "0:10", "0:01", "0:00", "0:00"]


def test_the_server_clock_trusts_the_least_delayed_frame(open_page: Any) -> None:
    page = open_page()
    offset = run(
        page,
        "clock.js",
        """
        const clock = new m.ServerClock();
        const now = Date.now();
        clock.sample(now + 5000 - 300);  // a frame that took 300 ms
        clock.sample(now + 5000 - 20);   // one that took 20 ms
        clock.sample(undefined);         // frames without a time change nothing
        return Math.round((clock.offset - 5000) / 100);
        """,
    )
    assert offset == 0
