"""Computer players: seeded plans per level, playing through the same service, solo games."""

from __future__ import annotations

import gzip
import json
import random
import threading
from datetime import timedelta

import pytest
from django.db import OperationalError, close_old_connections, connection
from wordfreq import zipf_frequency

from games.bots import services as bots
from games.bots.plans import LEVELS, bot_plan, commonness
from games.models import Player, Room, Round, Submission
from games.protocol import NOT_HOST, ProtocolError
from games.rooms.services import JoinError, player_join
from games.rounds import services as rounds
from games.rounds.kinds import room_kind
from games.rounds.submissions import submission_create
from games.rules import clock
from solver.dictionaries.loading import SHIPPED
from solver.models import Dictionary
from tests.fixed_dice import words_needed
from tests.games.conftest import make_room, new_identity, reschedule, seat

WORDS = [
    "THE",
    "CAT",
    "DOG",
    "HOUSE",
    "WATER",
    "QUIXOTIC",
    "ZYZZYVA",
    "AALII",
    "TEA",
    "ATE",
    "EAT",
] * 3


def test_commonness_is_wordfreqs_zipf_figure_for_every_kind_of_word() -> None:
    yawl = gzip.decompress(SHIPPED["yawl"].read_bytes()).decode().split()
    words = random.Random(5).sample(yawl, 3000) + WORDS + ["QU", "A", "ÉTÉ", "DON'T", ""]
    assert [commonness(w) for w in words] == [zipf_frequency(w.lower(), "en") for w in words]
    assert commonness("THE") > 7 > commonness("HOUSE") > 5 > commonness("AALII") >= 0
    assert sum(commonness(w) > 0 for w in words) > 1000  # most dictionary words are known


def test_plans_are_reproducible_from_the_seed() -> None:
    one = bot_plan(words=WORDS, level="hard", seed="7-1", duration=180)
    assert one == bot_plan(words=WORDS, level="hard", seed="7-1", duration=180)
    assert one != bot_plan(words=WORDS, level="hard", seed="7-2", duration=180)


def test_easy_bots_find_common_short_words_every_several_seconds() -> None:
    plan = bot_plan(words=WORDS, level="easy", seed="s", duration=180)
    assert plan and all(len(w) <= 5 and commonness(w) >= LEVELS["easy"].min_zipf for _, w in plan)
    gaps = [b - a for (a, _), (b, _) in zip(plan, plan[1:], strict=False)]
    assert all(7.0 <= g <= 13.0 for g in gaps)
    assert plan[0][0] >= 2.0  # reads the board first


def test_medium_bots_find_common_words_of_any_length_at_a_steady_pace() -> None:
    words = ["HOUSE", "WATER", "BEAUTIFUL", "ZYZZYVA"]
    found = [w for _, w in bot_plan(words=words, level="medium", seed="s", duration=180)]
    assert "BEAUTIFUL" in found and "ZYZZYVA" not in found


COMMON = [
    "TIME",
    "YEAR",
    "PEOPLE",
    "WAY",
    "DAY",
    "MAN",
    "THING",
    "WOMAN",
    "LIFE",
    "CHILD",
    "WORLD",
    "SCHOOL",
    "STATE",
    "FAMILY",
    "STUDENT",
    "GROUP",
    "COUNTRY",
    "PROBLEM",
    "HAND",
    "PART",
    "PLACE",
    "CASE",
    "WEEK",
    "COMPANY",
    "SYSTEM",
    "PROGRAM",
    "QUESTION",
    "WORK",
    "NUMBER",
    "NIGHT",
    "POINT",
    "HOME",
    "WATER",
    "ROOM",
    "MOTHER",
    "AREA",
    "MONEY",
    "STORY",
    "FACT",
    "MONTH",
    "LOT",
    "RIGHT",
    "STUDY",
    "BOOK",
    "EYE",
    "JOB",
    "WORD",
    "BUSINESS",
    "ISSUE",
    "SIDE",
    "KIND",
    "HEAD",
    "HOUSE",
]


def test_hard_bots_find_most_words_fast() -> None:
    plan = bot_plan(words=COMMON, level="hard", seed="s", duration=180)
    assert len(plan) == round(len(COMMON) * LEVELS["hard"].share)
    gaps = [b - a for (a, _), (b, _) in zip(plan, plan[1:], strict=False)]
    assert all(1.0 <= g <= 2.5 for g in gaps)


def test_humbling_bots_find_every_word_even_rare_ones_within_the_round() -> None:
    rare = [f"XQZ{a}{b}" for a in "ABCDEFGHIJ" for b in "ABCDEFGHIJKLMNOPQRST"]
    plan = bot_plan(words=rare + COMMON, level="humbling", seed="s", duration=180)
    assert sorted(w for _, w in plan) == sorted(rare + COMMON)
    assert plan[-1][0] < 180
    assert bot_plan(words=rare, level="hard", seed="s", duration=180) == []


def test_a_bot_can_be_told_which_words_it_knows() -> None:
    plan = bot_plan(
        words=["HOUSE", "WATER"],
        level="medium",
        seed="s",
        duration=180,
        known={"WATER"}.__contains__,
    )
    assert [w for _, w in plan] == ["WATER"]


def test_untimed_rounds_pace_bots_over_three_minutes() -> None:
    plan = bot_plan(words=WORDS, level="humbling", seed="s", duration=None)
    assert plan and plan[-1][0] < 180


def test_only_the_host_adds_bots_with_a_known_level(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    guest, _ = seat(room, "Bob")
    with pytest.raises(ProtocolError) as info:
        bots.bot_add(room=room, by=guest, level="easy")
    assert info.value.code == NOT_HOST
    with pytest.raises(bots.BotError):
        bots.bot_add(room=room, by=host, level="genius")
    with pytest.raises(bots.BotError):
        bots.bot_add(room=room, by=host, level="easy", dictionary="klingon")
    first = bots.bot_add(room=room, by=host, level="easy")
    second = bots.bot_add(room=room, by=host, level="easy", dictionary="test")
    assert (first.nickname, second.nickname) == ("Computer (easy)", "Computer (easy) 2")
    assert first.is_bot and second.bot_dictionary_id == game_data.id


def test_no_computer_player_joins_a_daily_attempt_or_the_arena(game_data: Dictionary) -> None:
    """add_bot seated a humbling computer in a running daily attempt (the page hides the
    form in solo rooms; a frame written by hand did not ask the page)."""
    for kind in ("is_daily", "is_arena"):
        room, host, _ = make_room()
        Room.objects.filter(pk=room.pk).update(**{kind: True})
        room.refresh_from_db()
        with pytest.raises(bots.BotError, match="^No computer player joins a daily board"):
            bots.bot_add(room=room, by=host, level="humbling")
        assert not Player.objects.filter(room=room).exclude(bot_level="").exists()


def test_bots_play_through_the_service_and_cancel_a_humans_duplicates(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bot = bots.bot_add(room=room, by=host, level="humbling")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=11)
    reschedule(rnd, starts_in=-170, ends_in=10)
    (word,) = words_needed(rnd.solution, 1, rnd.board)
    answer = submission_create(
        player_id=host.id, room_id=room.id, client_id="h1", word=word, path=None, now=clock.now()
    )
    assert answer["accepted"]
    played = bots.bots_play(now=clock.now())
    assert played == len(rnd.solution)  # a humbling bot 170 s in has found everything
    assert bots.bots_play(now=clock.now()) == 0  # and plays nothing twice
    rounds.round_end(round_id=rnd.id, now=clock.now() + timedelta(seconds=30))
    results = Round.objects.get(pk=rnd.pk).results
    rows = {row["id"]: row for row in results["players"]}
    assert rows[host.id]["words"][0]["struck"] is True and rows[host.id]["score"] == 0
    assert rows[bot.id]["score"] == rnd.max_score - rnd.solution[0][2]
    assert results["missed"] == []


def test_bots_play_when_no_person_is_connected_and_pace_their_words(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    bot = bots.bot_add(room=room, by=host, level="medium")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=19)
    words_needed(rnd.solution, 21, rnd.board)  # more than a bot may play in the first minute
    reschedule(rnd, starts_in=-1, ends_in=179)
    assert bots.bots_play(now=clock.now()) == 0  # still reading the board
    later = clock.now() + timedelta(seconds=60)
    found = bots.bots_play(now=later)
    assert found == Submission.objects.filter(player=bot).count()
    assert found <= 60 / 3  # at most one word every three seconds


def test_a_bot_tick_reads_the_same_whatever_the_number_of_rooms_without_bots(
    game_data: Dictionary,
) -> None:
    """A rush of solo daily rooms (no bots) must not cost a query each, every second."""
    from django.test.utils import CaptureQueriesContext

    def tick_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert bots.bots_play(now=at) == 0
        return len(queries)

    room, host, _ = make_room()
    bots.bot_add(room=room, by=host, level="medium")
    reschedule(
        rounds.round_start(room=room, player=host, now=clock.now(), seed=19),
        starts_in=-1,
        ends_in=179,
    )
    # Every tick at the same moment, two seconds into the round, before the bot's first
    # word: on a loaded machine the rooms below take seconds to make, and a tick at the
    # real time then found a word due.
    at = clock.now() + timedelta(seconds=1)
    tick_queries()  # the bot's plan is made (and kept) at its first tick
    one_room = tick_queries()
    for seed in range(6):  # six more running rounds, no bot in them
        other, other_host, _ = make_room()
        rnd = rounds.round_start(room=other, player=other_host, now=clock.now(), seed=seed)
        reschedule(rnd, starts_in=-10, ends_in=170)
    assert tick_queries() == one_room <= 4


@pytest.mark.django_db(transaction=True)
def test_with_several_processes_each_bot_word_is_played_once(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    bots.bot_add(room=room, by=host, level="humbling")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=3)
    words_needed(rnd.solution, 3, rnd.board)  # words enough for three workers to race over
    reschedule(rnd, starts_in=-170, ends_in=10)
    barrier, errors = threading.Barrier(3), []

    def worker() -> None:
        barrier.wait()
        try:
            bots.bots_play(now=clock.now())
        except OperationalError:  # SQLite's in-memory test database refuses, never waits
            errors.append("locked")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bots.bots_play(now=clock.now())  # whatever a refused worker left, the next sweep plays
    words = list(Submission.objects.filter(round=rnd).values_list("word", flat=True))
    assert sorted(words) == sorted(w for w, _, _ in rnd.solution)
    if connection.vendor == "postgresql":
        assert not errors


def test_solo_games_give_the_computer_every_remaining_word(game_data: Dictionary) -> None:
    key = new_identity()
    from games.rooms.services import room_create

    room, me = room_create(identity=key, nickname="Solo", settings={"duration": 0}, solo=True)
    with pytest.raises(JoinError, match="solo"):
        player_join(room=room, identity=new_identity(), nickname="Gatecrasher")
    rnd = rounds.round_start(room=room, player=me, now=clock.now(), seed=7)
    reschedule(rnd, starts_in=-1, ends_in=None)
    words_needed(rnd.solution, 2, rnd.board)  # one for me, the rest for the computer
    mine = rnd.solution[0]
    submission_create(
        player_id=me.id, room_id=room.id, client_id="1", word=mine[0], path=None, now=clock.now()
    )
    rounds.round_end_by_host(room=room, player=me, now=clock.now())
    results = Round.objects.get(pk=rnd.pk).results
    computer = results["computer"]
    assert [w["word"] for w in computer["words"]] == sorted(w for w, _, _ in rnd.solution[1:])
    assert computer["score"] == rnd.max_score - mine[2]
    assert (
        "computer wins" in computer["verdict"]
        or "beat" in computer["verdict"]
        or "tie" in computer["verdict"]
    )
    assert Player.objects.filter(room=room).count() == 1


def test_missed_words_come_most_common_first_with_their_commonness(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=21)
    words_needed(rnd.solution, 2, rnd.board)  # two missed words at least, to be ordered
    rounds.round_end_by_host(room=room, player=host, now=clock.now())
    ended = Round.objects.select_related("room").get(pk=rnd.pk)
    results = room_kind(ended.room).results_seen(ended, host.pk)  # as the players read them
    zipf = {w["word"]: w["zipf"] for w in results["solution"]}
    ordered = [zipf[w] for w in results["missed"]]
    assert ordered == sorted(ordered, reverse=True)
    assert all(0 <= z <= 8 for z in zipf.values())


@pytest.mark.django_db
def test_bot_stats_reports_each_level(capsys: pytest.CaptureFixture[str]) -> None:
    from django.core.management import call_command

    from tests.games.conftest import DATA

    algs4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")
    call_command("bot_stats", "--boards", "5", "--dictionary", algs4)
    out = capsys.readouterr().out
    figures = json.loads(out.splitlines()[-1])
    assert set(figures) == set(LEVELS)
    assert figures["easy"]["words"] <= figures["medium"]["words"] <= figures["humbling"]["words"]
