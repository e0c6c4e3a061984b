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


# A countdown on a bare timer element with a clock the script sets (`now`), recording the
# phases it reports and when it asks the server to end the round; `frame()` waits a frame.
COUNTDOWN = """
        const timer = document.createElement("div");
        for (const hook of ["data-timer-text", "data-timer-bar"]) {
          const part = document.createElement("span");
          part.setAttribute(hook, "");
          timer.append(part);
        }
        let now = 0;
        const phases = [], asked = [], shown = [], warned = [];
        const countdown = new m.Countdown(timer, { now: () => now }, {
          onPhase: (phase, seconds) => phases.push(seconds ? `${phase} ${seconds}` : phase),
          onWarn: (seconds) => warned.push([seconds, now]),
          askEnd: (round) => asked.push([round, now]),
        });
        const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
"""


def test_the_countdown_reports_its_phases_and_only_asks_the_server_to_end(open_page: Any) -> None:
    page = open_page()
    seen = run(
        page,
        "clock.js",
        """
        """
        + COUNTDOWN
        + """
        const at = async (ms) => {
          now = ms;
          await frame();
          await frame();
          shown.push(`${timer.textContent}${timer.classList.contains("urgent") ? " urgent" : ""}`);
        };
        countdown.run({ number: 7, starts_at: 3000, ends_at: 33000, grace_ms: 400 });
        for (const ms of [0, 1500, 3000, 20000, 23500, 33000, 33600, 34000, 35700]) await at(ms);
        countdown.stop();
        return { phases, asked, shown };
        """,
    )
    assert seen["phases"] == ["countdown 3", "countdown 2", "playing", "overtime"]
    assert seen["shown"] == [
        "0:30", "0:30", "0:30", "0:13", "0:10 urgent", "0:00", "0:00", "0:00", "0:00",
    ]  # fmt: skip
    # Half a second after zero it asks the server, then every two seconds: it never decides.
    assert seen["asked"] == [[7, 33600], [7, 35700]]


def test_the_countdown_asks_only_after_the_grace_the_server_sends(open_page: Any) -> None:
    page = open_page()
    asked = run(
        page,
        "clock.js",
        """
        """
        + COUNTDOWN
        + """
        countdown.run({ number: 2, starts_at: 0, ends_at: 10000, grace_ms: 3000 });
        for (const ms of [10600, 12000, 13000, 13200]) {
          now = ms;
          await frame();
          await frame();
        }
        countdown.stop();
        return asked;
        """,
    )
    assert asked == [[2, 13200]]  # not at 10,500 ms: the round is not due before 13,000


def test_the_time_left_is_spoken_in_words(open_page: Any) -> None:
    page = open_page()
    spoken = run(
        page,
        "clock.js",
        "return [60000, 30000, 10000, 1000, 65000, 120000, 59001, 0].map(m.spokenRemaining);",
    )
    assert spoken == [
        "1 minute", "30 seconds", "10 seconds", "1 second", "1 minute 5 seconds", "2 minutes",
        "1 minute", "0 seconds",
    ]  # fmt: skip


def test_each_warning_is_given_once_when_the_time_left_passes_it(open_page: Any) -> None:
    page = open_page()
    warned = run(
        page,
        "clock.js",
        """
        """
        + COUNTDOWN
        + """
        const at = async (ms) => {
          now = ms;
          await frame();
          await frame();
        };
        // A 60-second round: no warning at its start, though a minute is left then.
        const round = { number: 4, starts_at: 0, ends_at: 60000, grace_ms: 0 };
        countdown.run(round);
        for (const ms of [0, 10000, 29000, 31000, 40000]) await at(ms);
        // A snapshot after a reconnect runs the same round again: nothing is said twice,
        // not even when the page's clock is corrected backwards and passes it again.
        countdown.run({ ...round });
        for (const ms of [25000, 32000, 52000, 55000]) await at(ms);
        // The next round watches afresh; a page that slept past two warnings gives the last.
        countdown.run({ number: 5, starts_at: 100000, ends_at: 190000, grace_ms: 0 });
        for (const ms of [100000, 165000, 185000]) await at(ms);
        countdown.stop();
        return warned;
        """,
    )
    assert warned == [[30, 31000], [10, 52000], [30, 165000], [10, 185000]]
