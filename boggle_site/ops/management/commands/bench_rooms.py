"""`manage.py bench_rooms`: many websocket clients in many rooms against a running server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from boggle_site.ops.cluster import ONE_ADDRESS_LOAD, clients_run, cluster_start
from boggle_site.ops.load import bench_cleanup, load_phases, rooms_prepare, scoring_time
from solver import cli


class Command(cli.DatabaseCommand):
    help = (
        "Benchmark rooms: CLIENTS websocket clients in ROOMS rooms submit words for SECONDS; "
        "reports acknowledgement latency, throughput, lost acknowledgements and the workers' "
        "memory per connection, then the time to end and score a big round. The last line is "
        "one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            action="append",
            default=[],
            help="a running worker, e.g. ws://127.0.0.1:8001; repeat it for several, which "
            "share the clients in turn (default: start --workers workers for the run)",
        )
        parser.add_argument(
            "--workers",
            type=cli.positive_int,
            default=1,
            help="daphne workers to start, sharing a private Redis (default 1)",
        )
        parser.add_argument("--clients", type=cli.positive_int, default=400)
        parser.add_argument("--rooms", type=cli.positive_int, default=50)
        parser.add_argument("--rate", type=float, default=0.5, help="words per second per client")
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument("--round-players", type=cli.positive_int, default=50)
        parser.add_argument("--round-words", type=cli.positive_int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--warmup", type=float, default=5, help="unmeasured seconds of load first (default 5)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["clients"] < options["rooms"]:
            raise CommandError("--clients must be at least --rooms", returncode=cli.BAD_INPUT)
        if not 0 < options["rate"] <= 50 or options["seconds"] <= 0:
            raise CommandError(
                "--rate must be in (0, 50] and --seconds positive", returncode=cli.BAD_INPUT
            )
        per_room = options["clients"] // options["rooms"]
        prepared = rooms_prepare(
            rooms_count=options["rooms"],
            players_per_room=per_room,
            duration=options["warmup"] + options["seconds"],
        )
        cluster = None
        urls = [url.rstrip("/") for url in options["url"]]
        memory: dict[str, list[int]] = {"before": [], "first": [], "after": []}
        first = max(1, options["clients"] // 10)
        try:
            if not urls:
                cluster = cluster_start(
                    options["workers"],
                    log_dir=Path(settings.BASE_DIR) / "var" / "bench",
                    secret_key=settings.SECRET_KEY,
                    env=ONE_ADDRESS_LOAD,
                )
                urls = cluster.urls
                memory["before"] = [w.rss_kib() for w in cluster.workers]

            def measure(moment: str) -> Callable[[], None]:
                def sample() -> None:
                    if cluster is not None:
                        memory[moment] = [w.rss_kib() for w in cluster.workers]

                return sample

            (result,) = clients_run(
                load_phases(
                    urls=urls,
                    prepared=prepared,
                    rates=[options["rate"]],
                    seconds=options["seconds"],
                    warmup=options["warmup"],
                    gap=0,
                    seed=options["seed"],
                    first=first,
                    on_first=measure("first"),
                    on_connected=measure("after"),
                )
            )
        finally:
            if cluster is not None:
                cluster.stop()
            bench_cleanup([room["code"] for room in prepared])
        scored_ms = scoring_time(
            players=options["round_players"], words_each=options["round_words"]
        )
        if cluster is not None:
            where = f"{len(urls)} spawned daphne worker(s) on a private Redis"
        else:
            where = ", ".join(urls)
        p50, p99 = result.percentile(50), result.percentile(99)
        rate = result.acked / options["seconds"]
        per_connection = marginal = 0.0
        if memory["after"]:
            per_connection = (sum(memory["after"]) - sum(memory["before"])) / result.clients
            marginal = (sum(memory["after"]) - sum(memory["first"])) / (result.clients - first)
        out = self.stdout.write
        out(
            f"clients        {result.clients} in {result.rooms} rooms, {options['rate']} words/s "
            f"each, {options['seconds']:.0f} s ({where})"
        )
        out(
            f"submissions    {result.sent} sent, {result.acked} answered "
            f"({result.accepted} accepted), {rate:.1f}/s"
        )
        out(
            f"lost acks      {result.lost}   connect failures {result.connect_failures}   "
            f"rate-limited {result.rate_limited}"
        )
        out(
            f"ack latency    median {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(result.latencies_ms, default=0):.1f} ms"
        )
        if memory["after"]:
            out(
                f"memory         workers {sum(memory['before']) / 1024:.1f} MiB before the "
                f"clients, {sum(memory['first']) / 1024:.1f} MiB with the first {first}, "
                f"{sum(memory['after']) / 1024:.1f} MiB with all: {marginal:.1f} KiB per "
                f"further connection ({per_connection:.1f} KiB each counting the first's)"
            )
        out(
            f"scoring        {options['round_players']} players × {options['round_words']} "
            f"words: {scored_ms:.1f} ms to end and score (median of 3)"
        )
        out(json.dumps({
            "workers": len(urls), "clients": result.clients, "rooms": result.rooms,
            "sent": result.sent, "acked": result.acked, "lost": result.lost,
            "connect_failures": result.connect_failures, "rate_limited": result.rate_limited,
            "submissions_per_s": round(rate, 1), "latency_median_ms": round(p50, 2),
            "latency_p99_ms": round(p99, 2), "round_score_ms": round(scored_ms, 1),
            "rss_before_kib": memory["before"], "rss_first_kib": memory["first"],
            "rss_connected_kib": memory["after"], "first_clients": first,
            "kib_per_connection": round(marginal, 1),
            "kib_per_connection_with_first": round(per_connection, 1),
        }))  # fmt: skip
        if result.lost or result.connect_failures:
            raise CommandError("some acknowledgements were lost or clients could not connect")
