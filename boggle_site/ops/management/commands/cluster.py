"""`manage.py cluster`: the production layout on this machine (nginx, gunicorn, daphne workers
and a sweep process, sharing PostgreSQL and Redis) as docs/operations.md describes, until
interrupted (`make cluster`)."""

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

from boggle_site.ops.cluster import (
    Cluster,
    HttpServer,
    Proxy,
    Sweeper,
    Worker,
    nginx_path,
    port_open,
)
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
        "Run the production layout on 127.0.0.1 with this environment's settings (DATABASE_URL "
        "on PostgreSQL, REDIS_URL) until interrupted: nginx on PORT in front of gunicorn "
        "(PORT+1) and WORKERS daphne workers (PORT+2, …), and a sweep process."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=cli.positive_int, default=2)
        parser.add_argument("--port", type=cli.positive_int, default=8000, help="nginx's port")
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
        if nginx_path() is None:
            raise CommandError(
                "nginx is not installed (Debian: apt-get install nginx)", returncode=cli.BAD_INPUT
            )
        first = options["port"]
        ports = list(range(first, first + 2 + options["workers"]))
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
            call_command("collectstatic", interactive=False, verbosity=0)
        logs = Path(settings.BASE_DIR) / "var" / "cluster"
        env = {"BEHIND_PROXY": "true"}
        workers = [
            Worker(port=port, log_path=logs / f"worker-{port}.log", env=env) for port in ports[2:]
        ]
        http = HttpServer(port=ports[1], log_path=logs / "gunicorn.log", env=env)
        proxy = Proxy(
            port=first,
            log_path=logs / "nginx.log",
            http=[http.port],
            ws=[worker.port for worker in workers],
            static_root=Path(settings.STATIC_ROOT),
        )
        cluster = Cluster(workers, None, http=http, proxy=proxy)
        cluster.sweeper = Sweeper(port=0, log_path=logs / "sweep.log", env=env)
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        processes = cluster.processes()
        try:
            for process in processes:
                process.start()
                self.stdout.write(f"{process} (log {process.log_path})")
            self.stdout.write(f"Open {proxy.url} in a browser; ^C stops everything.")
            reported: set[str] = set()
            while not stopping:
                for process in processes:
                    if not process.alive and str(process) not in reported:
                        reported.add(str(process))
                        self.stderr.write(f"{process} exited; see {process.log_path}")
                if len(reported) == len(processes):
                    raise CommandError("every process has exited")
                time.sleep(0.5)
        finally:
            cluster.stop()
            self.stdout.write("stopped")
