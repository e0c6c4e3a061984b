"""`manage.py bench_rooms`: many websocket clients in many rooms against a running server."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bench import bench_cleanup, load_run, rooms_prepare, scoring_time
from solver import cli


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Command(BaseCommand):
    help = (
        "Benchmark rooms: CLIENTS websocket clients in ROOMS rooms submit words for SECONDS; "
        "reports acknowledgement latency, throughput and lost acknowledgements, then the time "
        "to end and score a big round. The last line is one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="",
            help="a running server, e.g. ws://127.0.0.1:8000 "
            "(default: start a daphne worker for the run)",
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
        server = None
        url = options["url"].rstrip("/")
        try:
            if not url:
                server, url = self._spawn()
            result = asyncio.run(
                load_run(
                    url=url,
                    prepared=prepared,
                    rate=options["rate"],
                    seconds=options["seconds"],
                    seed=options["seed"],
                    warmup=options["warmup"],
                )
            )
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=15)
            bench_cleanup([room["code"] for room in prepared])
        scored_ms = scoring_time(
            players=options["round_players"], words_each=options["round_words"]
        )
        where = "one spawned daphne worker" if server else url
        p50, p99 = result.percentile(50), result.percentile(99)
        rate = result.sent / options["seconds"]
        out = self.stdout.write
        out(
            f"clients        {result.clients} in {result.rooms} rooms, {options['rate']} words/s "
            f"each, {options['seconds']:.0f} s ({where})"
        )
        out(
            f"submissions    {result.sent} sent, {result.acked} answered "
            f"({result.accepted} accepted), {rate:.1f}/s"
        )
        out(f"lost acks      {result.lost}   connect failures {result.connect_failures}")
        out(
            f"ack latency    median {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(result.latencies_ms, default=0):.1f} ms"
        )
        out(
            f"scoring        {options['round_players']} players × {options['round_words']} "
            f"words: {scored_ms:.1f} ms to end and score (median of 3)"
        )
        out(json.dumps({
            "clients": result.clients, "rooms": result.rooms, "sent": result.sent,
            "acked": result.acked, "lost": result.lost, "connect_failures": result.connect_failures,
            "submissions_per_s": round(rate, 1), "latency_median_ms": round(p50, 2),
            "latency_p99_ms": round(p99, 2), "round_score_ms": round(scored_ms, 1),
        }))  # fmt: skip
        if result.lost or result.connect_failures:
            raise CommandError("some acknowledgements were lost or clients could not connect")

    def _spawn(self) -> tuple[subprocess.Popen[bytes], str]:
        """Start one daphne worker on a free port with this process's settings."""
        port = _free_port()
        log = Path(settings.BASE_DIR) / "var" / "bench-daphne.log"
        log.parent.mkdir(exist_ok=True)
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "boggle_site.asgi:application"],
            cwd=settings.BASE_DIR,
            env={**os.environ, "DEBUG": "false", "LOG_LEVEL": "WARNING",
                 "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only")},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return server, f"ws://127.0.0.1:{port}"
            except OSError:
                time.sleep(0.2)
        server.kill()
        raise CommandError(f"the daphne worker did not start; see {log}")
