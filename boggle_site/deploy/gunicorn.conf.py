"""gunicorn's settings for the HTTP side (pages, JSON, the admin): `gunicorn -c
boggle_site/deploy/gunicorn.conf.py boggle_site.wsgi`. Bind it to 127.0.0.1; nginx in front
sends it everything but `/ws/` (docs/operations.md). Each value may be set in the environment.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Threads, not processes alone: most of a request's time is spent waiting on PostgreSQL.
# A process per core (a Python process uses one), each with its threads; every thread keeps a
# database connection of its own for CONN_MAX_AGE, so workers × threads connections in all.
workers = int(os.environ.get("GUNICORN_WORKERS") or os.cpu_count() or 2)
threads = int(os.environ.get("GUNICORN_THREADS") or 8)
worker_class = "gthread"
timeout = 30  # a request that takes this long is a bug: its worker is restarted
graceful_timeout = 10
keepalive = 5  # seconds an idle keep-alive connection from nginx is kept
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # nginx logs requests already
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
