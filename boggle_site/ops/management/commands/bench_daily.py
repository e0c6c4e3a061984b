"""`manage.py bench_daily`: the daily board's figures (docs/daily.md). Not a test: it prints."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from boggle_site.ops import daily_load
from boggle_site.ops.cluster import (
    ONE_ADDRESS_LOAD,
    Cluster,
    clients_run,
    cluster_start,
    loop_and_rest_cpu_seconds,
    tree_cpu_seconds,
)
from games.daily.rules import DAILY_GAMES, DailyGame, utc_day
from games.daily.services import daily_board_get
from games.models import PlayerIdentity, sql
from games.rules import clock
from solver import cli

T = TypeVar("T")


def _on_one_worker(identities: list[PlayerIdentity], run: Callable[[Cluster], T]) -> T:
    """Start the benchmark's daphne worker and gunicorn (a private Redis, the address limits
    lifted), call `run` with them, then stop them and delete the players' rooms, attempts and
    identities."""
    cluster = None
    try:
        cluster = cluster_start(
            1,
            log_dir=Path(settings.BASE_DIR) / "var" / "bench",
            secret_key=settings.SECRET_KEY,
            env={**ONE_ADDRESS_LOAD, "DAILY_SECRET": settings.DAILY_SECRET},
            http=True,
        )
        return run(cluster)
    finally:
        if cluster is not None:
            cluster.stop()
        daily_load.starts_clear(identities)


def _players_of(
    cluster: Cluster,
    game: DailyGame,
    day: date,
    identities: list[PlayerIdentity],
    words: list[str],
) -> dict[str, Any]:
    """Return where the players start the day's game (gunicorn) and play it (the worker), as
    whom, with what words."""
    return {
        "url": cluster.workers[0].url,
        "http_url": cluster.http_urls[0],
        "path": f"/daily/{game.slug}/{day.isoformat()}/start/",
        "cookies": daily_load.cookies_of(identities),
        "words": words,
    }


def _cpu(cluster: Cluster) -> tuple[float, float]:
    """Return the CPU time (s) the daphne worker's event loop has used, and the rest: its other
    threads (database, sweep) and gunicorn's processes (the HTTP starts)."""
    loop, rest = loop_and_rest_cpu_seconds(cluster.workers[0].pid)
    assert cluster.http is not None
    return loop, rest + tree_cpu_seconds(cluster.http.pid)


class Command(cli.DatabaseCommand):
    help = (
        "Benchmark the daily board on PostgreSQL: (1) a leaderboard of ATTEMPTS attempts: time "
        "of a leaderboard page and of a player's rank and percentile, with the query plans; "
        "(2) PLAYERS players starting today's Daily 4×4 within OVER seconds on one daphne "
        "worker, each then finding words: attempts stored, words lost, acknowledgement "
        "latency; (3) what each step of an attempt costs the worker, one player at a time. "
        "The last line is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--attempts", type=cli.positive_int, default=100_000)
        parser.add_argument("--repeats", type=cli.positive_int, default=600)
        parser.add_argument("--players", type=cli.positive_int, default=2_000)
        parser.add_argument("--over", type=float, default=60, help="seconds the starts spread over")
        parser.add_argument("--play", type=float, default=30, help="seconds each player plays")
        parser.add_argument(
            "--rate", type=float, default=1 / 6, help="words a second per player (default 1/6)"
        )
        parser.add_argument(
            "--sequential", type=cli.positive_int, default=150,
            help="players taken through an attempt one step at a time (the steps part)",
        )  # fmt: skip
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--plans", action="store_true", help="print the query plans in full")
        parser.add_argument(
            "--part",
            choices=["all", "leaderboard", "starts", "steps"],
            default="all",
            help="run every part (default) or one",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["over"] <= 0 or options["play"] <= 0 or not 0 < options["rate"] <= 5:
            raise CommandError(
                "--over and --play must be positive, --rate in (0, 5]", returncode=cli.BAD_INPUT
            )
        if not sql.on_postgresql():
            raise CommandError(
                "bench_daily measures PostgreSQL: set DATABASE_URL to a PostgreSQL database",
                returncode=cli.BAD_INPUT,
            )
        out = self.stdout.write
        report: dict[str, Any] = {}

        if options["part"] in ("all", "leaderboard"):
            report.update(self.leaderboard(options))
        if options["part"] in ("all", "steps"):
            report.update(self.steps(options))
        if options["part"] in ("all", "starts"):
            report.update(self.starts(options))
        out(json.dumps(report))

    def leaderboard(self, options: dict[str, Any]) -> dict[str, Any]:
        """Measure the leaderboard's reads over ATTEMPTS attempts; return the figures."""
        out = self.stdout.write
        started = time.perf_counter()
        board = daily_load.leaderboard_fill(options["attempts"], options["seed"])
        filled_s = time.perf_counter() - started
        try:
            figures = daily_load.leaderboard_measure(board, options["repeats"], options["seed"])
        finally:
            daily_load.leaderboard_clear()
        page, standing = (
            daily_load.summary(figures.page_ms),
            daily_load.summary(figures.standing_ms),
        )
        out(
            f"leaderboard    {options['attempts']:,} finished ranked attempts "
            f"(stored in {filled_s:.1f} s)"
        )
        out(
            f"page           first, middle and last pages of 100: median {page['median']} ms, "
            f"p99 {page['p99']} ms, max {page['max']} ms ({options['repeats']} reads)"
        )
        out(
            f"rank+percent.  a player's row, rank and percentile: median {standing['median']} ms, "
            f"p99 {standing['p99']} ms, max {standing['max']} ms"
        )
        scans = [name for name, plan in figures.plans.items() if "Seq Scan" in plan]
        scanned = daily_load.scanned_tables(figures.plans.values())
        sizes = ", ".join(
            f"{table} ({rows:,} rows in {pages:,} pages)"
            for table, (rows, pages) in scanned.items()
        )
        # PostgreSQL reads a table of a page or two whole rather than through an index: a
        # fresh database's histogram holds one board's rows. Named, so a scan of the attempts
        # (100,000 rows) would show for what it is.
        out(
            f"query plans    {len(figures.plans)} queries, sequential scans: {len(scans)}"
            + (f", of {sizes}" if sizes else "")
        )
        for name, plan in figures.plans.items():
            if options["plans"]:
                out(f"-- {name}\n{plan}\n")
        return {
            "attempts": options["attempts"], "page_ms": page, "standing_ms": standing,
            "seq_scans": len(scans),
            "seq_scanned": {table: {"rows": rows, "pages": pages}
                            for table, (rows, pages) in scanned.items()},
        }  # fmt: skip

    def steps(self, options: dict[str, Any]) -> dict[str, Any]:
        """Take SEQUENTIAL players through a daily attempt one step at a time; return what
        each step cost the worker."""
        out = self.stdout.write
        game = DAILY_GAMES["4x4"]
        today = utc_day(clock.now())
        words = daily_load.board_words(daily_board_get(game=game, day=today), game)
        identities = daily_load.players_prepare(options["sequential"])
        per_player = max(1, round(options["play"] * options["rate"]))
        costs = _on_one_worker(
            identities,
            lambda cluster: clients_run(
                daily_load.steps_run(
                    **_players_of(cluster, game, today, identities, words),
                    per_player=per_player,
                    cpu=lambda: _cpu(cluster),
                )
            ),
        )
        out(
            f"one at a time  {options['sequential']:,} players, one step of one player at a time "
            f"on one idle worker ({per_player} words each): the worker's CPU a step, event loop "
            "+ the rest, less the idle worker's"
        )
        steps = {}
        for step in daily_load.STEPS:
            loop, rest = costs.per_step_ms(step)
            steps[step] = {"loop": round(loop, 2), "rest": round(rest, 2)}
            name = daily_load.STEP_NAMES[step]
            out(f"  {name:48} {loop + rest:6.2f} ms ({loop:.2f} + {rest:.2f})")
        player = costs.player_ms(per_player)
        out(f"  {'a player, all of these':48} {player:6.1f} ms")
        return {"steps_ms": steps, "player_ms": round(player, 1)}

    def starts(self, options: dict[str, Any]) -> dict[str, Any]:
        """Start PLAYERS players on today's board on one worker; return the figures."""
        out = self.stdout.write
        game = DAILY_GAMES["4x4"]
        today = utc_day(clock.now())
        started = time.perf_counter()
        today_board = daily_board_get(game=game, day=today)
        drawn_s = time.perf_counter() - started
        words = daily_load.board_words(today_board, game)
        identities = daily_load.players_prepare(options["players"])

        def rush(cluster: Cluster) -> tuple[Any, Any, Any, Any]:
            cpu_before = _cpu(cluster)
            result = clients_run(
                daily_load.starts_run(
                    **_players_of(cluster, game, today, identities, words),
                    over_s=options["over"],
                    play_s=options["play"],
                    rate=options["rate"],
                    seed=options["seed"],
                )
            )
            cpu_after = _cpu(cluster)
            return result, cpu_before, cpu_after, daily_load.starts_stored(identities, today_board)

        result, cpu_before, cpu_after, stored = _on_one_worker(identities, rush)
        starts, acks = daily_load.summary(result.start_ms), daily_load.summary(result.ack_ms)
        out(
            f"board          today's {game.name} ({today_board.board}, {len(words)} words): "
            f"{drawn_s:.2f} s to draw or read"
        )
        out(
            f"starts         {result.players:,} players over {options['over']:.0f} s (HTTP on "
            f"gunicorn, sockets on one daphne worker): {len(result.codes):,} started, "
            f"failures {len(result.start_failures)}"
            f", start median {starts['median']} ms, p99 {starts['p99']} ms"
        )
        out(
            f"stored         {stored['attempts']:,} attempts ({stored['ranked']:,} ranked) in "
            f"{stored['rooms']:,} rooms; {stored['words']:,} words stored"
        )
        out(
            f"words          {result.sent:,} sent, {result.acked:,} answered "
            f"({result.accepted:,} accepted), lost {result.lost}, socket failures "
            f"{result.connect_failures}"
        )
        out(
            f"ack latency    median {acks['median']} ms, p99 {acks['p99']} ms, max {acks['max']} ms"
        )
        loop_ms, rest_ms = (
            (after - before) * 1000 / max(1, result.players)
            for before, after in zip(cpu_before, cpu_after, strict=True)
        )
        out(
            f"CPU            {loop_ms + rest_ms:.1f} ms a player: the worker's event loop "
            f"{loop_ms:.1f} ms, its database threads and gunicorn's HTTP {rest_ms:.1f} ms"
        )
        report = dict(
            players=result.players, started=len(result.codes),
            start_failures=len(result.start_failures), start_ms=starts,
            attempts_stored=stored["attempts"], words_stored=stored["words"], sent=result.sent,
            acked=result.acked, accepted=result.accepted, lost=result.lost,
            connect_failures=result.connect_failures, ack_ms=acks,
            worker_cpu_ms_per_player={"loop": round(loop_ms, 1), "rest": round(rest_ms, 1)},
        )  # fmt: skip
        if result.start_failures:
            out(f"first start failures: {result.start_failures[:5]}")
        if (
            result.lost
            or result.start_failures
            or result.connect_failures
            or stored["attempts"] != result.players
            or stored["words"] != result.accepted
        ):
            out(json.dumps(report))
            raise CommandError("some starts, attempts or acknowledged words were lost")
        return report
