"""A round's clock is a value: everything about a round's time follows from a given now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.rules.clock import COUNTDOWN, GRACE, RoundClock, due_if_ended_by

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
S = timedelta(seconds=1)


def test_a_started_round_counts_down_then_plays_for_its_duration() -> None:
    clock = RoundClock.starting(now=T0, duration=180 * S)
    assert clock.starts_at == T0 + COUNTDOWN and clock.ends_at == clock.starts_at + 180 * S
    assert clock.until_start(T0) == COUNTDOWN and clock.until_start(T0 + 10 * S) == timedelta(0)
    assert clock.remaining(T0) == 180 * S  # the countdown does not eat playing time
    assert clock.remaining(clock.starts_at + 60 * S) == 120 * S
    assert clock.remaining(clock.ends_at + S) == timedelta(0)  # type: ignore[operator]


def test_an_untimed_round_has_no_remaining_time_and_is_never_due() -> None:
    clock = RoundClock.starting(now=T0, duration=None)
    assert clock.ends_at is None and clock.remaining(T0) is None
    assert clock.until_due(T0) is None
    assert not clock.is_due(T0 + timedelta(days=1))
    assert clock.accepts_words(T0 + timedelta(days=1))


@pytest.mark.parametrize(
    ("at", "accepts", "due"),
    [
        (-1 * S, False, False),  # before the board shows
        (0 * S, True, False),
        (59 * S, True, False),
        (60 * S, True, False),  # zero on the clock: words still in flight count
        (60 * S + GRACE - timedelta(milliseconds=1), True, False),
        (60 * S + GRACE, False, True),  # the grace is over: the round is due
        (3600 * S, False, True),
    ],
)
def test_words_count_until_the_grace_is_over_and_then_the_round_is_due(
    at: timedelta, accepts: bool, due: bool
) -> None:
    clock = RoundClock(T0, T0 + 60 * S)
    assert clock.accepts_words(T0 + at) is accepts
    assert clock.is_due(T0 + at) is due


def test_the_wait_until_due_includes_the_grace_and_never_goes_negative() -> None:
    clock = RoundClock(T0, T0 + 60 * S)
    assert clock.until_due(T0) == 60 * S + GRACE
    assert clock.until_due(T0 + 120 * S) == timedelta(0)


def test_the_grace_is_part_of_the_value() -> None:
    clock = RoundClock(T0, T0 + 60 * S, grace=5 * S)
    assert clock.accepts_words(T0 + 64 * S) and clock.is_due(T0 + 65 * S)


def test_the_database_form_of_due_agrees_with_the_value() -> None:
    now = T0 + 100 * S
    for ends_at in (now - GRACE - S, now - GRACE, now - GRACE + S, now):
        assert (ends_at <= due_if_ended_by(now)) is RoundClock(T0, ends_at).is_due(now)


def test_a_server_may_give_rounds_a_shorter_countdown(settings: object) -> None:
    from games.rules import clock

    assert clock.countdown() == COUNTDOWN  # unset: the game's three seconds
    settings.BOGGLE_COUNTDOWN_SECONDS = 1.5  # type: ignore[attr-defined]
    assert clock.countdown() == timedelta(seconds=1.5)
    started = RoundClock.starting(now=T0, duration=60 * S, countdown=clock.countdown())
    assert started.starts_at == T0 + timedelta(seconds=1.5)
    assert started.ends_at == started.starts_at + 60 * S  # the countdown eats no playing time
