"""Service gating: tests marked postgres, redis or browser need that service to be up.

Locally a missing service skips the test; under CI (CI=true) it fails it, so a broken
environment can never pass as a green run of skipped tests.
"""

import functools
import importlib.util
import os
import shutil
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import dj_database_url
import pytest

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
CHROMIUM = "/usr/bin/chromium"

# A probe returns None when the service is usable, else the reason it is not. The probes
# below are cached: a service is checked once per session, not once per test.
Probe = Callable[[], str | None]


def redis_url() -> str:
    """Return the Redis URL the redis-marked tests use."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def xdist_redis_url(url: str, worker: str) -> str:
    """Return `url` on the Redis database numbered after a pytest-xdist worker ("gw0" → 1,
    "gw1" → 2, …), so that parallel workers never see each other's groups and counters."""
    parts = urllib.parse.urlsplit(url)
    number = int(worker.removeprefix("gw")) + 1
    if number > 15:  # a Redis server has 16 databases, 0 to 15
        raise pytest.UsageError(f"at most 15 pytest-xdist workers share one Redis ({worker})")
    return urllib.parse.urlunsplit(parts._replace(path=f"/{number}"))


def _xdist_worker_isolate() -> None:
    """Under pytest-xdist (`make test` runs it), give this worker its own Redis database (its
    test database is its own already: pytest-django suffixes the name). The settings were
    read before this file (pytest-django loads them first), so the channel layer and the
    caches are set again here, before anything used them; servers the tests spawn inherit
    the environment."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not os.environ.get("REDIS_URL"):
        return
    from django.conf import settings

    from boggle_site.settings import caches_config, channel_layers_config

    url = xdist_redis_url(os.environ["REDIS_URL"], worker)
    os.environ["REDIS_URL"] = url
    settings.CHANNEL_LAYERS = channel_layers_config(url)
    settings.CACHES = caches_config(url)


_xdist_worker_isolate()


@functools.cache
def probe_postgres() -> str | None:
    """Check that DATABASE_URL names a PostgreSQL server that accepts connections."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not point to PostgreSQL"
    import psycopg
    from psycopg.conninfo import make_conninfo

    db = dj_database_url.parse(url)
    fields = {
        "host": db["HOST"],
        "port": db["PORT"],
        "user": db["USER"],
        "password": db["PASSWORD"],
    }
    params = {key: str(value) for key, value in fields.items() if value}
    # The maintenance database: the suite creates its own test database from there.
    try:
        conninfo = make_conninfo(dbname="postgres", connect_timeout=3, **params)
        psycopg.connect(conninfo).close()
    except psycopg.Error as error:
        return f"cannot connect to PostgreSQL: {error}"
    return None


@functools.cache
def probe_redis() -> str | None:
    """Check that a Redis server answers PING at redis_url()."""
    import redis

    client = redis.Redis.from_url(redis_url(), socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        return f"cannot reach Redis at {redis_url()}: {error}"
    finally:
        client.close()
    return None


@functools.cache
def probe_browser() -> str | None:
    """Check for Debian's Chromium and the playwright package that drives it."""
    if not shutil.which(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed"
    return None


SERVICE_PROBES: dict[str, Probe] = {
    "postgres": probe_postgres,
    "redis": probe_redis,
    "browser": probe_browser,
}


def require_service(name: str, probe: Probe) -> None:
    """Skip the current test if `probe` finds the service unusable; fail instead under CI."""
    problem = probe()
    if problem is None:
        return
    message = f"{name} unavailable: {problem}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (required when CI=true)", pytrace=False)
    pytest.skip(message)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Check the services a test is marked with before any of its fixtures run."""
    for name, probe in SERVICE_PROBES.items():
        if item.get_closest_marker(name) is not None:
            require_service(name, probe)


@pytest.fixture
def shipped_data(db: None) -> None:
    """The shipped dictionaries (YAWL default, ENABLE2K) and dice sets, in the test database.

    Function-scoped on purpose: transactional tests empty the database after them, so a
    session-scoped load would vanish. The lists are read and compressed once per session
    (solver.dictionaries.shipped caches them); after that a load is a few queries, or one quick
    insert of the stored lists when a transactional test has emptied the tables.
    """
    from solver.dictionaries.services import shipped_data_load

    shipped_data_load()


# Connections that threads other than the test's own opened (the services' thread pool, the
# executor behind database_sync_to_async, threads a test starts): Django keeps one per thread
# for CONN_MAX_AGE, and nothing closes it when the thread ends.
_thread_connections: list[Any] = []


def _track_thread_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if threading.current_thread() is not threading.main_thread():
        _thread_connections.append(connection)


@pytest.fixture(autouse=True)
def close_thread_connections() -> Iterator[None]:
    """After each test, close the database connections that other threads opened during it,
    so that none is left for the garbage collector (a ResourceWarning, an error here)."""
    from django.db.backends.signals import connection_created

    connection_created.connect(_track_thread_connection)
    try:
        yield
    finally:
        connection_created.disconnect(_track_thread_connection)
        thread_connections_close()


# The per-process caches (solver.caches) each test starts without: those keyed by database
# ids and seeds. Compiled dictionaries and board standings are keyed by their content and
# stay (tests that change them empty them themselves).
KEPT_PER_TEST = (
    "rounds kept",
    "bots' plans",
    "dice sets' kinds",
    "finished arena rounds",
    "room timers",
    "daily start kits",
)


@pytest.fixture(autouse=True)
def forget_kept_rounds() -> Iterator[None]:
    """Forget the rounds a process keeps (games.rounds.submissions) and the rooms' timers
    (games.rooms.timers), the daily boards' start kits (games.daily.services) and the dice
    sets' kinds (games.rounds.services): each test's
    database numbers its rooms, rounds and boards afresh. So do the rounds' facts and the
    computer players' plans, which a process keeps by round id and seed: a test rolled back
    on SQLite hands the next one the same ids (its sequences roll back too), and tests start
    their rounds from the same few seeds."""
    from solver.caches import caches_clear

    caches_clear(*KEPT_PER_TEST)
    yield


@pytest.fixture(autouse=True)
def throttle_counts_forgotten() -> None:
    """Each test starts with nothing counted against its address (games/limits/throttle.py):
    the suite's requests all come from 127.0.0.1, and misses counted by one test (ten unknown
    room codes in a minute) would refuse the next test's requests, depending on the order."""
    from django.conf import settings
    from django.core.cache import caches

    config = settings.CACHES["throttle"]
    if "redis" not in config["BACKEND"].lower():
        caches["throttle"].clear()  # this process's memory
        return
    # Only the throttle's keys: the worker's Redis database also holds channel layer groups.
    import redis

    client = redis.Redis.from_url(config["LOCATION"], socket_timeout=3)
    try:
        keys = list(client.scan_iter(match=f"{config['KEY_PREFIX']}:*", count=1000))
        if keys:
            client.delete(*keys)
    except redis.RedisError:
        pass  # no Redis: the tests that need it are marked and fail on their own
    finally:
        client.close()


def thread_connections_close() -> int:
    """Close the connections other threads opened since the last call; return how many."""
    closed = 0
    while _thread_connections:
        wrapper = _thread_connections.pop()
        wrapper.inc_thread_sharing()  # the thread is idle or gone: close it from here
        try:
            wrapper.close()
            closed += 1
        finally:
            wrapper.dec_thread_sharing()
    return closed


@pytest.fixture(scope="session", autouse=True)
def close_stray_connections(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """At the end, close the connections that worker threads (and spawned servers) kept open
    on PostgreSQL, so the test database can be dropped. Not when no test needed a database
    (a run of a few files): the connection is then on the configured database itself, and
    other sessions there (another pytest-xdist worker, a benchmark) are none of ours."""
    from django.conf import settings

    configured = settings.DATABASES["default"]["NAME"]  # before the test database's name
    yield
    from django.db import connection

    if connection.vendor != "postgresql" or connection.settings_dict["NAME"] == configured:
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session", autouse=True)
def no_sweep_thread_in_the_test_process() -> None:
    """Never run a sweep thread inside pytest (a test that calls the site's ASGI app would
    start one): it would end rounds of spawned workers and announce it to nobody. Spawned
    workers get BOGGLE_SWEEP_INTERVAL from their own environment."""
    from django.conf import settings

    settings.BOGGLE_SWEEP_INTERVAL = 0


@pytest.fixture(scope="session", autouse=True)
def no_background_standings_in_the_test_process() -> None:
    """Never compute a board standing in a background thread inside pytest: tests that start
    rounds of a kind not yet known would each start one (tests/games/rounds/test_results_standing.py
    turns it on, with the thread replaced, to test it)."""
    from django.conf import settings

    settings.BOARD_STANDINGS_IN_BACKGROUND = False


@pytest.fixture(scope="session", autouse=True)
def creation_limits_lifted() -> None:
    """Let the suite, which starts every room from one address, create as many rooms and
    seats, and open sockets as fast, as it needs (tests/site/test_limits.py,
    tests/games/limits/test_socket_limits.py and tests/resilience/test_socket_flood.py set them
    again to test them); spawned servers inherit the environment."""
    from django.conf import settings

    lifted = "1000000"
    for name in (
        "BOGGLE_ROOMS_PER_ADDRESS",
        "BOGGLE_SEATS_PER_ADDRESS",
        "BOGGLE_REPORTS_PER_ADDRESS",
        "BOGGLE_SOCKET_OPENS_BURST",
    ):
        os.environ.setdefault(name, lifted)
        setattr(settings, name, int(os.environ[name]))
