"""The daily board's arithmetic, with no database: seeds, days, rank, percentile, streaks and
the share text."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.daily.rules import (
    BEFORE_EPOCH,
    DAILY_EPOCH,
    DAILY_GAMES,
    FUTURE_DAY,
    NOT_A_DATE,
    UNKNOWN_GAME,
    DailyError,
    daily_day,
    daily_game,
    daily_seed,
    length_counts,
    share_text,
    streaks,
    utc_day,
)
from games.rules.standings import percentile_of, rank_of

GAME = DAILY_GAMES["4x4"]
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_daily_games_play_what_the_issue_names() -> None:
    four, five = DAILY_GAMES["4x4"], DAILY_GAMES["5x5"]
    assert (four.name, four.settings.dice, four.settings.dictionary) == (
        "Daily 4×4",
        "new16",
        "yawl",
    )
    assert (four.settings.duration, four.settings.min_length, four.settings.scoring) == (
        180,
        3,
        "classic",
    )
    assert (five.name, five.settings.dice, five.settings.min_length) == ("Daily 5×5", "big25", 4)
    assert five.settings.duration == 240
    assert four.settings.duplicates == five.settings.duplicates == "count"  # nothing struck


def test_a_days_seed_follows_from_the_game_the_date_and_the_secret_alone() -> None:
    day = date(2026, 12, 1)
    assert daily_seed(GAME, day, "s") == daily_seed(GAME, day, "s")
    others = {
        daily_seed(GAME, day + timedelta(days=1), "s"),
        daily_seed(GAME, day, "t"),
        daily_seed(DAILY_GAMES["5x5"], day, "s"),
    }
    assert daily_seed(GAME, day, "s") not in others and len(others) == 3
    assert 0 <= daily_seed(GAME, day, "s") < 2**62


def test_the_day_turns_at_midnight_utc_whatever_the_zone() -> None:
    late = datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)
    assert utc_day(late) == date(2026, 12, 1)
    assert utc_day(late + timedelta(seconds=1)) == date(2026, 12, 2)
    assert utc_day(late.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))) == date(
        2026, 12, 1
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [("yesterday", NOT_A_DATE), ("2026-13-01", NOT_A_DATE), ("2026-12-02", FUTURE_DAY),
     ((DAILY_EPOCH - timedelta(days=1)).isoformat(), BEFORE_EPOCH)],
)  # fmt: skip
def test_a_day_not_out_or_not_a_date_is_refused_with_its_reason(text: str, message: str) -> None:
    with pytest.raises(DailyError) as refused:
        daily_day(text, now=NOON)
    assert str(refused.value) == message


def test_today_and_past_days_are_days() -> None:
    assert daily_day("2026-12-01", now=NOON) == date(2026, 12, 1)
    assert daily_day(DAILY_EPOCH.isoformat(), now=NOON) == DAILY_EPOCH


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(DailyError, match=UNKNOWN_GAME):
        daily_game("6x6")


def test_numbers_count_days_from_the_first() -> None:
    assert GAME.number(DAILY_EPOCH) == 1
    assert GAME.number(DAILY_EPOCH + timedelta(days=30)) == 31


@given(st.lists(st.integers(0, 60), min_size=1, max_size=40), st.data())
def test_rank_and_percentile_agree_with_counting_by_hand(
    scores: list[int], data: st.DataObject
) -> None:
    mine = data.draw(st.sampled_from(scores))
    ordered = sorted(scores, reverse=True)
    assert rank_of(mine, scores) == ordered.index(mine) + 1  # ties share the better rank
    below = len([s for s in scores if s < mine])
    assert percentile_of(below=below, players=len(scores)) == int(100 * below / len(scores))


def test_percentile_examples() -> None:
    assert percentile_of(below=988, players=1204) == 82  # "better than 82% of 1,204"
    assert percentile_of(below=0, players=1) == 0
    assert percentile_of(below=0, players=0) == 0
    assert rank_of(10, [30, 20, 20, 10, 5]) == 4


def d(n: int) -> date:
    return date(2026, 12, 1) + timedelta(days=n)


def test_a_streak_counts_days_in_a_row_and_survives_until_today_is_over() -> None:
    assert streaks([d(0), d(1), d(2)], today=d(2)) == (3, 3)
    assert streaks([d(0), d(1), d(2)], today=d(3)) == (3, 3)  # today still to play
    assert streaks([d(0), d(1), d(2)], today=d(4)) == (0, 3)  # a day missed
    assert streaks([d(0), d(1), d(3), d(4), d(5), d(7)], today=d(7)) == (1, 3)
    assert streaks([d(2), d(0), d(1), d(1)], today=d(2)) == (3, 3)  # order and repeats
    assert streaks([], today=d(0)) == (0, 0)


def test_word_lengths_are_counted_from_the_minimum_with_a_last_row_for_long_words() -> None:
    words = ["CAT", "CATS", "TACKS", "ABCDEFGH", "ABCDEFGHIJ"]
    assert length_counts(words, 3) == {3: 1, 4: 1, 5: 1, 6: 0, 7: 0, 8: 2}


def test_the_share_text_tells_everything_but_the_words() -> None:
    words = ["STONE", "TONES", "NOTES", "ONSET", "SET", "TOE", "QUEST", "LONGWORDS"]
    text = share_text(
        game=GAME, day=DAILY_EPOCH + timedelta(days=11), score=21, words=words, below=988,
        players=1204, ranked=True,
    )  # fmt: skip
    assert text.splitlines()[:3] == [
        "Boggle Online · Daily 4×4 #12",
        "21 points · 8 words",
        "Better than 82% of 1,204 players",
    ]
    assert "3  ■■ 2" in text and "5  ■■■■■ 5" in text and "4  · 0" in text and "8+ ■ 1" in text
    for word in words:
        assert word not in text.upper()


def test_an_unranked_replay_says_so_in_its_share_text() -> None:
    text = share_text(
        game=GAME, day=DAILY_EPOCH, score=1, words=["CAT"], below=0, players=0, ranked=False
    )
    assert text.splitlines()[1:3] == ["1 point · 1 word", "Played after the day (unranked)"]


def test_the_first_player_of_a_board_is_told_so_not_better_than_0_percent() -> None:
    text = share_text(
        game=GAME, day=DAILY_EPOCH, score=3, words=["CAT"], below=0, players=1, ranked=True
    )
    assert text.splitlines()[2] == "First to play this board"
    two = share_text(
        game=GAME, day=DAILY_EPOCH, score=3, words=["CAT"], below=1, players=2, ranked=True
    )
    assert two.splitlines()[2] == "Better than 50% of 2 players"
