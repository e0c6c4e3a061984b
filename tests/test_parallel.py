"""`make test` runs the suite in pytest-xdist processes: each keeps to its own Redis database,
so no process sees another's groups, throttle counters or socket counts."""

import os

import pytest
from django.conf import settings

from tests.conftest import xdist_redis_url


def test_each_worker_numbers_its_redis_database_after_itself() -> None:
    assert xdist_redis_url("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/1"
    assert xdist_redis_url("redis://127.0.0.1:6379", "gw2") == "redis://127.0.0.1:6379/3"
    assert (
        xdist_redis_url("redis://:secret@cache.example:6380/7?timeout=2", "gw14")
        == "redis://:secret@cache.example:6380/15?timeout=2"
    )


def test_more_workers_than_redis_has_databases_is_a_clear_error() -> None:
    with pytest.raises(pytest.UsageError, match="at most 15 pytest-xdist workers"):
        xdist_redis_url("redis://127.0.0.1:6379/0", "gw15")


def test_this_process_uses_the_redis_database_of_its_worker() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("REDIS_URL")
    if not worker or not url:
        pytest.skip("one process without Redis: nothing is shared")  # not a service: no CI fail
    number = int(worker.removeprefix("gw")) + 1
    assert url.endswith(f"/{number}")
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] == [url]
    assert settings.CACHES["throttle"]["LOCATION"] == url
