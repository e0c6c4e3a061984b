"""`manage.py cluster`: several daphne workers on this machine sharing PostgreSQL and Redis,
run as docs/operations.md describes, until interrupted (`make cluster`)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import dj_database_url
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from boggle_site.ops.cluster import Worker, port_open
from solver import cli


def database_create(url: str) -> bool:
    """Create the PostgreSQL database named in `url` if it does not exist; return whether
    this call created it."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import make_conninfo

    db = dj_database_url.parse(url)
    fields = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"]}
    params = {key: str(value) for key, value in fields.items() if value}
    if db["PASSWORD"]:
        params["password"] = str(db["PASSWORD"])
    conninfo = make_conninfo(dbname="postgres", connect_timeout=5, **params)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]])
        if exists.fetchone():
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(str(db["NAME"]))))
    return True


class Command(BaseCommand):
    help = (
        "Run WORKERS daphne workers on ports PORT, PORT+1, … of 127.0.0.1 with this "
        "environment's settings (DATABASE_URL on PostgreSQL, REDIS_URL) until interrupted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=cli.positive_int, default=2)
        parser.add_argument("--port", type=cli.positive_int, default=8001, help="the first port")
        parser.add_argument(
            "--prepare",
            action="store_true",
            help="first create the database if missing, migrate, load the shipped dictionaries "
            "and collect static files",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith(("postgres://", "postgresql://")):
            raise CommandError(
                "DATABASE_URL must name a PostgreSQL database", returncode=cli.BAD_INPUT
            )
        if options["workers"] > 1 and not os.environ.get("REDIS_URL"):
            raise CommandError(
                "several workers need REDIS_URL (their channel layer)", returncode=cli.BAD_INPUT
            )
        ports = [options["port"] + n for n in range(options["workers"])]
        busy = [port for port in ports if port_open(port)]
        if busy:
            raise CommandError(
                f"something already listens on port(s) {busy}", returncode=cli.BAD_INPUT
            )
        if options["prepare"]:
            if database_create(url):
                self.stdout.write(f"created the database {dj_database_url.parse(url)['NAME']}")
            call_command("migrate", interactive=False, verbosity=0)
            call_command("load_dictionaries")
            if not settings.DEBUG:
                call_command("collectstatic", interactive=False, verbosity=0)
        logs = Path(settings.BASE_DIR) / "var" / "cluster"
        workers = [Worker(port=port, log_path=logs / f"worker-{port}.log") for port in ports]
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            for worker in workers:
                worker.start()
                self.stdout.write(
                    f"worker {worker.pid} on {worker.http_url}  (log {worker.log_path})"
                )
            self.stdout.write("Open either address in a browser; ^C stops the workers.")
            reported: set[int] = set()
            while not stopping:
                for worker in workers:
                    if not worker.alive and worker.port not in reported:
                        reported.add(worker.port)
                        self.stderr.write(f"{worker} exited; see {worker.log_path}")
                if len(reported) == len(workers):
                    raise CommandError("every worker has exited")
                time.sleep(0.5)
        finally:
            for worker in workers:
                worker.stop()
            self.stdout.write("workers stopped")
