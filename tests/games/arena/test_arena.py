"""The arena: its schedule (with nobody in, across restarts, for a late joiner), its rule that
no word is struck, its results shaped per player, and its live top 10 (docs/arena.md).

Every test injects the time: the schedule is data, so "a worker restarted" is only a later
call with a later `now`, and "nobody was connected" is no call at all in between.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games import protocol, sweeper
from games.arena import services as arena_service
from games.arena.results import TOP, arena_results_personal, arena_results_score
from games.arena.schedule import MIN_LEFT, ArenaSchedule, arena_seed
from games.arena.selectors import arena_next_due
from games.models import Arena, ArenaEntry, Player, Round, Submission
from games.realtime.outbox import outbox_collect
from games.rounds.services import round_end, rounds_end_due
from games.rounds.submissions import submission_create
from games.rules import clock
from games.rules.clock import GRACE, RoundClock
from games.rules.scoring import Ratings
from games.rules.standings import percentile_of
from tests.fixed_dice import FIXED_DICE_SLUG, FIXED_WORDS_ALGS4
from tests.games.conftest import migrate_to, new_identity

EPOCH = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PLAY, RESULTS = timedelta(seconds=120), timedelta(seconds=30)
PERIOD = PLAY + RESULTS


def at(seconds: float) -> datetime:
    """Return the moment `seconds` after the arena's epoch."""
    return EPOCH + timedelta(seconds=seconds)


def make_arena(slug: str = "test") -> Arena:
    """An arena on the fixed 2×2 dice (S I T E: the same words whatever the seed)."""
    return arena_service.arena_create(
        slug=slug, name="Test arena", now=EPOCH, dice=FIXED_DICE_SLUG, band="", min_length=3
    )


def submit(arena: Arena, player_id: int, word: str, now: datetime) -> dict:
    return submission_create(
        player_id=player_id, room_id=arena.room_id, client_id=f"{player_id}-{word}",
        word=word, path=None, now=now,
    )  # fmt: skip


# The schedule as values -----------------------------------------------------------------


def test_round_k_starts_at_epoch_plus_k_periods() -> None:
    schedule = ArenaSchedule(EPOCH, PLAY, RESULTS)
    assert schedule.starts_at(7) == EPOCH + 7 * PERIOD
    assert schedule.ends_at(7) == EPOCH + 7 * PERIOD + PLAY
    assert schedule.slot(at(7 * 150 + 149)) == 7
    assert schedule.slot(at(8 * 150)) == 8
    assert schedule.number(0) == 1 and schedule.k_of(schedule.number(41)) == 41


def test_a_visitor_plays_the_round_under_way_unless_it_is_nearly_over() -> None:
    assert GRACE < MIN_LEFT  # a round a visitor is given takes their words for a while
    schedule = ArenaSchedule(EPOCH, PLAY, RESULTS)
    assert schedule.next_to_play(at(60)) == 0
    assert schedule.next_to_play(at(120) - MIN_LEFT) == 0
    assert schedule.next_to_play(at(121) - MIN_LEFT) == 1
    assert schedule.next_to_play(at(130)) == 1  # in the results: the next round
    assert schedule.next_to_play(at(-500)) == 0  # before the epoch: the first


def test_new_timings_apply_from_the_next_round_and_numbers_carry_on() -> None:
    schedule = ArenaSchedule(EPOCH, PLAY, RESULTS)
    now = at(3 * 150 + 40)  # round 4 (k = 3) is under way
    retimed = schedule.retimed(now=now, play=timedelta(seconds=60), results=timedelta(seconds=20))
    assert retimed.epoch == schedule.starts_at(4)
    assert retimed.number(retimed.slot(retimed.epoch)) == schedule.number(4)
    assert retimed.starts_at(1) == schedule.starts_at(4) + timedelta(seconds=80)


def test_every_worker_derives_the_same_seed_and_rounds_differ() -> None:
    assert arena_seed(3, 17, "secret") == arena_seed(3, 17, "secret")
    assert arena_seed(3, 17, "secret") != arena_seed(3, 18, "secret")
    assert arena_seed(3, 17, "secret") != arena_seed(4, 17, "secret")
    assert arena_seed(3, 17, "secret") != arena_seed(3, 17, "other")


# The schedule kept in the database ----------------------------------------------------


@pytest.mark.usefixtures("game_data")
def test_the_first_visitor_joins_the_round_under_way_with_the_time_it_has_left() -> None:
    arena = make_arena()
    now = at(70)
    rnd = arena_service.arena_round_ensure(arena=arena, now=now)
    assert rnd is not None and rnd.number == 1
    assert (rnd.starts_at, rnd.ends_at) == (EPOCH, EPOCH + PLAY)
    assert RoundClock.of(rnd).remaining(now) == timedelta(seconds=50)
    assert rnd.seed == arena_seed(arena.pk, 1, _secret())
    again = arena_service.arena_round_ensure(arena=arena, now=at(71))
    assert again is not None and again.pk == rnd.pk  # stored once


@pytest.mark.usefixtures("game_data")
def test_a_late_joiner_waits_for_the_next_round_when_too_little_is_left() -> None:
    arena = make_arena()
    rnd = arena_service.arena_round_ensure(arena=arena, now=at(110))  # 10 s left
    assert rnd is not None and rnd.number == 2
    assert rnd.starts_at == EPOCH + PERIOD
    assert not RoundClock.of(rnd).accepts_words(at(110))
    assert "board" not in _started_event(arena)["round"]  # no board before its start


@pytest.mark.usefixtures("game_data")
def test_the_schedule_holds_with_nobody_connected_and_across_restarts() -> None:
    arena = make_arena()
    first = arena_service.arena_round_ensure(arena=arena, now=at(5))
    assert first is not None
    # Nobody is connected at time-up: the sweep ends the round all the same.
    assert rounds_end_due(now=at(121)) == 1
    first.refresh_from_db()
    assert first.status == Round.FINISHED and first.results is not None
    # Every worker restarts and nobody comes for ten periods: the next visitor finds round
    # 11 on time, not a round counted from the restart.
    later = arena_service.arena_round_ensure(arena=arena, now=at(10 * 150 + 30))
    assert later is not None and later.number == 11
    assert (later.starts_at, later.ends_at) == (EPOCH + 10 * PERIOD, EPOCH + 10 * PERIOD + PLAY)
    assert Round.objects.filter(room=arena.room).count() == 2


@pytest.mark.usefixtures("game_data")
def test_a_round_left_running_is_ended_by_the_next_visitor() -> None:
    arena = make_arena()
    first = arena_service.arena_round_ensure(arena=arena, now=at(5))
    assert first is not None
    after = arena_service.arena_round_ensure(arena=arena, now=at(400))  # no sweep ran
    first.refresh_from_db()
    assert first.status == Round.FINISHED
    assert after is not None and after.number == 3
    assert not round_end(round_id=first.id, now=at(401))  # ended once


@pytest.mark.usefixtures("game_data")
def test_an_arena_that_is_off_draws_no_new_round() -> None:
    arena = make_arena()
    Arena.objects.filter(pk=arena.pk).update(is_active=False)
    arena.refresh_from_db()
    assert arena_service.arena_round_ensure(arena=arena, now=at(5)) is None
    assert not Round.objects.filter(room=arena.room).exists()


# Playing ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("game_data")
def test_no_word_is_struck_in_the_arena() -> None:
    arena = make_arena()
    ann = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Ann")
    bob = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Bob")
    rnd = arena_service.arena_round_ensure(arena=arena, now=at(1))
    assert rnd is not None
    for player in (ann, bob):
        player.last_seen_at = at(2)
        player.save(update_fields=["last_seen_at"])
    assert submit(arena, ann.id, "SITE", at(10))["accepted"]
    assert submit(arena, bob.id, "SITE", at(11))["accepted"]
    assert submit(arena, bob.id, "TIE", at(12))["accepted"]
    assert round_end(round_id=rnd.id, now=at(121))
    entries = {e.player_id: e for e in ArenaEntry.objects.filter(round=rnd)}
    assert entries[ann.id].score == 1 and entries[bob.id].score == 2
    assert [w["only_me"] for w in json.loads(entries[ann.id].words)] == [False]
    bobs = json.loads(entries[bob.id].words)
    assert {w["word"]: w["only_me"] for w in bobs} == {"SITE": False, "TIE": True}
    assert [w["struck"] for w in bobs] == [False, False]
    assert json.loads(entries[bob.id].only_me) == ["TIE"] and entries[bob.id].word_count == 2
    assert json.loads(entries[ann.id].only_me) == [] and entries[ann.id].word_count == 1
    assert (entries[bob.id].rank, entries[ann.id].rank) == (1, 2)


@pytest.mark.usefixtures("game_data")
def test_a_word_outside_a_round_is_refused_and_changes_nothing() -> None:
    arena = make_arena()
    ann = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Ann")
    before = submit(arena, ann.id, "SITE", at(1))  # no round stored yet
    assert before["reason"] == protocol.ROUND_NOT_RUNNING
    arena_service.arena_round_ensure(arena=arena, now=at(110))  # round 2, not started
    early = submit(arena, ann.id, "SITE", at(111))
    assert not early["accepted"] and early["reason"] == protocol.ROUND_NOT_RUNNING
    assert not Submission.objects.exists()


@pytest.mark.usefixtures("game_data")
def test_a_seat_is_kept_and_names_that_read_alike_are_numbered() -> None:
    arena = make_arena()
    identity = new_identity()
    ann = arena_service.arena_join(arena=arena, identity=identity, nickname="Ann")
    assert arena_service.arena_join(arena=arena, identity=identity, nickname="Zed").pk == ann.pk
    other = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="ANN")
    assert other.nickname == "ANN 2"


# Results ----------------------------------------------------------------------------------


def test_rank_and_percentile_match_a_brute_force_count() -> None:
    rng = random.Random(15)
    solution = [(f"W{i:03}", [i % 16], rng.randrange(1, 4)) for i in range(40)]
    players = {i: f"p{i}" for i in range(1, 301)}
    rows = [
        (pid, word, json.dumps(path), points)
        for pid in players
        for word, path, points in rng.sample(solution, rng.randrange(0, 12))
    ]
    scored = arena_results_score(
        solution=solution, rows=rows, players=players, rated=Ratings(lambda word: 0.0)
    )
    scores = {pid: sum(points for p, _, _, points in rows if p == pid) for pid in players}
    assert len(scored.entries) == 300
    for entry in scored.entries:
        assert entry.score == scores[entry.player_id]
        greater = sum(1 for s in scores.values() if s > entry.score)
        less = sum(1 for s in scores.values() if s < entry.score)
        assert entry.rank == greater + 1
        assert percentile_of(below=entry.below, players=entry.players) == 100 * less // 300
        words = json.loads(entry.words)
        mine = [(w, p) for p, w, _, _ in rows if p == entry.player_id]
        assert [w["word"] for w in words] == sorted(w for w, _ in mine)
        others = {w for p, w, _, _ in rows if p != entry.player_id}
        assert all(w["only_me"] == (w["word"] not in others) for w in words)
        assert json.loads(entry.only_me) == [w["word"] for w in words if w["only_me"]]
        assert entry.word_count == len(words)
    shared = scored.shared
    assert len(shared["players"]) == TOP
    assert all(p["words"] == [] for p in shared["players"])
    assert [p["score"] for p in shared["players"]] == sorted(scores.values(), reverse=True)[:TOP]
    counts = {w["word"]: w["found_count"] for w in shared["solution"]}
    assert counts == {w: sum(1 for _, x, _, _ in rows if x == w) for w, _, _ in solution}
    assert set(shared["missed"]) == {w for w, n in counts.items() if n == 0}


@pytest.mark.usefixtures("game_data")
def test_each_player_gets_their_own_results_and_nobody_elses_words() -> None:
    arena = make_arena()
    ann = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Ann")
    bob = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Bob")
    rnd = arena_service.arena_round_ensure(arena=arena, now=at(1))
    assert rnd is not None
    for word in ("SITE", "TIES", "SET"):
        submit(arena, ann.id, word, at(10))
    submit(arena, bob.id, "TIE", at(10))
    submit(arena, bob.id, "SITE", at(10))
    round_end(round_id=rnd.id, now=at(121))
    rnd.refresh_from_db()
    mine = arena_results_personal(rnd, bob.id)
    assert mine["arena"] == {
        "players": 2, "played": True, "score": 2, "rank": 2, "percentile": 0, "only_me": ["TIE"]
    }  # fmt: skip
    rows = {p["id"]: p for p in mine["players"]}
    assert rows[ann.id]["words"] == [] and rows[ann.id]["score"] == 3
    assert {w["word"] for w in rows[bob.id]["words"]} == {"SITE", "TIE"}
    shown = {"word", "path", "points", "struck", "zipf", "commonness", "only_me"}
    assert all(w.keys() == shown and not w["struck"] for w in rows[bob.id]["words"])
    ratings = {w["word"]: (w["zipf"], w["commonness"]) for w in mine["solution"]}
    assert all(ratings[w["word"]] == (w["zipf"], w["commonness"]) for w in rows[bob.id]["words"])
    found = {w["word"]: w["found_by"] for w in mine["solution"]}
    assert found["TIES"] == [] and found["SITE"] == [bob.id]
    counts = {w["word"]: w["found_count"] for w in mine["solution"]}
    assert counts["SITE"] == 2 and counts["TIES"] == 1
    assert set(found) == FIXED_WORDS_ALGS4  # the full solution, with paths
    assert all(w["path"] for w in mine["solution"])


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_entries_stored_before_it_ready_to_send() -> None:
    """Entries stored before 0013 get each word as results show it (struck false, its
    commonness from the round's solution), how many, and the words only they found."""
    old = migrate_to(("games", "0012_arena_entry_words_text"))
    room = old.get_model("games", "Room").objects.create(code="BCDFGH", is_arena=True)
    ann = old.get_model("games", "Player").objects.create(
        room=room, nickname="Ann", nickname_key="ann"
    )
    solution = [
        {"word": word, "path": [0, 1, 2], "points": 1, "zipf": zipf, "commonness": label}
        for word, zipf, label in (("SET", 4.7, "everyday"), ("TIE", 3.5, "common"))
    ]
    rnd = old.get_model("games", "Round").objects.create(
        room=room, number=1, status="finished", board="SITE", seed=1, settings={},
        dictionary_hash="", solution=[], max_score=2, starts_at=EPOCH, finished_at=at(121),
        results={"solution": solution},
    )  # fmt: skip
    words = [
        {"word": "SET", "path": [0, 1, 2], "points": 1, "only_me": False},
        {"word": "TIE", "path": [2, 1, 3], "points": 1, "only_me": True},
    ]
    old.get_model("games", "ArenaEntry").objects.create(
        round=rnd, player=ann, nickname="Ann", score=2, rank=1, below=0, players=1,
        words=json.dumps(words),
    )  # fmt: skip

    entry = migrate_to(("games", "0013_arena_entry_ready_to_send")).get_model("games", "ArenaEntry")
    stored = entry.objects.get()
    assert json.loads(stored.words) == [
        {**words[0], "struck": False, "zipf": 4.7, "commonness": "everyday"},
        {**words[1], "struck": False, "zipf": 3.5, "commonness": "common"},
    ]
    assert stored.word_count == 2 and json.loads(stored.only_me) == ["TIE"]
    migrate_to()


@pytest.mark.postgres
@pytest.mark.usefixtures("game_data")
def test_entries_copied_on_postgresql_are_those_another_database_inserts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connection

    arena = make_arena()
    names = ["Ann", "O'Neil", "Zoë_2"]
    seats = [
        arena_service.arena_join(arena=arena, identity=new_identity(), nickname=name)
        for name in names
    ]
    rnd = arena_service.arena_round_ensure(arena=arena, now=at(1))
    assert rnd is not None
    rows = [
        (seat.id, word, json.dumps(path), points)
        for n, seat in enumerate(seats)
        for word, path, points in rnd.solution[: 2 + n]
    ]
    rows.append((seats[0].id, "ÜBER", "[0, 1, 2, 3]", 2))  # \u00dc in its JSON: a backslash
    scored = arena_results_score(
        solution=rnd.solution, rows=rows, players={s.id: s.nickname for s in seats},
        rated=Ratings(lambda word: 3.0),
    )  # fmt: skip
    columns = ("player_id", "nickname", "score", "rank", "below", "players", "words")

    def stored() -> list[tuple]:
        entries = ArenaEntry.objects.filter(round=rnd).order_by("player_id")
        return list(entries.values_list(*columns, "word_count", "only_me"))

    scored.store(rnd.id)  # copied
    copied = stored()
    ArenaEntry.objects.filter(round=rnd).delete()
    monkeypatch.setattr(connection, "vendor", "another")
    scored.store(rnd.id)  # inserted
    assert stored() == copied and len(copied) == 3
    assert {row[1] for row in copied} == {seat.nickname for seat in seats}
    assert [json.loads(row[6]) for row in copied] == [json.loads(e.words) for e in sorted(
        scored.entries, key=lambda e: e.player_id)]  # fmt: skip


@pytest.mark.postgres
@pytest.mark.django_db
def test_an_entrys_words_are_compressed_with_lz4_where_postgresql_has_it() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        (known,) = cursor.fetchone()
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attname = 'words'",
            [ArenaEntry._meta.db_table],
        )
        (method,) = cursor.fetchone()
    assert method == ("l" if known else "")


# The live top 10 ----------------------------------------------------------------------------


@pytest.mark.usefixtures("game_data")
def test_the_live_top_carries_points_never_words_and_goes_once_a_second(
    django_capture_on_commit_callbacks: Any,
) -> None:
    arena = make_arena()
    players = [
        arena_service.arena_join(arena=arena, identity=new_identity(), nickname=f"P{i}")
        for i in range(12)
    ]
    rnd = arena_service.arena_round_ensure(arena=arena, now=at(1))
    assert rnd is not None
    for i, player in enumerate(players):
        for word in sorted(FIXED_WORDS_ALGS4)[: 1 + i % 6]:
            submit(arena, player.id, word, at(5))
    # The test's transaction never commits: the on-commit effects run here, into the outbox.
    with outbox_collect() as outbox, django_capture_on_commit_callbacks(execute=True):
        assert arena_service.arena_top_send(arena=arena, now=at(6))
        assert not arena_service.arena_top_send(arena=arena, now=at(6.5))  # coalesced
        assert arena_service.arena_top_send(arena=arena, now=at(7))
    sent = [message["message"] for _, message in outbox.messages]
    assert len(sent) == 2
    top = sent[0]
    assert top["type"] == protocol.ARENA_TOP and top["round"] == rnd.number
    assert top["players"] == 12 and len(top["top"]) == TOP
    assert [m["at"] for m in sent] == [clock.millis(at(6)), clock.millis(at(7))]  # when counted
    assert [row["points"] for row in top["top"]] == sorted(
        (row["points"] for row in top["top"]), reverse=True
    )
    assert all(set(row) == {"id", "nickname", "points"} for row in top["top"])
    frame = protocol.dump(top)
    for word in FIXED_WORDS_ALGS4:
        assert word not in frame


@pytest.mark.usefixtures("game_data")
def test_the_sweeps_tick_keeps_an_arena_someone_is_in_on_schedule() -> None:
    arena = make_arena()
    assert arena_service.arenas_tick(now=at(5)) == 0  # nobody in: nothing drawn
    assert not Round.objects.exists()
    ann = arena_service.arena_join(arena=arena, identity=new_identity(), nickname="Ann")
    Player.objects.filter(pk=ann.pk).update(connections=1)
    assert arena_service.arenas_tick(now=at(5)) == 1
    first = Round.objects.get(room=arena.room)
    assert first.number == 1 and first.status == Round.RUNNING
    arena_service.arenas_tick(now=at(121))  # time-up: ended, and the next one announced
    first.refresh_from_db()
    assert first.status == Round.FINISHED
    second = Round.objects.get(room=arena.room, number=2)
    assert second.starts_at == EPOCH + PERIOD and second.status == Round.RUNNING


@pytest.mark.usefixtures("game_data")
def test_the_sweep_announces_a_rounds_end_before_drawing_the_next(
    django_capture_on_commit_callbacks: Any,
) -> None:
    arena = make_arena()
    first = arena_service.arena_round_ensure(arena=arena, now=at(5))
    assert first is not None
    assert arena_service.arenas_end_due(now=at(119)) == 0  # not due yet
    with outbox_collect() as outbox, django_capture_on_commit_callbacks(execute=True):
        assert arena_service.arenas_end_due(now=at(121)) == 1
    events = [message["event"] for _, message in outbox.messages if "event" in message]
    assert events == [protocol.ROUND_ENDED]  # out as this call returns: no draw before it
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    assert arena_service.arenas_end_due(now=at(122)) == 0  # once


def test_the_sweeps_ticks_start_a_second_apart_however_long_their_work() -> None:
    assert sweeper._wait(0.3, 3.0, 10.0) == pytest.approx(0.7)  # a second from its start
    assert sweeper._wait(1.5, 3.0, 10.0) == sweeper.MIN_WAIT  # late already: go again
    assert sweeper._wait(0.2, 3.0, 0.1) == pytest.approx(0.1)  # an arena round due sooner
    assert sweeper._wait(0.0, 0.5, 10.0) == pytest.approx(0.5)  # a shorter sweep interval


@pytest.mark.usefixtures("game_data")
def test_the_sweep_wakes_when_the_next_arena_round_may_end() -> None:
    assert arena_next_due(at(5)) is None  # no arena round runs
    arena = make_arena()
    arena_service.arena_round_ensure(arena=arena, now=at(5))  # round 1: 0 to 120 s
    grace = GRACE.total_seconds()
    assert arena_next_due(at(5)) == pytest.approx(115 + grace)
    assert arena_next_due(at(120)) == pytest.approx(grace)
    assert arena_next_due(at(120 + grace + 0.1)) is None  # due already: the tick's to end
    Round.objects.update(status=Round.FINISHED)
    assert arena_next_due(at(5)) is None


@pytest.mark.usefixtures("game_data")
def test_new_timings_in_the_admin_apply_from_the_next_round() -> None:
    arena = make_arena()
    arena_service.arena_round_ensure(arena=arena, now=at(40))
    arena_service.arena_retime(arena=arena, play_seconds=60, results_seconds=20, now=at(40))
    arena.save()
    current = arena_service.arena_round_ensure(arena=arena, now=at(100))
    assert current is not None and current.number == 1 and current.ends_at == EPOCH + PLAY
    nxt = arena_service.arena_round_ensure(arena=arena, now=at(151))
    assert nxt is not None and nxt.number == 2
    assert (nxt.starts_at, nxt.ends_at) == (EPOCH + PERIOD, EPOCH + PERIOD + timedelta(seconds=60))


@pytest.mark.usefixtures("game_data")
def test_the_admin_refuses_settings_no_round_could_be_drawn_with() -> None:
    from games.arena.admin import ArenaForm

    fields = {
        "slug": "big", "name": "Big", "is_active": True, "order": 1, "dice": "no-such-dice",
        "rows": 4, "cols": 4, "dictionary": "", "min_length": 3, "scoring": "classic",
        "adjacency": "king", "band": "", "min_words": 0, "play_seconds": 120,
        "results_seconds": 30,
    }  # fmt: skip
    form = ArenaForm(data=fields)
    assert not form.is_valid()
    assert "no dice set 'no-such-dice'" in form.non_field_errors()[0]
    assert ArenaForm(data={**fields, "dice": FIXED_DICE_SLUG}).is_valid()
    assert not ArenaForm(data={**fields, "dice": FIXED_DICE_SLUG, "play_seconds": 5}).is_valid()


@pytest.mark.usefixtures("game_data")
def test_make_run_gets_one_4x4_arena_once() -> None:
    from django.core.management import call_command

    call_command("arena_default")
    call_command("arena_default")
    arena = Arena.objects.get()
    assert (arena.slug, arena.dice, arena.band, arena.play_seconds) == (
        "4x4",
        "new16",
        "standard",
        120,
    )
    assert arena.room.is_arena and arena.room.code == "A4X4"


def _secret() -> str:
    from django.conf import settings

    return str(settings.DAILY_SECRET)


def _started_event(arena: Arena) -> dict:
    from games.models import RoomEvent

    event = RoomEvent.objects.filter(room=arena.room, type=protocol.ROUND_STARTED).last()
    assert event is not None
    return event.payload
