"""The per-process caches (solver.caches): each is registered once, by name, and one call
empties them all, as a newly started worker has them."""

from __future__ import annotations

import games.sweeper  # noqa: F401
import games.urls  # noqa: F401 (imports every feature, as a worker does)
from games.routing import websocket_application
from solver.caches import cache_register, caches_clear, caches_registered
from tests.conftest import KEPT_PER_TEST


def test_every_cache_a_worker_keeps_is_registered_and_those_tests_forget_exist() -> None:
    websocket_application()
    registered = set(caches_registered())
    assert set(KEPT_PER_TEST) <= registered
    assert {"compiled dictionaries", "board standings", "definition glossaries"} <= registered


def test_clearing_empties_the_named_caches_or_every_one() -> None:
    kept = {"a": [1], "b": [2]}
    cache_register("test cache a", kept["a"].clear)
    cache_register("test cache b", kept["b"].clear)
    caches_clear("test cache a", "a cache nobody registered")
    assert kept == {"a": [], "b": [2]}
    kept["a"].append(1)
    caches_clear()
    assert kept == {"a": [], "b": []}
