"""`manage.py bench_scale`: the same rooms and clients against one worker, then two, at rising
rates, to find where one worker saturates and what a second one adds on this machine."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from boggle_site.ops.cluster import (
    ONE_ADDRESS_LOAD,
    Cluster,
    clients_run,
    cluster_start,
    cpu_seconds,
    machine_cpu,
    pids_named,
)
from boggle_site.ops.load import LoadResult, bench_cleanup, load_phases, rooms_prepare
from solver import cli


def _numbers(text: str, kind: type = float) -> list[Any]:
    try:
        values = [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError(f"not a list of numbers: {text}", returncode=cli.BAD_INPUT) from None
    if not values or any(v <= 0 for v in values):
        raise CommandError(f"need positive numbers: {text}", returncode=cli.BAD_INPUT)
    return values


class CpuMeter:
    """CPU time used between two samples, by the workers, PostgreSQL, Redis, this process
    (the clients) and everything else on the machine."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.marks: dict[tuple[int, str], dict[str, float]] = {}

    def sample(self) -> dict[str, float]:
        busy, total = machine_cpu()
        tick = os.sysconf("SC_CLK_TCK")
        redis_pid = self.cluster.redis.pid if self.cluster.redis is not None else 0
        return {
            "workers": sum(cpu_seconds(w.pid) for w in self.cluster.workers),
            "postgres": sum(cpu_seconds(pid) for pid in pids_named("postgres")),
            "redis": cpu_seconds(redis_pid) if redis_pid else 0.0,
            "clients": cpu_seconds(os.getpid()),
            "machine": busy / tick,
            "wall": total / tick / (os.cpu_count() or 1),
        }

    def mark(self, phase: int, edge: str) -> None:
        self.marks[(phase, edge)] = self.sample()

    def shares(self, phase: int) -> dict[str, float]:
        """Return each part's share of one core during a phase (1.0 = a whole core)."""
        start, end = self.marks[(phase, "start")], self.marks[(phase, "end")]
        wall = end["wall"] - start["wall"]
        used = {name: (end[name] - start[name]) / wall for name in start if name != "wall"}
        ours = used["workers"] + used["postgres"] + used["redis"] + used["clients"]
        used["other"] = max(0.0, used["machine"] - ours)
        return used


class Command(cli.DatabaseCommand):
    help = (
        "Run CLIENTS websocket clients in ROOMS rooms against 1 worker, then 2 (--workers), at "
        "each per-client rate in --rates for SECONDS each; report throughput, latency, lost "
        "acknowledgements and who used the CPU, and the ratio of the best throughputs. The "
        "last line is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clients", type=cli.positive_int, default=400)
        parser.add_argument("--rooms", type=cli.positive_int, default=50)
        parser.add_argument("--rates", default="0.5,1,2,3,4", help="words/s per client")
        parser.add_argument("--seconds", type=float, default=15, help="per rate")
        parser.add_argument("--workers", default="1,2", help="worker counts to compare")
        parser.add_argument("--warmup", type=float, default=5)
        parser.add_argument("--gap", type=float, default=3, help="quiet seconds between rates")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--p99-limit",
            type=float,
            default=500.0,
            help="a rate counts as served while its p99 stays under this many ms (default 500)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rates = _numbers(options["rates"])
        counts = _numbers(options["workers"], int)
        if max(rates) > 6:
            raise CommandError("keep --rates at 6 or less: clients over ~8/s are rate-limited")
        # Rounds long enough for every phase and the longest drains (re-drawn if not).
        duration = options["warmup"] + len(rates) * (options["seconds"] + 120) + 60
        runs: dict[int, list[dict[str, Any]]] = {}
        out = self.stdout.write
        out(
            f"{options['clients']} clients in {options['rooms']} rooms; rates {rates} words/s "
            f"per client, {options['seconds']:.0f} s each; {os.cpu_count()} CPUs"
        )
        header = (
            f"{'workers':>7} {'offered/s':>9} {'answered/s':>10} {'median':>9} {'p99':>8} "
            f"{'lost':>5} {'limited':>7}   CPU in cores: workers pg redis clients other"
        )
        for count in counts:
            runs[count] = self._run(count, rates, duration, options)
            out(header if count == counts[0] else "")
            for row in runs[count]:
                out(
                    f"{count:>7} {row['offered_per_s']:>9.0f} {row['completed_per_s']:>10.1f} "
                    f"{row['median_ms']:>7.1f}ms {row['p99_ms']:>6.0f}ms {row['lost']:>5} "
                    f"{row['rate_limited']:>7}   "
                    + " ".join(
                        f"{row['cpu'][k]:.2f}"
                        for k in ("workers", "postgres", "redis", "clients", "other")
                    )
                )
        # Capacity: the most answers a second the workers gave, whatever the latency.
        # Served: the most offered load answered in full with p99 under the limit.
        capacity = {c: max(r["completed_per_s"] for r in rows) for c, rows in runs.items()}
        served = {
            c: max(
                (
                    r["offered_per_s"]
                    for r in rows
                    if not r["lost"] and r["p99_ms"] < options["p99_limit"]
                ),  # fmt: skip
                default=0.0,
            )
            for c, rows in runs.items()
        }
        summary: dict[str, Any] = {"capacity_per_s": capacity, "served_per_s": served}
        if 1 in capacity and len(capacity) > 1:
            other = max(c for c in capacity if c != 1)
            summary["capacity_ratio"] = round(capacity[other] / capacity[1], 2)
            summary["served_ratio"] = round(served[other] / served[1], 2) if served[1] else None
            out(
                f"capacity (answers/s at saturation): 1 worker {capacity[1]:.0f}, {other} workers "
                f"{capacity[other]:.0f}: ratio {summary['capacity_ratio']}"
            )
            out(
                f"served with p99 < {options['p99_limit']:.0f} ms: 1 worker {served[1]:.0f}/s, "
                f"{other} workers {served[other]:.0f}/s: ratio {summary['served_ratio']}"
            )
        summary["runs"] = runs
        out(json.dumps(summary))

    def _run(
        self, workers: int, rates: list[float], duration: float, options: dict[str, Any]
    ) -> list[dict[str, Any]]:
        prepared = rooms_prepare(
            rooms_count=options["rooms"],
            players_per_room=options["clients"] // options["rooms"],
            duration=duration,
        )
        cluster = cluster_start(
            workers,
            log_dir=Path(settings.BASE_DIR) / "var" / "bench",
            secret_key=settings.SECRET_KEY,
            env=ONE_ADDRESS_LOAD,
        )
        meter = CpuMeter(cluster)
        try:
            results: list[LoadResult] = clients_run(
                load_phases(
                    urls=cluster.urls,
                    prepared=prepared,
                    rates=rates,
                    seconds=options["seconds"],
                    warmup=options["warmup"],
                    gap=options["gap"],
                    seed=options["seed"],
                    on_phase=meter.mark,
                )
            )
        finally:
            cluster.stop()
            bench_cleanup([room["code"] for room in prepared])
        seconds = options["seconds"]
        return [
            {
                "rate_per_client": rate,
                "offered_per_s": rate * result.clients,
                "acked_per_s": round(result.acked / seconds, 1),
                "completed_per_s": round(result.completed / seconds, 1),
                "median_ms": round(result.percentile(50), 2),
                "p99_ms": round(result.percentile(99), 1),
                "lost": result.lost,
                "rate_limited": result.rate_limited,
                "connect_failures": result.connect_failures,
                "cpu": {k: round(v, 2) for k, v in meter.shares(n).items()},
            }
            for n, (rate, result) in enumerate(zip(rates, results, strict=True))
        ]
