"""`manage.py bench_soak`: players joining rooms, playing a round and leaving, for a long time,
while the workers' memory and the connections to Redis and PostgreSQL are sampled: after
the warm-up they must stay flat (a leak shows as a steady climb)."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from boggle_site.ops.cluster import ONE_ADDRESS_LOAD, Cluster, cluster_start, redis_clients
from boggle_site.ops.load import SoakStats, bench_cleanup, soak_lane
from solver import cli


def _pg_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        (count,) = cursor.fetchone()
    return int(count) - 1  # not this one


def _redis_memory(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=3)
    try:
        info: dict[str, Any] = client.info("memory")  # type: ignore[assignment]
        return int(info["used_memory"])
    finally:
        client.close()


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Return the least-squares slope of (seconds, value) points, per minute."""
    if len(points) < 2:
        return 0.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread


class Command(cli.DatabaseCommand):
    help = (
        "Soak: LANES rooms at a time, each seating PLAYERS who play one round and leave, then a "
        "new room, for MINUTES; samples worker memory and Redis and PostgreSQL connections "
        "every SAMPLE seconds. The last line is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--minutes", type=float, default=30)
        parser.add_argument("--workers", type=cli.positive_int, default=2)
        parser.add_argument("--lanes", type=cli.positive_int, default=12, help="rooms at once")
        parser.add_argument("--players", type=cli.positive_int, default=4)
        parser.add_argument(
            "--round-seconds", type=int, default=30, help="round length (30 is the shortest)"
        )
        parser.add_argument("--rate", type=float, default=0.5, help="words/s per player")
        parser.add_argument("--sample", type=float, default=30, help="seconds between samples")
        parser.add_argument(
            "--warmup",
            type=float,
            default=0.5,
            help="share of the run that is warm-up (default 0.5: each worker keeps the facts "
            "of its last 256 rounds, which at the default pace fill in about 13 minutes)",
        )
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["round_seconds"] < 30:
            raise CommandError("rounds last 30 seconds at least", returncode=cli.BAD_INPUT)
        cluster = cluster_start(
            options["workers"],
            log_dir=Path(settings.BASE_DIR) / "var" / "soak",
            secret_key=settings.SECRET_KEY,
            env=ONE_ADDRESS_LOAD,
        )
        stats = SoakStats()
        try:
            samples = asyncio.run(self._soak(cluster, stats, options))
        finally:
            cluster.stop()
            bench_cleanup(stats.rooms)
        self._report(samples, stats, options)

    async def _soak(
        self, cluster: Cluster, stats: SoakStats, options: dict[str, Any]
    ) -> list[dict[str, Any]]:
        seconds = options["minutes"] * 60
        started = time.monotonic()
        stop_at = started + seconds
        rng = random.Random(options["seed"])
        lanes = []
        for lane in range(options["lanes"]):
            lanes.append(
                asyncio.create_task(
                    soak_lane(
                        lane=lane, urls=cluster.urls, players=options["players"],
                        duration=options["round_seconds"], rate=options["rate"],
                        stop_at=stop_at, stats=stats, rng=random.Random(rng.random()),
                    )
                )
            )  # fmt: skip
            await asyncio.sleep(options["round_seconds"] / options["lanes"])  # staggered
        assert cluster.redis is not None
        samples = []
        self.stdout.write(
            f"{'minute':>6} {'rounds':>6} {'joins':>6} {'sockets':>7} "
            + " ".join(f"{'rss' + str(n) + ' MiB':>9}" for n in range(len(cluster.workers)))
            + f" {'redis conns':>11} {'redis MiB':>9} {'pg conns':>8} {'errors':>6}"
        )
        while time.monotonic() < stop_at:
            sample = {
                "t": round(time.monotonic() - started, 1),
                "rounds": stats.rounds,
                "joins": stats.joins,
                "sockets": stats.open_sockets,
                "rss_kib": [worker.rss_kib() for worker in cluster.workers],
                "redis_clients": redis_clients(cluster.redis.url),
                "redis_used_bytes": _redis_memory(cluster.redis.url),
                "pg_connections": await database_sync_to_async(_pg_connections)(),
                "errors": len(stats.errors),
            }
            samples.append(sample)
            self.stdout.write(
                f"{sample['t'] / 60:>6.1f} {sample['rounds']:>6} {sample['joins']:>6} "
                f"{sample['sockets']:>7} "
                + " ".join(f"{kib / 1024:>9.1f}" for kib in sample["rss_kib"])
                + f" {sample['redis_clients']:>11} {sample['redis_used_bytes'] / 2**20:>9.2f}"
                f" {sample['pg_connections']:>8} {sample['errors']:>6}"
            )
            await asyncio.sleep(min(options["sample"], max(0.0, stop_at - time.monotonic())))
        await asyncio.gather(*lanes)
        return samples

    def _report(
        self, samples: list[dict[str, Any]], stats: SoakStats, options: dict[str, Any]
    ) -> None:
        warm = options["minutes"] * 60 * options["warmup"]
        after = [s for s in samples if s["t"] >= warm] or samples
        workers = len(after[0]["rss_kib"])
        summary: dict[str, Any] = {
            "minutes": options["minutes"],
            "workers": workers,
            "rounds": stats.rounds,
            "joins": stats.joins,
            "submissions": stats.sent,
            "answered": stats.acked,
            "lost": stats.lost,
            "errors": len(stats.errors),
            "warmup_minutes": round(warm / 60, 1),
        }
        for n in range(workers):
            rss = [s["rss_kib"][n] / 1024 for s in after]
            summary[f"worker{n}_rss_mib"] = {
                "min": round(min(rss), 1),
                "max": round(max(rss), 1),
                "slope_mib_per_min": round(
                    slope_per_minute([(s["t"], s["rss_kib"][n] / 1024) for s in after]), 3
                ),
            }
        for key in ("redis_clients", "pg_connections"):
            values = [s[key] for s in after]
            summary[key] = {"min": min(values), "max": max(values)}
        redis_mib = [round(s["redis_used_bytes"] / 2**20, 2) for s in after]
        summary["redis_used_mib"] = {"min": min(redis_mib), "max": max(redis_mib)}
        out = self.stdout.write
        out(
            f"soak           {options['minutes']:.0f} min, {stats.rounds} rounds, "
            f"{stats.joins} joins, {stats.sent} words sent, {stats.acked} answered, "
            f"{stats.lost} lost, {len(stats.errors)} errors"
        )
        for n in range(workers):
            w = summary[f"worker{n}_rss_mib"]
            out(
                f"worker {n}       RSS after warm-up {w['min']}–{w['max']} MiB, "
                f"trend {w['slope_mib_per_min']:+.3f} MiB/min"
            )
        out(
            f"connections    Redis {summary['redis_clients']['min']}–"
            f"{summary['redis_clients']['max']}, PostgreSQL {summary['pg_connections']['min']}–"
            f"{summary['pg_connections']['max']} after warm-up"
        )
        for error in stats.errors[:5]:
            out(f"error          {error}")
        out(json.dumps({**summary, "samples": samples}))
