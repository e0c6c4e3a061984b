"""The load benchmarks' own arguments and arithmetic (their runs are in tests/resilience)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from boggle_site.ops.management.commands.bench_soak import slope_per_minute


def test_a_soak_trend_is_the_least_squares_slope_per_minute() -> None:
    assert slope_per_minute([(0.0, 100.0), (60.0, 100.0), (120.0, 100.0)]) == 0.0
    assert slope_per_minute([(0.0, 100.0), (30.0, 100.5), (60.0, 101.0)]) == pytest.approx(1.0)
    assert slope_per_minute([(0.0, 100.0)]) == 0.0  # one sample has no trend


@pytest.mark.parametrize(
    ("command", "args", "message"),
    [
        ("bench_soak", ["--round-seconds", "10"], "rounds last 30 seconds at least"),
        ("bench_scale", ["--rates", "1,x"], "not a list of numbers"),
        ("bench_scale", ["--rates", "0"], "need positive numbers"),
        ("bench_scale", ["--rates", "10"], "keep --rates at 6 or less"),
        ("bench_rooms", ["--clients", "10", "--rooms", "20"], "--clients must be at least"),
        ("bench_daily", ["--play", "0"], "--over and --play must be positive"),
        ("bench_daily", ["--rate", "9"], "--rate in"),
        ("bench_arena", ["--period", "0"], "--period must be positive"),
        ("bench_arena", ["--play", "20"], "--play must be 30 seconds or more"),
    ],
)
@pytest.mark.django_db  # a benchmark needs the database: it checks that it is set up first
def test_bad_benchmark_arguments_are_refused_before_anything_starts(
    command: str, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        call_command(command, *args)
