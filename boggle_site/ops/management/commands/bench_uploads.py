"""`manage.py bench_uploads`: what large bodies cost a web worker (boggle_site.ops.uploads_load):
peak memory added and the slowest other request meanwhile, for a 100 MiB multipart POST
(declared and chunked), a 13 MiB word list and a definitions list just under its 40 MiB cap
uploaded in the admin. The last line is JSON."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from boggle_site.ops.cluster import HttpServer, free_port
from boggle_site.ops.uploads_load import (
    Measured,
    MiB,
    Site,
    definitions_tsv_bytes,
    measure,
    multipart,
    word_list_bytes,
    worker_pid,
)
from solver.definitions.uploads import DefinitionLimits
from solver.dictionaries.tries import trie_store
from solver.models import DefinitionSource, Dictionary

# The targets the issue set: what each request may add to the worker's peak memory.
TARGETS_MIB = {"multipart 100 MiB": 30, "chunked 100 MiB": 30, "word list 13 MiB": 300}
TSV_TARGET_MIB = 300  # an admin upload within its cap, like the word list
# Just under the definitions' cap, so the whole body stays under the admin's 41 MiB.
TSV_DEFAULT_MIB = round((DefinitionLimits().upload_bytes - MiB // 8) / MiB, 2)
BENCH_LANGUAGE = "x-bench-"  # the benchmark's source: a private-use language tag


class Command(BaseCommand):
    help = "Measure the peak memory large request bodies add to a web worker (gunicorn)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--body-mib", type=int, default=100, help="the multipart body")
        parser.add_argument("--list-mib", type=int, default=13, help="the uploaded word list")
        parser.add_argument(
            "--tsv-mib",
            type=float,
            default=TSV_DEFAULT_MIB,
            help=f"the uploaded definitions list (default {TSV_DEFAULT_MIB}: just under its cap)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        password = secrets.token_urlsafe(16)
        user = User.objects.create_superuser(f"bench-uploads-{secrets.token_hex(4)}", "", password)
        slug = f"bench-upload-{secrets.token_hex(4)}"
        with tempfile.TemporaryDirectory() as scratch:
            static_root = Path(scratch) / "static"
            server = HttpServer(
                port=free_port(),
                log_path=Path(scratch) / "gunicorn.log",
                workers=1,
                threads=4,
                env={
                    "DEBUG": "false",
                    "HTTPS": "false",
                    "ALLOWED_HOSTS": "127.0.0.1",
                    "SECRET_KEY": settings.SECRET_KEY,
                    "STATIC_ROOT": str(static_root),
                    "LOG_LEVEL": "WARNING",
                },  # fmt: skip
            )
            subprocess.run(  # hashed names, as production collects them (DEBUG off)
                [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "collectstatic",
                 "--noinput", "-v0"],
                env=server.environment(), check=True,
            )  # fmt: skip
            server.start()
            try:
                rows = self._measure(server, user.username, password, slug, options)
            except Exception:
                self.stderr.write(f"the server's log:\n{server.tail(40)}")
                raise
            finally:
                server.stop()
                self._compiled_wait(slug)
                for stored in Dictionary.objects.filter(slug=slug):
                    trie_store().path_for(stored.content_hash).unlink(missing_ok=True)
                    stored.delete()
                DefinitionSource.objects.filter(language__startswith=BENCH_LANGUAGE).delete()
                user.delete()
        self._print(rows)

    def _measure(
        self, server: HttpServer, username: str, password: str, slug: str, options: dict[str, Any]
    ) -> list[Measured]:
        pid = worker_pid(server.pid)
        site = Site(server.port)
        site.login(username, password)
        probe = f"{site.url}/account/login/"
        site.get("/account/login/")  # the worker's first page: its imports and templates loaded
        junk = {"file": ("junk.bin", b"\0" * (options["body_mib"] * MiB))}
        kind, body = multipart({"nickname": "Ann"}, junk)
        rows = [
            measure(f"multipart {options['body_mib']} MiB", pid, probe,
                    lambda: site.post("/", kind, body)),
            measure(f"chunked {options['body_mib']} MiB", pid, probe,
                    lambda: site.post("/", kind, body, chunked=True)),
        ]  # fmt: skip
        del body
        words = word_list_bytes(options["list_mib"] * MiB)
        fields = {
            "name": "Bench upload", "slug": slug, "language": "en", "description": "",
            "source": "", "licence": "", "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "csrfmiddlewaretoken": site.token("/admin/solver/dictionary/add/"),
        }  # fmt: skip
        kind, body = multipart(fields, {"word_file": ("bench.txt", words)})
        rows.append(
            measure(f"word list {options['list_mib']} MiB", pid, probe,
                    lambda: site.post("/admin/solver/dictionary/add/", kind, body))
        )  # fmt: skip
        del body, words
        tsv = definitions_tsv_bytes(int(options["tsv_mib"] * MiB))
        fields = {
            "language": BENCH_LANGUAGE + secrets.token_hex(4), "name": "Bench upload",
            "licence": "", "csrfmiddlewaretoken": site.token("/admin/solver/definitionsource/add/"),
        }  # fmt: skip
        kind, body = multipart(fields, {"source_file": ("bench.tsv", tsv)})
        rows.append(
            measure(f"definitions {len(tsv) / MiB:.1f} MiB", pid, probe,
                    lambda: site.post("/admin/solver/definitionsource/add/", kind, body))
        )  # fmt: skip
        return rows

    def _compiled_wait(self, slug: str, timeout: float = 300) -> None:
        """Wait for the uploaded list's compile process, so deleting it races nothing."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            stored = Dictionary.objects.filter(slug=slug).first()
            if stored is None or trie_store().path_for(stored.content_hash).exists():
                return
            time.sleep(1)

    def _print(self, rows: list[Measured]) -> None:
        self.stdout.write(f"{'request':<20} {'status':>6} {'time':>8} {'RSS before':>11} "
                          f"{'peak added':>11} {'target':>8} {'slowest other':>14}")  # fmt: skip
        for row in rows:
            target = TARGETS_MIB.get(row.name, TSV_TARGET_MIB if "definitions" in row.name else 0)
            self.stdout.write(
                f"{row.name:<20} {row.status:>6} {row.seconds:>7.2f}s"
                f" {row.rss_before_mib:>7.1f} MiB {row.peak_added_mib:>7.1f} MiB"
                f" {f'{target} MiB' if target else '':>8}"
                f" {row.slowest_other_s:>13.2f}s"
            )
        self.stdout.write(json.dumps({"bench": "uploads", "rows": [asdict(r) for r in rows]}))
