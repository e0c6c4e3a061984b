"""`manage.py bench_arena`: one arena round with thousands of websocket players on several
daphne workers (a private Redis, this environment's PostgreSQL): acknowledgement latency, lost
words, the live top's staleness, results after time-up, memory per player (docs/arena.md)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from boggle_site.ops.arena_load import (
    WINDOW_S,
    arena_cleanup,
    arena_load,
    arena_prepare,
    arena_words_stored,
    percentile,
)
from boggle_site.ops.arena_scoring import arena_scoring_run
from boggle_site.ops.cluster import ONE_ADDRESS_LOAD, clients_run, cluster_start
from games.models import sql
from solver import cli


class Command(cli.DatabaseCommand):
    help = (
        "Seat PLAYERS in a new arena, connect them to --workers daphne workers, let each "
        "submit a word every --period seconds until time-up, then fetch each one's results; "
        "print latency, lost words, top-10 staleness, results time and memory per player. "
        "The last line is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=cli.positive_int, default=2_000)
        parser.add_argument("--workers", type=cli.positive_int, default=2)
        parser.add_argument("--period", type=float, default=2.0, help="seconds between words")
        parser.add_argument(
            "--play", type=cli.positive_int, default=150, help="the round's seconds of play"
        )
        parser.add_argument(
            "--memory-at", type=cli.positive_int, default=500,
            help="also measure the workers' memory when this many are connected",
        )  # fmt: skip
        parser.add_argument("--dice", default="new16")
        parser.add_argument(
            "--scoring", type=cli.positive_int, metavar="WORDS",
            help="instead: time the end of a round of PLAYERS players with WORDS words each, "
            "stored straight in the round, in this process (--runs times)",
        )  # fmt: skip
        parser.add_argument("--runs", type=cli.positive_int, default=3)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["period"] <= 0:
            raise CommandError("--period must be positive", returncode=cli.BAD_INPUT)
        if options["play"] < 30:
            raise CommandError("--play must be 30 seconds or more", returncode=cli.BAD_INPUT)
        if not sql.on_postgresql():
            raise CommandError(
                "bench_arena needs PostgreSQL: set DATABASE_URL (several workers share it)",
                returncode=cli.BAD_INPUT,
            )
        out = self.stdout.write
        players, workers = options["players"], options["workers"]
        if options["scoring"]:
            self._scoring(players, options["scoring"], options["runs"], options["dice"])
            return
        out(f"seating {players} players in a new arena...")
        setup = arena_prepare(players=players, play_seconds=options["play"], dice=options["dice"])
        try:
            summary = self._run(setup, workers, options)
        finally:
            arena_cleanup(setup)
        out(json.dumps(summary))

    def _scoring(self, players: int, words: int, runs: int, dice: str) -> None:
        out = self.stdout.write
        done = []
        for run in range(runs):
            timed = arena_scoring_run(players=players, words_each=words, seed=run, dice=dice)
            done.append(timed)
            out(
                f"  run {run + 1}: {timed.players} players, {timed.words} words "
                f"({timed.solution} on the board), {timed.entries} entries: ended and scored "
                f"in {timed.ms:.0f} ms; then a worker read it in {timed.load_ms:.0f} ms and "
                f"made every player's results in {timed.frames_ms:.0f} ms "
                f"({timed.frames_ms / timed.players:.3f} ms and {timed.frames_bytes} bytes each)"
            )
        median = statistics.median(t.ms for t in done)
        load = statistics.median(t.load_ms for t in done)
        frames = statistics.median(t.frames_ms / t.players for t in done)
        out(f"an arena round's end, scored alone: median {median:.0f} ms over {runs} runs")
        out(
            f"a worker's results for its players: read once in {load:.0f} ms (median), then "
            f"{frames:.3f} ms a player"
        )
        out(json.dumps({
            "players": players, "words_each": words, "end_ms": [round(t.ms) for t in done],
            "end_median_ms": round(median), "load_median_ms": round(load),
            "frames_ms_per_player_median": round(frames, 3),
        }))  # fmt: skip

    def _run(self, setup: Any, workers: int, options: dict[str, Any]) -> dict[str, Any]:
        out = self.stdout.write
        cluster = cluster_start(
            workers,
            log_dir=Path(settings.BASE_DIR) / "var" / "bench",
            secret_key=settings.SECRET_KEY,
            env=ONE_ADDRESS_LOAD,
            http=True,
        )
        memory: dict[int, int] = {0: sum(w.rss_kib() for w in cluster.workers)}

        def on_size(size: int) -> None:
            memory[size] = sum(w.rss_kib() for w in cluster.workers)
            out(f"  {size} connected: workers' memory {memory[size] / 1024:.0f} MiB")

        sizes = sorted({options["memory_at"], len(setup.keys)})
        try:
            result = clients_run(
                arena_load(
                    setup=setup,
                    ws_urls=cluster.urls,
                    http_urls=cluster.http_urls,
                    period=options["period"],
                    at_sizes=sizes,
                    on_size=on_size,
                )
            )
        finally:
            cluster.stop()
        stored = arena_words_stored(setup)
        missing = sum(
            len(words - stored.get(setup.player_ids[index], set()))
            for index, words in result.accepted.items()
        )
        memory_per = {
            f"{a}->{b}": round((memory[b] - memory[a]) / (b - a), 1)
            for a, b in zip([0, *sizes], sizes, strict=False)
            if b > a
        }
        summary = {
            "players": result.players,
            "workers": workers,
            "connected": result.connected,
            "connect_failures": result.connect_failures,
            "connect_failure_reasons": result.connect_failure_reasons,
            "connect_median_s": round(percentile(result.connect_seconds, 50), 2),
            "connect_p99_s": round(percentile(result.connect_seconds, 99), 2),
            "words_sent": result.sent,
            "words_acknowledged": result.acked,
            "lost": result.lost,
            "accepted_words_missing_from_round": missing,
            "ack_median_ms": round(percentile(result.ack_ms, 50), 1),
            "ack_p99_ms": round(percentile(result.ack_ms, 99), 1),
            "ack_max_ms": round(max(result.ack_ms, default=0.0), 1),
            "ack_to_stamp_median_ms": round(percentile(result.ack_to_stamp_ms, 50), 1),
            "ack_to_stamp_p99_ms": round(percentile(result.ack_to_stamp_ms, 99), 1),
            "ack_from_stamp_median_ms": round(percentile(result.ack_from_stamp_ms, 50), 1),
            "ack_from_stamp_p99_ms": round(percentile(result.ack_from_stamp_ms, 99), 1),
            "ack_p99_ms_by_window": {
                f"{w * WINDOW_S}s": round(percentile(ms, 99), 1)
                for w, ms in sorted(result.ack_windows.items())
            },
            "top_frames": result.top_frames,
            "top_age_median_ms": round(percentile(result.top_age_ms, 50)),
            "top_age_p99_ms": round(percentile(result.top_age_ms, 99)),
            "top_age_max_ms": round(max(result.top_age_ms, default=0.0)),
            "top_age_playing_median_ms": round(percentile(result.top_age_play_ms, 50)),
            "top_age_playing_p99_ms": round(percentile(result.top_age_play_ms, 99)),
            "top_delivery_p99_ms": round(percentile(result.top_delivery_ms, 99)),
            "round_ended_seen": result.ended_seen,
            "round_ended_median_ms": round(percentile(result.ended_ms, 50)),
            "round_ended_p99_ms": round(percentile(result.ended_ms, 99)),
            "results_received": len(result.results_ms),
            "results_failed": len(result.results_failed),
            "results_failures": sorted(set(result.results_failed))[:5],
            "results_over_http": result.results_over_http,
            "results_median_ms": round(percentile(result.results_ms, 50)),
            "results_p99_ms": round(percentile(result.results_ms, 99)),
            "results_max_ms": round(max(result.results_ms, default=0.0)),
            "results_bytes_median": int(statistics.median(result.results_bytes or [0])),
            "memory_kib": memory,
            "memory_kib_per_player": memory_per,
        }
        out(
            f"{result.connected} of {result.players} players connected on {workers} workers; "
            f"{result.sent} words sent, {result.acked} acknowledged, {result.lost} lost, "
            f"{missing} accepted words missing from the round"
        )
        out(
            f"connecting (asked to snapshot): median {summary['connect_median_s']} s, p99 "
            f"{summary['connect_p99_s']} s; failures: {result.connect_failure_reasons or 'none'}"
        )
        out(
            f"acknowledgement: median {summary['ack_median_ms']} ms, "
            f"p99 {summary['ack_p99_ms']} ms, max {summary['ack_max_ms']} ms; p99 by "
            f"{WINDOW_S} s of play: {summary['ack_p99_ms_by_window']}"
        )
        out(
            "  in two: sent -> the answer's server_time: median "
            f"{summary['ack_to_stamp_median_ms']} ms, p99 {summary['ack_to_stamp_p99_ms']} ms; "
            f"server_time -> read here: median {summary['ack_from_stamp_median_ms']} ms, p99 "
            f"{summary['ack_from_stamp_p99_ms']} ms (server_time is stamped as the answer is "
            "encoded, to the millisecond)"
        )
        out(
            f"live top 10: {result.top_frames} frames; age of the top a player holds when the "
            f"next arrives: median {summary['top_age_median_ms']} ms, p99 "
            f"{summary['top_age_p99_ms']} ms, max {summary['top_age_max_ms']} ms; once every "
            f"player is connected and playing: median {summary['top_age_playing_median_ms']} "
            f"ms, p99 {summary['top_age_playing_p99_ms']} ms"
        )
        out(
            f"round_ended after time-up: median {summary['round_ended_median_ms']} ms, "
            f"p99 {summary['round_ended_p99_ms']} ms"
        )
        out(
            f"results after time-up: {len(result.results_ms)} of {result.players} players, "
            f"median {summary['results_median_ms']} ms, p99 {summary['results_p99_ms']} ms, "
            f"max {summary['results_max_ms']} ms; {summary['results_bytes_median']} bytes each "
            f"(median); {len(result.results_failed)} failed, {result.results_over_http} sent "
            f"to fetch them over HTTP"
        )
        out(f"memory per connected player (KiB, all workers): {memory_per}")
        return summary
