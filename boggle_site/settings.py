"""Django settings for Boggle Online, driven by environment variables (see .env.example)."""

import hashlib
import hmac
import os
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    """Return the environment variable `name` read as a boolean."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Return the comma-separated environment variable `name` as a list of items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_float(name: str) -> float | None:
    """Return a number of seconds from the environment, or None when it is not set."""
    value = os.environ.get(name)
    return float(value) if value else None


def env_int(name: str) -> int | None:
    """Return the environment variable `name` as a whole number, or None if it is unset."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else None


def database_config(url: str | None, sqlite_path: Path) -> dict[str, Any]:
    """Return the default database: the one in `url` if given, else SQLite at `sqlite_path`.

    SQLite gets the same settings however it is named (no URL, or a sqlite:// one such as the
    browser tests' server uses): without them two writers deadlock at once on "database is
    locked" instead of waiting their turn."""
    if url:
        # No health check before each use (Django's default): a daphne worker's database
        # threads count every service call as a request, so a check would cost a round trip
        # per word (the median acknowledgement tripled). A connection that died anyway fails
        # one call; Django closes it and the next call opens a new one, and the page's socket
        # reconnects and sends its unanswered words again.
        config = dict(dj_database_url.parse(url, conn_max_age=600, conn_health_checks=False))
        if config["ENGINE"] != "django.db.backends.sqlite3":
            return config
        sqlite_path = Path(str(config["NAME"]))
    sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": sqlite_path,
        # Keep connections: each new one would repeat the PRAGMAs below on every request.
        "CONN_MAX_AGE": 600,
        "OPTIONS": {
            # WAL lets readers and the one writer proceed together; NORMAL sync is safe with
            # WAL (a power cut may lose the last commits, never corrupt the file); IMMEDIATE
            # takes the write lock up front so two writers wait instead of deadlocking.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }


def channel_layers_config(redis_url: str | None) -> dict[str, Any]:
    """Return CHANNEL_LAYERS: Redis when `redis_url` is given, else in-process memory."""
    if redis_url:
        return {
            "default": {
                # channels_redis's layer, minus a leak of buffers for closed sockets.
                "BACKEND": "games.realtime.layers.RedisChannelLayer",
                "CONFIG": {"hosts": [redis_url]},
            }
        }
    # Only valid for a single process: several workers need REDIS_URL.
    return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def caches_config(redis_url: str | None) -> dict[str, Any]:
    """Return CACHES: process memory, plus the shared counters of games/limits/throttle.py, which
    live in Redis when there is one, so that every worker counts the same attempts."""
    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if not redis_url:
        return {"default": local, "throttle": {**local, "LOCATION": "throttle"}}
    throttle = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": "boggle-throttle",
        # A Redis outage must cost a join at most a moment: the throttle then lets it through.
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    return {"default": local, "throttle": throttle}


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

# Production hardening; docs/operations.md explains each variable. HTTPS says that browsers
# reach the site over HTTPS (usually through a proxy that terminates TLS): cookies then
# travel over HTTPS only and browsers are told to use nothing else (HSTS). Set HTTPS=false
# only to try a production configuration over plain http on this machine (make cluster).
HTTPS = env_bool("HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(
    os.environ.get("SECURE_HSTS_SECONDS") or (31_536_000 if HTTPS and not DEBUG else 0)
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Opt in only behind a proxy that sets X-Forwarded-Proto on every request (and strips any a
# client sent): Django then believes it about HTTPS. Without it, an https request forwarded
# as http would fail the CSRF origin check unless its origin is in CSRF_TRUSTED_ORIGINS.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind the proxy (nginx, docs/operations.md), a client's address is the one the proxy names
# in X-Forwarded-For, which it sets to the address it saw (never appending to a client's):
# the per-address allowances count clients, not the proxy. Opt in only behind such a proxy,
# with gunicorn bound to 127.0.0.1; daphne reads the same header (--proxy-headers).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
# Redirect http to https in Django (the proxy may do it instead); needs the header above
# when a proxy terminates TLS, or every request would redirect to itself.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # First, so that runserver serves the ASGI application (websockets included).
    "daphne",
    "channels",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "axes",
    "solver",
    "games",
    "boggle_site.ops",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A body larger than its path may take is refused (413) before anything reads it.
    "boggle_site.bodies.BodyLimitMiddleware",
    # Static files from the process (WhiteNoise) where no proxy serves STATIC_ROOT: `make run`,
    # and a fallback behind nginx, which serves them itself (docs/operations.md).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a logged-in browser plays as its account's identity.
    "games.identity.IdentityMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "boggle_site.csp.SiteCSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Scripts and styles come from the site's own files only: no inline script, style or event
# attribute runs (json_script's data blocks are not run, so they need no exception). The
# websocket origin is added per request (boggle_site/csp.py); the favicon is a data: image.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Admin and player logins: after AXES_FAILURE_LIMIT wrong passwords for one username from one
# address, that pair is refused, the right password included, until AXES_COOLOFF_TIME has passed
# without another try (django-axes, which counts in the database, so every worker agrees).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "boggle_site.lockout.locked_out"
# The client address as the game's own allowances read it (behind the proxy: the one it names).
AXES_CLIENT_IP_CALLABLE = "games.limits.throttle.client_address"

ROOT_URLCONF = "boggle_site.urls"
ASGI_APPLICATION = "boggle_site.asgi.application"
WSGI_APPLICATION = "boggle_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_config(os.environ.get("DATABASE_URL"), VAR_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = channel_layers_config(os.environ.get("REDIS_URL"))
CACHES = caches_config(os.environ.get("REDIS_URL"))

# Database threads a worker runs its services in on PostgreSQL (games/realtime/runner.py), besides
# the words' own. Two on a 2-core host: a worker is one Python process, and more threads only
# contend for its one lock (a rush of daily starts answered words at p99 39 ms with two, 43-54 with
# six: docs/daily.md). A PostgreSQL on another host, whose round trips wait longer, may want more.
BOGGLE_DB_THREADS = int(os.environ.get("BOGGLE_DB_THREADS") or 2)
# Seconds between sweeps that end overdue rounds and tidy rooms (0 turns the sweep off).
BOGGLE_SWEEP_INTERVAL = float(os.environ.get("BOGGLE_SWEEP_INTERVAL") or 3)
# Seconds between a round's start announcement and its board (unset: games/rules/clock.py's 3).
BOGGLE_COUNTDOWN_SECONDS = env_float("BOGGLE_COUNTDOWN_SECONDS")
# Open sockets one seat (a browser's player: one per tab) and one client address may hold,
# over all workers (games/limits/sockets.py). An address can be a whole school behind one
# router, so its limit is far above a household's.
BOGGLE_SOCKETS_PER_SEAT = int(os.environ.get("BOGGLE_SOCKETS_PER_SEAT") or 8)
BOGGLE_SOCKETS_PER_ADDRESS = int(os.environ.get("BOGGLE_SOCKETS_PER_ADDRESS") or 64)
# New sockets one address may open on one worker: a burst, then a steady rate; past that the
# handshake is refused before any database work and the page retries with backoff. A room of
# friends behind one router reconnecting after a restart fits in the burst.
BOGGLE_SOCKET_OPENS_BURST = int(os.environ.get("BOGGLE_SOCKET_OPENS_BURST") or 20)
BOGGLE_SOCKET_OPENS_PER_SECOND = float(os.environ.get("BOGGLE_SOCKET_OPENS_PER_SECOND") or 5)

# The largest websocket frame, both ways: daphne runs with --websocket-max-message-size set to
# this (boggle_site/ops/cluster.py, docs/operations.md), which limits what it sends as well as
# what it reads, and the room socket refuses to send anything bigger (a bigger frame would make
# daphne close the socket with 1011). Large finished data (results) goes over HTTP instead.
WEBSOCKET_MAX_FRAME_BYTES = 65536

# Seats in one room, computer players included. 50 is what the results were measured at:
# ending and scoring a 10×10 round of 50 players × 100 words takes about 0.2 s
# (docs/operations.md), and the results list every player's words on one screen.
BOGGLE_ROOM_PLAYERS_MAX = int(os.environ.get("BOGGLE_ROOM_PLAYERS_MAX") or 50)
# Spectators of one room (its watch link, games.spectators.services), beside its players.
BOGGLE_ROOM_SPECTATORS_MAX = int(os.environ.get("BOGGLE_ROOM_SPECTATORS_MAX") or 50)
# What one address may do in a window of time: rooms and seats created, daily attempts started,
# word reports sent. games/limits/throttle.py holds each allowance (its default, its window and
# what a refused player reads); these change it when set, and are None otherwise.
BOGGLE_ROOMS_PER_ADDRESS = env_int("BOGGLE_ROOMS_PER_ADDRESS")
BOGGLE_SEATS_PER_ADDRESS = env_int("BOGGLE_SEATS_PER_ADDRESS")
BOGGLE_DAILY_STARTS_PER_ADDRESS = env_int("BOGGLE_DAILY_STARTS_PER_ADDRESS")
BOGGLE_REPORTS_PER_ADDRESS = env_int("BOGGLE_REPORTS_PER_ADDRESS")

# The daily boards (games/daily/rules.py) are drawn from the date and this secret, so every worker
# draws the same board and nobody can work out tomorrow's. Without DAILY_SECRET it follows from
# SECRET_KEY (only boards not yet stored change if either is changed).
DAILY_SECRET = (
    os.environ.get("DAILY_SECRET")
    or hmac.new(SECRET_KEY.encode(), b"boggle-online daily boards", hashlib.sha256).hexdigest()
)

# Request bodies (boggle_site/bodies.py): the game's forms and JSON are a few KB; only the
# admin takes files (a word list of up to 20 MiB, a definitions source of up to 40 MiB).
# nginx applies the same limits first (boggle_site/deploy/nginx.py).
BOGGLE_BODY_MAX_BYTES = 256 * 1024
BOGGLE_BODY_LIMITS = {"/admin/": 41 * 1024 * 1024}
# What Django keeps in memory of a request's fields (files beyond it go to a temporary file).
DATA_UPLOAD_MAX_MEMORY_SIZE = BOGGLE_BODY_MAX_BYTES

# Compiled dictionaries, shared (memory-mapped) by every worker on the host.
BOGGLE_CACHE_DIR = Path(os.environ.get("BOGGLE_CACHE_DIR") or VAR_DIR / "cache")

# Players' accounts (games/accounts/views.py): pages that need one send others here.
LOGIN_URL = "login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic gathers the files WhiteNoise serves when DEBUG is false.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or VAR_DIR / "static")
if not DEBUG:
    # Hashed names let the proxy and browsers cache static files forever; needs collectstatic.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "boggle_site.storage.StaticStorage"},
    }

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Replaces Django's own console handler, which would print every record twice.
    "loggers": {"django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False}},
}
