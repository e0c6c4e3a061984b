"""The load benchmarks' machinery, in miniature, so it cannot rot between the runs that
produce docs/operations.md's figures (the figures come from the commands, not from here)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from boggle_site.ops.arena_load import arena_cleanup, arena_load, arena_prepare, arena_words_stored
from boggle_site.ops.arena_scoring import arena_scoring_run
from boggle_site.ops.cluster import ONE_ADDRESS_LOAD, cluster_start
from boggle_site.ops.load import load_phases, rooms_prepare
from games.models import Arena
from solver.models import DefinitionSource, Dictionary
from tests.conftest import require_service
from tests.resilience.conftest import database_url, probe_redis_server

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_a_phased_load_on_two_workers_answers_everything(game_data: Any, tmp_path: Path) -> None:
    require_service("redis-server", probe_redis_server)
    prepared = rooms_prepare(rooms_count=2, players_per_room=6, duration=60)
    cluster = cluster_start(
        2,
        log_dir=tmp_path,
        secret_key=settings.SECRET_KEY,
        env={"DATABASE_URL": database_url(), **ONE_ADDRESS_LOAD},
    )
    rss: dict[str, list[int]] = {}
    edges: list[tuple[int, str]] = []
    try:
        results = asyncio.run(
            load_phases(
                urls=cluster.urls,
                prepared=prepared,
                rates=[1.0, 3.0],
                seconds=2,
                warmup=1,
                gap=0.2,
                seed=3,
                first=2,
                on_first=lambda: rss.setdefault("first", [w.rss_kib() for w in cluster.workers]),
                on_connected=lambda: rss.setdefault("all", [w.rss_kib() for w in cluster.workers]),
                on_phase=lambda index, edge: edges.append((index, edge)),
            )
        )
    finally:
        cluster.stop()
    assert edges == [(0, "start"), (0, "end"), (1, "start"), (1, "end")]
    assert all(kib > 0 for kib in rss["first"] + rss["all"])
    for result in results:
        assert result.clients == 12 and result.connect_failures == 0
        assert result.sent > 0 and result.lost == 0 and result.rate_limited == 0
        assert result.completed > 0 and len(result.latencies_ms) == result.acked
    assert results[1].sent > results[0].sent  # three words a second against one


def test_an_arena_load_on_two_workers_answers_everything_and_brings_results(
    game_data: Any, tmp_path: Path
) -> None:
    require_service("redis-server", probe_redis_server)
    setup = arena_prepare(players=12, play_seconds=25, dice="new16")
    cluster = cluster_start(
        2,
        log_dir=tmp_path,
        secret_key=settings.SECRET_KEY,
        env={"DATABASE_URL": database_url(), **ONE_ADDRESS_LOAD},
    )
    sizes: dict[int, int] = {}
    try:
        result = asyncio.run(
            arena_load(
                setup=setup,
                ws_urls=cluster.urls,
                http_urls=[w.http_url for w in cluster.workers],
                period=1.0,
                at_sizes=[4, 12],
                on_size=lambda size: sizes.setdefault(
                    size, sum(w.rss_kib() for w in cluster.workers)
                ),
            )
        )
    finally:
        cluster.stop()
    assert set(sizes) == {4, 12} and all(kib > 0 for kib in sizes.values())
    assert result.connected == 12 and result.connect_failures == 0
    assert result.sent > 0 and result.lost == 0 and len(result.ack_ms) == result.acked
    # Each acknowledgement split at the answer's server stamp: both parts, adding up (to the
    # stamp's millisecond and the two clocks' reading apart).
    assert len(result.ack_to_stamp_ms) == len(result.ack_from_stamp_ms) == result.acked
    for total, there, back in zip(
        result.ack_ms, result.ack_to_stamp_ms, result.ack_from_stamp_ms, strict=True
    ):
        assert there > -2 and back > -2 and abs(there + back - total) < 5
    stored = arena_words_stored(setup)
    for index, words in result.accepted.items():
        assert words <= stored[setup.player_ids[index]]  # every accepted word is in the round
    assert result.top_frames > 0 and result.top_age_ms  # the live top reached the players
    assert result.ended_seen == 12 and result.results_failed == []
    assert len(result.results_ms) == 12 and min(result.results_bytes) > 0
    assert result.results_over_http == 0  # each had their results on the socket
    arena_cleanup(setup)
    assert not Arena.objects.filter(slug=setup.slug).exists()


def test_an_arena_rounds_end_is_timed_alone_and_leaves_nothing_behind(game_data: Any) -> None:
    arenas = Arena.objects.count()
    run = arena_scoring_run(players=6, words_each=4, seed=1, dice="new16")
    assert run.players == 6 and run.entries == 6  # every player scored, once
    assert run.words == 6 * min(4, run.solution) and run.ms > 0
    assert run.load_ms > 0 and run.frames_ms > 0 and run.frames_bytes > 0  # every player's
    assert Arena.objects.count() == arenas


def test_a_workers_cpu_splits_into_its_event_loop_and_the_rest() -> None:
    """What bench_daily prints per player: the main thread's CPU, and the other threads'."""
    import os
    import threading
    import time

    from boggle_site.ops.cluster import loop_and_rest_cpu_seconds

    def spin(until: float) -> None:
        while time.thread_time() < until:
            pass

    loop_before, rest_before = loop_and_rest_cpu_seconds(os.getpid())
    worker = threading.Thread(target=spin, args=(0.3,))  # 0.3 s of CPU in another thread
    worker.start()
    worker.join()
    loop_after, rest_after = loop_and_rest_cpu_seconds(os.getpid())
    assert rest_after - rest_before >= 0.25  # clock ticks are 10 ms
    assert loop_after >= loop_before
    assert loop_and_rest_cpu_seconds(2**22 + 1) == (0.0, 0.0)  # no such process


def test_the_leaderboards_plans_name_each_table_they_scan_whole(game_data: Any) -> None:
    """bench_daily says which tables were read whole, and how big each is: a scan of one
    page of a fresh histogram is not a scan of 100,000 attempts."""
    from boggle_site.ops import daily_load

    plans = [
        "Sort\n  ->  Seq Scan on games_dailyscore (actual time=0.003..0.010 rows=120 loops=1)",
        "Limit\n  ->  Index Scan using daily_leaderboard on games_dailyattempt",
        "Aggregate\n  ->  Seq Scan on games_dailyscore",
    ]
    sizes = daily_load.scanned_tables(plans)
    assert list(sizes) == ["games_dailyscore"]
    rows, pages = sizes["games_dailyscore"]
    assert rows >= 0 and pages >= 0


def test_a_steps_cost_is_its_workers_cpu_less_the_idle_workers_over_the_same_time() -> None:
    """bench_daily's steps part: each step's CPU, summed over the players, less what the
    idle worker spends in as long (its sweep), per step; a player is every step once and
    each of its words."""
    from boggle_site.ops.daily_load import STEPS, StepCosts

    costs = StepCosts(idle_per_s=(0.001, 0.020))  # the idle worker: 1 ms and 20 ms a second
    costs.add("start", 1, (0.007, 0.019), wall_s=0.050)  # 7 ms and 19 ms over 50 ms
    costs.add("start", 1, (0.005, 0.017), wall_s=0.050)
    costs.add("word", 10, (0.015, 0.020), wall_s=0.5)
    costs.add("leaving", 2, (0.0, 0.001), wall_s=1.0)  # less than the idle worker: nothing
    assert costs.per_step_ms("start") == pytest.approx((5.95, 17.0))  # (7 - 0.05 + 5 - 0.05) / 2
    assert costs.per_step_ms("word") == pytest.approx((1.45, 1.0))
    assert costs.per_step_ms("leaving") == (0.0, 0.0)
    assert costs.per_step_ms("arrival") == (0.0, 0.0)  # not taken: nothing, not an error
    assert set(STEPS) == {"start", "arrival", "word", "leaving"}
    assert costs.player_ms(words=5) == pytest.approx(5.95 + 17.0 + 5 * 2.45)


def test_the_uploads_bench_measures_each_body_and_leaves_nothing_behind(
    game_data: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench_uploads in miniature: a 2 MiB multipart body refused by its size (413), the same
    chunked (no size: no body read, the form's CSRF check answers), a 1 MiB word list and a
    1 MiB definitions list stored through the admin (302); its dictionary, definitions source
    and user are gone afterwards."""
    monkeypatch.setenv("DATABASE_URL", database_url())  # gunicorn reads the test's database
    out = io.StringIO()
    call_command("bench_uploads", body_mib=2, list_mib=1, tsv_mib=1, stdout=out)
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])
    assert [(r["name"], r["status"]) for r in figures["rows"]] == [
        ("multipart 2 MiB", 413), ("chunked 2 MiB", 403), ("word list 1 MiB", 302),
        ("definitions 1.0 MiB", 302),
    ]  # fmt: skip
    assert all(r["peak_added_mib"] >= 0 and r["rss_before_mib"] > 0 for r in figures["rows"])
    assert lines[0].split()[:3] == ["request", "status", "time"]
    assert not Dictionary.objects.filter(slug__startswith="bench-upload-").exists()
    assert not DefinitionSource.objects.filter(language__startswith="x-bench-").exists()
    assert not User.objects.filter(username__startswith="bench-uploads-").exists()
