"""nginx in front of the game: pages, JSON and the admin to gunicorn, `/ws/` to the daphne
workers, static files from STATIC_ROOT. One function writes the site's configuration, so the
one docs/operations.md shows, the one `make cluster` and the layout test run, are the same.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# New websocket handshakes one address may make (nginx's limit_req on /ws/): a burst, then a
# steady rate; past that nginx answers 429 before any worker parses the handshake. A room of
# friends behind one router reconnecting after a restart fits in the burst.
SOCKETS_PER_SECOND = 5
SOCKETS_BURST = 20
MAX_BODY = "256k"  # a page's form or a JSON request: a few KB (settings.BOGGLE_BODY_MAX_BYTES)
# A client has this long to send all its headers (slowloris): nginx answers 408 and closes.
HEADER_TIMEOUT_S = 10
MAX_UPLOAD = "41m"  # the admin's uploads: a definitions source of up to 40 MiB, and its form


@dataclass(frozen=True)
class Tls:
    """The certificate of a site served over HTTPS."""

    certificate: str
    key: str


def nginx_site(
    *,
    listen: str,
    server_name: str,
    http: Sequence[str],
    ws: Sequence[str],
    static_root: str,
    tls: Tls | None = None,
) -> str:
    """Return the game's site for nginx's `http {}` context (a file in conf.d/): `http` and
    `ws` are the gunicorn and daphne addresses (host:port), `listen` nginx's own."""
    ws_servers = "".join(f"    server {a} max_fails=1 fail_timeout=2s;\n" for a in ws)
    http_servers = "".join(f"    server {a};\n" for a in http)
    proxied = (
        "        proxy_set_header Host $http_host;\n"
        # Replace, never append: gunicorn's and daphne's client address is the header's first.
        "        proxy_set_header X-Forwarded-For $remote_addr;\n"
        "        proxy_set_header X-Forwarded-Proto $scheme;\n"
    )
    redirect = ""
    ssl = ""
    if tls is not None:
        redirect = (
            "server {\n"
            f"    listen 80;\n    server_name {server_name};\n"
            "    return 301 https://$host$request_uri;\n"
            "}\n"
        )
        ssl = f"    ssl_certificate {tls.certificate};\n    ssl_certificate_key {tls.key};\n"
    return (
        "# Boggle Online: pages and JSON to gunicorn, /ws/ to the daphne workers.\n"
        "limit_req_zone $binary_remote_addr zone=boggle_sockets:10m "
        f"rate={SOCKETS_PER_SECOND}r/s;\n"
        "map $http_upgrade $boggle_connection {\n"
        "    default upgrade;\n"
        '    "" close;\n'
        "}\n"
        f"upstream boggle_http {{\n{http_servers}    keepalive 16;\n}}\n"
        f"upstream boggle_ws {{\n{ws_servers}}}\n"
        f"{redirect}"
        "server {\n"
        f"    listen {listen}{' ssl' if tls else ''};\n"
        f"    server_name {server_name};\n"
        f"{ssl}"
        f"    client_max_body_size {MAX_BODY};\n"
        # A client has this long to send its headers and each part of its body: a connection
        # that trickles them (slowloris) is closed, and never reaches a worker.
        f"    client_header_timeout {HEADER_TIMEOUT_S}s;\n"
        "    client_body_timeout 20s;\n"
        "    gzip on;\n"
        "    gzip_types application/json text/css text/javascript application/javascript;\n"
        "    location /static/ {\n"
        f"        alias {static_root.rstrip('/')}/;\n"
        "        gzip_static on;  # the .gz files collectstatic wrote\n"
        "        expires max;  # hashed names: a new file is a new name\n"
        "    }\n"
        "    location /ws/ {\n"
        f"        limit_req zone=boggle_sockets burst={SOCKETS_BURST} nodelay;\n"
        "        limit_req_status 429;\n"
        "        proxy_pass http://boggle_ws;\n"
        "        proxy_http_version 1.1;\n"
        "        proxy_set_header Upgrade $http_upgrade;\n"
        "        proxy_set_header Connection $boggle_connection;\n"
        f"{proxied}"
        "        proxy_read_timeout 120s;  # pages ping every 20 s: a silent socket is dead\n"
        "        proxy_next_upstream error timeout;\n"
        "    }\n"
        "    location / {\n"
        "        proxy_pass http://boggle_http;\n"
        "        proxy_http_version 1.1;\n"
        '        proxy_set_header Connection "";\n'
        f"{proxied}"
        "        proxy_read_timeout 60s;\n"
        "    }\n"
        "    location /admin/ {  # the uploads: word lists and definitions sources\n"
        f"        client_max_body_size {MAX_UPLOAD};\n"
        "        proxy_pass http://boggle_http;\n"
        "        proxy_http_version 1.1;\n"
        '        proxy_set_header Connection "";\n'
        f"{proxied}"
        "        proxy_read_timeout 120s;  # a large list is read and compiled in the request\n"
        "    }\n"
        "}\n"
    )


def nginx_main(site: str, prefix: Path, *, workers: int = 1) -> str:
    """Return a whole nginx.conf that runs `site` from the folder `prefix` (its pid, logs and
    temporary files there), in the foreground: for `make cluster` and the tests."""
    # Started by root (CI), nginx's workers would run as nobody, who may not read the test's
    # private folders: they run as whoever started it, as they do when anyone else does.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes {workers};\n"
        "daemon off;\n"
        f"pid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events {\n    worker_connections 4096;\n}\n"
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        "    default_type application/octet-stream;\n"
        '    log_format upstream \'$remote_addr "$request" $status $body_bytes_sent '
        "$upstream_addr';\n"
        f"    access_log {prefix / 'access.log'} upstream;\n"
        f"    client_body_temp_path {prefix / 'body'};\n"
        f"    proxy_temp_path {prefix / 'proxy'};\n"
        f"    fastcgi_temp_path {prefix / 'fastcgi'};\n"
        f"    uwsgi_temp_path {prefix / 'uwsgi'};\n"
        f"    scgi_temp_path {prefix / 'scgi'};\n"
        + "".join(f"    {line}\n" if line else "\n" for line in site.splitlines())
        + "}\n"
    )


NGINX = "/usr/sbin/nginx"
