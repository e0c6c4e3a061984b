"""The daily board: one board a day for everyone, one ranked attempt per player, resumed on
the same clock, scored like a solo round with nothing struck, and bad input refused."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from games import protocol
from games.accounts.record import DAILY, player_record
from games.accounts.services import account_delete, identity_merge
from games.daily.rules import (
    DAILY_EPOCH,
    DAILY_GAMES,
    FUTURE_DAY,
    HOLD_SHARE_MIN_WORDS,
    UNKNOWN_GAME,
    UNRANKED_NETWORK,
    DailyError,
    review_reason,
)
from games.daily.scores import attempt_review, daily_score_count
from games.daily.selectors import Standing, leaderboard_page, player_streaks, score_standing
from games.daily.services import (
    ALREADY_PLAYED,
    daily_attempt_start,
    daily_attempts_move,
    daily_board_get,
)
from games.identity import COOKIE_NAME, cookie_value, identity_create
from games.models import (
    DailyAttempt,
    DailyBoard,
    DailyScore,
    Player,
    Room,
    RoomEvent,
    Round,
    Submission,
)
from games.rooms.selectors import room_catch_up, room_snapshot, snapshot_frames
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.counts import word_counts_notices as counts_notices
from games.rounds.selectors import round_running_timing
from games.seats import presence
from solver.caches import caches_clear
from solver.engine.search import Solver
from solver.models import Dictionary

# The test dictionary (algs4) holds fewer words than YAWL: the same games, a lower minimum.
GAME = replace(DAILY_GAMES["4x4"], min_words=10)
DAY = DAILY_EPOCH + timedelta(days=9)
NOON = datetime.combine(DAY, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)


@pytest.fixture
def board(game_data: Dictionary, settings: Any) -> DailyBoard:
    """Today's board of the 4×4 game, drawn with a fixed secret."""
    settings.DAILY_SECRET = "fixed secret for the tests"
    return daily_board_get(game=GAME, day=DAY)


def start(
    identity: Any,
    *,
    day: date = DAY,
    now: datetime = NOON,
    nickname: str = "Ann",
    address: str = "",
) -> DailyAttempt:
    return daily_attempt_start(
        identity=identity, game=GAME, day_text=day.isoformat(), nickname=nickname, now=now,
        address=address,
    )  # fmt: skip


def daily_score_count_of(board: DailyBoard, score: int) -> int:
    row = DailyScore.objects.filter(board=board, score=score).first()
    return row.players if row is not None else 0


def finish(attempt: DailyAttempt, words: int = 0) -> DailyAttempt:
    """Find the first `words` words of the board, then end the attempt's round on time."""
    rnd = Round.objects.get(room=attempt.room)
    for n, (word, _path, _points) in enumerate(rnd.solution[:words]):
        answer = submissions.submission_create(
            player_id=attempt.room.host_id, room_id=attempt.room_id, client_id=f"c{n}",
            word=word, path=None, now=rnd.starts_at + timedelta(seconds=1),
        )  # fmt: skip
        assert answer["accepted"], answer
    assert rnd.ends_at is not None
    assert rounds.round_end(round_id=rnd.id, now=rnd.ends_at + timedelta(seconds=1))
    attempt.refresh_from_db()
    return attempt


def test_the_days_board_is_drawn_once_and_the_same_after_a_restart(
    board: DailyBoard, settings: Any
) -> None:
    assert daily_board_get(game=GAME, day=DAY).pk == board.pk  # stored: read back
    drawn = (board.board, board.seed, board.max_score)
    DailyBoard.objects.all().delete()  # as if no worker had stored it: derived again
    again = daily_board_get(game=GAME, day=DAY)
    assert (again.board, again.seed, again.max_score) == drawn
    assert board.words >= GAME.min_words
    settings.DAILY_SECRET = "another secret"
    other = daily_board_get(game=GAME, day=DAY + timedelta(days=-1))
    assert other.seed != board.seed


def test_everyone_plays_the_same_board_on_the_same_clock_rules(board: DailyBoard) -> None:
    ann, bob = start(identity_create()), start(identity_create(), nickname="Bob")
    boards = {Round.objects.get(room=a.room).board for a in (ann, bob)}
    assert boards == {board.board}
    assert ann.ranked and bob.ranked and ann.ends_at - ann.started_at == timedelta(seconds=180)


def test_the_board_is_not_sent_before_the_player_starts(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    client = Client()
    page = client.get(f"/daily/4x4/{DAY.isoformat()}/")
    assert page.status_code == 200
    content = page.content.decode()
    assert board.board not in content and board.board.split("-", 1)[1] not in content
    assert 'data-testid="daily-start"' in content


def test_a_second_ranked_attempt_is_refused_and_changes_nothing(board: DailyBoard) -> None:
    identity = identity_create()
    first = finish(start(identity), words=2)
    with pytest.raises(DailyError) as refused:
        start(identity, now=NOON + timedelta(hours=1))
    assert str(refused.value) == ALREADY_PLAYED.format(game=GAME.name)
    assert DailyAttempt.objects.count() == 1 and Room.objects.count() == 1
    first.refresh_from_db()
    assert first.score > 0 and first.words == 2


def test_a_second_start_from_the_page_gets_a_clear_answer(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON + timedelta(hours=1))
    identity = identity_create()
    finish(start(identity))
    client = Client()
    client.cookies[COOKIE_NAME] = cookie_value(identity)
    answer = client.post(f"/daily/4x4/{DAY.isoformat()}/start/", {"nickname": "Ann"})
    assert answer.status_code == 409
    assert "already played today" in answer.content.decode()
    assert DailyAttempt.objects.count() == 1


def test_an_accounts_other_identity_counts_as_the_same_player(board: DailyBoard) -> None:
    user = User.objects.create_user("ann", password="a long enough password")
    laptop, phone = identity_create(user=user), identity_create(user=user)
    finish(start(laptop))
    with pytest.raises(DailyError):
        start(phone)


def test_coming_back_continues_the_same_attempt_on_the_same_clock(board: DailyBoard) -> None:
    identity = identity_create()
    first = start(identity)
    again = start(identity, now=NOON + timedelta(seconds=70))
    assert again.pk == first.pk and again.ends_at == first.ends_at
    assert Round.objects.filter(room=first.room).count() == 1


def test_a_start_in_the_attempts_room_is_refused(board: DailyBoard) -> None:
    attempt = finish(start(identity_create()))
    with pytest.raises(protocol.ProtocolError) as refused:
        rounds.round_start(
            room=attempt.room, player=attempt.room.host, now=NOON + timedelta(hours=1)
        )
    assert refused.value.code == protocol.DAILY_ONE_ROUND
    assert Round.objects.filter(room=attempt.room).count() == 1


def test_every_unique_word_scores_and_nothing_is_struck(board: DailyBoard) -> None:
    ann = start(identity_create())
    bob = start(identity_create(), nickname="Bob")
    ann, bob = finish(ann, words=3), finish(bob, words=3)  # the same three words
    solution = Round.objects.get(room=ann.room).solution
    assert ann.score == bob.score == sum(points for _, _, points in solution[:3])


def test_an_attempts_word_counts_go_to_nobody_as_its_own_page_counts_them(
    board: DailyBoard,
) -> None:
    attempt = start(identity_create())
    rnd = Round.objects.get(room=attempt.room)
    word = rnd.solution[0][0]
    answer = submissions.submission_create(
        player_id=attempt.room.host_id, room_id=attempt.room_id, client_id="c1", word=word,
        path=None, now=rnd.starts_at + timedelta(seconds=1),
    )  # fmt: skip
    assert answer["accepted"]
    assert counts_notices([attempt.room_id]) == []
    Room.objects.filter(pk=attempt.room_id).update(is_daily=False)  # the same round elsewhere
    ((_group, notice),) = counts_notices([attempt.room_id])
    assert notice["message"] == protocol.word_counts(rnd.number, {str(attempt.room.host_id): 1})


def test_an_attempts_sockets_coming_and_going_tell_nobody_yet_are_counted(
    board: DailyBoard,
) -> None:
    """Its only page is the player's own: no presence event is read, stored or sent."""
    attempt = start(identity_create())
    player_id, now = attempt.room.host_id, NOON + timedelta(seconds=5)
    events = RoomEvent.objects.filter(room_id=attempt.room_id, type=protocol.PLAYER_UPDATED)
    before = events.count()
    player = Player.objects.get(pk=player_id)
    assert presence.player_connect(player=player, now=now) and player.connections == 1
    assert presence.player_connect(player=player, now=now, limit=2)
    assert not presence.player_connect(player=player, now=now, limit=2)  # the seat's limit holds
    for _ in range(2):
        presence.player_disconnect(player_id=player_id, now=now)
    assert Player.objects.get(pk=player_id).connections == 0
    assert events.count() == before
    Room.objects.filter(pk=attempt.room_id).update(is_daily=False)  # the same player elsewhere
    presence.player_connect(player=player, now=now)
    presence.player_disconnect(player_id=player_id, now=now)
    assert [e.payload["player"]["connected"] for e in events.order_by("seq")[before:]] == [
        True,
        False,
    ]


def test_an_attempts_arrival_reads_its_round_once_and_asks_for_no_spectators(
    board: DailyBoard,
) -> None:
    """Every socket's arrival reads a snapshot and the running round's timing: both from one
    read of the round, and no count of spectators for a room nobody may watch."""
    attempt = start(identity_create())
    player = Player.objects.select_related("room").get(pk=attempt.room.host_id)
    now = NOON + timedelta(seconds=5)
    with CaptureQueriesContext(connection) as captured:
        frames, timing = room_catch_up(player.room, player, now)
    assert (frames, timing) == (
        snapshot_frames(room_snapshot(player.room, player, now)),
        round_running_timing(attempt.room_id),
    )
    assert timing is not None and timing.ends_at == attempt.ends_at
    rounds_read = [q["sql"] for q in captured if 'FROM "games_round"' in q["sql"]]
    assert len(rounds_read) == 1
    assert not [q for q in captured if "games_spectator" in q["sql"]]
    Room.objects.filter(pk=attempt.room_id).update(is_daily=False)  # a room one may watch
    player.room.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        assert room_catch_up(player.room, player, now)[0][0]["spectators"] == 0
    assert [q for q in captured if "games_spectator" in q["sql"]]


def test_an_attempts_end_reads_its_seat_and_totals_once(board: DailyBoard) -> None:
    """Every attempt ends 3 minutes after its start, as many a minute as start: the end reads
    the room (its host, the one seat) and each seat's total once, adding the round's points
    in Python rather than reading the totals back."""
    attempt = start(identity_create())
    with CaptureQueriesContext(connection) as captured:
        ended = finish(attempt, words=3)
    assert ended.finished_at is not None and ended.words == 3 and ended.score > 0
    reads = [q["sql"] for q in captured if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if sql.startswith('SELECT "games_room"."host_id"')]
    assert len([sql for sql in reads if "total_score" in sql and "games_player" in sql]) == 1
    results = Round.objects.get(room=attempt.room).results
    (me,) = [row for row in results["players"] if row["id"] == attempt.room.host_id]
    assert me["total"] == me["score"] == ended.score
    assert Player.objects.get(pk=attempt.room.host_id).total_score == ended.score


def test_attempts_on_one_board_hold_one_solution_in_memory(board: DailyBoard) -> None:
    """A word is judged from its round's facts, kept per process; a rush of attempts keeps
    thousands of rounds there, so rounds of one board, list and rules share their solution."""
    first, second = (Round.objects.get(room=start(identity_create()).room) for _ in range(2))
    facts = [submissions._facts(rnd.id, rnd.seed) for rnd in (first, second)]
    assert facts[0].id != facts[1].id and facts[0].solution is facts[1].solution
    assert dict(facts[0].solution) == {w: (path, points) for w, path, points in first.solution}
    longer = [row for row in second.solution if len(row[0]) >= 5]  # other rules, other words
    Round.objects.filter(pk=second.pk).update(
        settings={**second.settings, "min_length": 5}, solution=longer
    )
    caches_clear("rounds kept")
    again = submissions._facts(second.id, second.seed)
    assert again.solution is not facts[0].solution
    assert sorted(again.solution) == sorted(row[0] for row in longer)


def test_a_word_after_time_up_is_refused_and_changes_nothing(board: DailyBoard) -> None:
    attempt = start(identity_create())
    rnd = Round.objects.get(room=attempt.room)
    assert rnd.ends_at is not None
    answer = submissions.submission_create(
        player_id=attempt.room.host_id, room_id=attempt.room_id, client_id="late",
        word=rnd.solution[0][0], path=None, now=rnd.ends_at + timedelta(seconds=5),
    )  # fmt: skip
    assert not answer["accepted"] and answer["reason"] == protocol.ROUND_NOT_RUNNING
    assert not Submission.objects.exists()
    attempt.refresh_from_db()
    assert attempt.finished_at is not None and attempt.score == 0  # the late word ended it


def test_an_attempt_started_before_midnight_counts_for_its_day(board: DailyBoard) -> None:
    late = datetime.combine(DAY, datetime.max.time(), tzinfo=UTC) - timedelta(seconds=30)
    attempt = finish(start(identity_create(), now=late), words=1)
    assert attempt.ranked and attempt.board.day == DAY and attempt.finished_at.date() > DAY
    assert leaderboard_page(board.pk).players == 1


def test_past_days_stay_playable_unranked_and_off_the_leaderboard(board: DailyBoard) -> None:
    identity = identity_create()
    yesterday = DAY - timedelta(days=1)
    replay = finish(start(identity, day=yesterday), words=1)
    assert not replay.ranked and replay.score > 0
    again = finish(start(identity, day=yesterday))
    assert again.pk != replay.pk and not again.ranked
    past = DailyBoard.objects.get(game=GAME.slug, day=yesterday)
    assert leaderboard_page(past.pk).players == 0
    assert player_streaks(identity, GAME, DAY) == (0, 0)


def test_a_day_not_out_yet_is_refused_and_nothing_is_stored(game_data: Dictionary) -> None:
    with pytest.raises(DailyError, match=FUTURE_DAY):
        start(identity_create(), day=DAY + timedelta(days=1))
    assert not DailyBoard.objects.exists() and not Room.objects.exists()


@pytest.mark.parametrize(
    ("url", "message"),
    [(f"/daily/6x6/{DAY.isoformat()}/", UNKNOWN_GAME),
     (f"/daily/4x4/{(DAY + timedelta(days=1)).isoformat()}/", FUTURE_DAY),
     ("/daily/4x4/soon/", "That is not a date")],
)  # fmt: skip
def test_bad_pages_say_why(game_data: Dictionary, monkeypatch: Any, url: str, message: str) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    answer = Client().get(url)
    assert answer.status_code == 404 and escape(message) in answer.content.decode()
    assert escape(UNKNOWN_GAME) in Client().get("/daily/6x6/").content.decode()
    posted = Client().post(url + "start/", {"nickname": "Ann"})
    assert posted.status_code == 404 and escape(message) in posted.content.decode()
    assert not DailyAttempt.objects.exists() and not DailyBoard.objects.exists()


def test_the_result_page_shows_rank_percentile_share_text_and_solution(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON + timedelta(hours=1))
    for n, words in enumerate([0, 1, 4]):
        finish(start(identity_create(), nickname=f"P{n}"), words=words)
    identity = identity_create()
    mine = finish(start(identity, nickname="Ann"), words=2)
    client = Client()
    client.cookies[COOKIE_NAME] = cookie_value(identity)
    page = client.get(f"/daily/4x4/{DAY.isoformat()}/").content.decode()
    assert "Rank <strong>2</strong> of 4" in page
    assert "better than <strong>50%</strong> of 4 players" in page
    share = page.split('data-testid="share-text">', 1)[1].split("</pre>", 1)[0]
    assert f"Daily 4×4 #{GAME.number(DAY)}" in share and f"{mine.score} point" in share
    for word, _path, _points in Round.objects.get(room=mine.room).solution:
        assert word not in share
        assert word in page  # the solution, with paths, below
    assert page.count('data-testid="my-row"') == 1 and " → " in page


def test_the_leaderboard_page_beyond_the_last_is_refused(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    answer = Client().get(f"/daily/4x4/{DAY.isoformat()}/?page=2")
    assert answer.status_code == 404
    assert "There is no page 2 of this leaderboard: it has 1." in answer.content.decode()


def test_attempts_move_with_an_identity_into_an_account(board: DailyBoard) -> None:
    user = User.objects.create_user("ann", password="a long enough password")
    account, browser = identity_create(user=user), identity_create()
    kept = finish(start(account), words=2)
    moved = finish(start(browser), words=1)
    browser.user = user
    browser.save()
    assert daily_attempts_move(source=browser, into=account) == 1
    moved.refresh_from_db()
    kept.refresh_from_db()
    assert moved.identity_id == account.pk and not moved.ranked and kept.ranked
    assert moved.player_key == kept.player_key == f"u{user.pk}"


def attempts_made(
    board: DailyBoard, scores: list[int], *, ranked: bool = True
) -> list[DailyAttempt]:
    """Store finished attempts with these scores (rows only: arithmetic on fixed data)."""
    made = []
    for n, score in enumerate(scores):
        room = Room.objects.create(
            code=f"T{board.pk}{n}{'R' if ranked else 'U'}", is_solo=True, is_daily=True
        )
        made.append(
            DailyAttempt.objects.create(
                board=board,
                identity=identity_create(),
                player_key=f"t{n}{ranked}",
                room=room,
                nickname=f"P{n}",
                ranked=ranked,
                started_at=NOON,
                ends_at=NOON,
                finished_at=NOON,
                score=score,
                words=score // 2,
            )  # fmt: skip
        )
        if ranked:  # as round_end counts a finished ranked attempt
            daily_score_count(board_id=board.pk, score=score, change=1)
    return made


def test_leaderboard_ranks_and_standings_agree_with_counting_by_hand(board: DailyBoard) -> None:
    scores = [(n * 37) % 23 for n in range(230)]  # many ties
    made = attempts_made(board, scores)
    attempts_made(board, [99, 0], ranked=False)  # replays: never on the board, never counted
    by_hand = sorted(made, key=lambda a: (-a.score, a.pk))
    for page in (1, 2, 3):
        shown = leaderboard_page(board.pk, page)
        assert (shown.players, shown.pages) == (230, 3)
        expected = by_hand[(page - 1) * 100 : page * 100]
        assert [row.attempt_id for row in shown.rows] == [a.pk for a in expected]
        for row in shown.rows:
            assert row.rank == 1 + sum(1 for s in scores if s > row.score)
    for attempt in made[:20]:
        standing = score_standing(board.pk, attempt.score)
        assert standing.rank == 1 + sum(1 for s in scores if s > attempt.score)
        assert standing.below == sum(1 for s in scores if s < attempt.score)
        assert standing.percentile == 100 * standing.below // 230


def test_my_row_is_shown_wherever_it_stands(board: DailyBoard, monkeypatch: Any) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON + timedelta(hours=1))
    attempts_made(board, [50] * 120)
    identity = identity_create()
    mine = finish(start(identity, nickname="Last"))
    client = Client()
    client.cookies[COOKIE_NAME] = cookie_value(identity)
    page = client.get(f"/daily/4x4/{DAY.isoformat()}/").content.decode()
    assert mine.score == 0 and "121 ranked players" in page
    row = page.split('data-testid="my-row">', 1)[1].split("</tr>", 1)[0]
    assert row.startswith("<td>121</td><td>Last</td><td>0</td>")


def test_streaks_count_days_in_a_row_with_a_ranked_attempt(game_data: Dictionary) -> None:
    identity = identity_create()
    for offset in (0, 1, 2, 4, 5):
        day = DAY + timedelta(days=offset)
        board = DailyBoard.objects.create(
            game=GAME.slug, day=day, board="4x4-ABCDEFGHIJKLMNOP", seed=offset,
            dictionary_hash="x", words=0, max_score=0,
        )  # fmt: skip
        (attempt,) = attempts_made(board, [1])
        DailyAttempt.objects.filter(pk=attempt.pk).update(identity=identity)
    assert player_streaks(identity, GAME, DAY + timedelta(days=5)) == (2, 3)
    assert player_streaks(identity, GAME, DAY + timedelta(days=6)) == (2, 3)  # today to play
    assert player_streaks(identity, GAME, DAY + timedelta(days=7)) == (0, 3)  # a day missed
    assert player_streaks(identity, DAILY_GAMES["5x5"], DAY + timedelta(days=5)) == (0, 0)


def test_a_login_brings_the_browsers_attempt_and_deleting_the_account_takes_it(
    board: DailyBoard,
) -> None:
    user = User.objects.create_user("dee", password="a long enough password")
    browser = identity_create()
    attempt = finish(start(browser), words=1)
    into = identity_merge(source=browser, user=user, now=NOON)
    attempt.refresh_from_db()
    assert attempt.identity_id == into.pk and attempt.player_key == f"u{user.pk}"
    with pytest.raises(DailyError):  # the account has played today, from that browser
        start(into)
    account_delete(user=user, now=NOON + timedelta(hours=2))
    assert not DailyAttempt.objects.exists() and leaderboard_page(board.pk).players == 0


def test_a_score_below_zero_is_stored_and_ranked_last(board: DailyBoard) -> None:
    """A round's score is its points less its hints' costs, which can go below zero: the
    histogram keeps it (signed fields) and ranks it below a score of zero."""
    for score in (0, -2, 5):
        daily_score_count(board_id=board.pk, score=score, change=1)
    assert score_standing(board.pk, -2) == Standing(rank=3, below=0, players=3)
    assert score_standing(board.pk, 0) == Standing(rank=2, below=1, players=3)


def test_an_attempt_copies_the_boards_stored_solution_rather_than_solving_it(
    board: DailyBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board is solved once, when drawn; thousands of starts a minute copy its words."""
    assert board.solution and len(board.solution) == board.words
    monkeypatch.setattr(Solver, "solve", lambda *a: pytest.fail("solved again at a start"))
    rnd = Round.objects.get(room=start(identity_create()).room)
    assert rnd.solution == board.solution and rnd.max_score == board.max_score


def test_a_board_stored_without_its_solution_is_solved_once_and_kept(board: DailyBoard) -> None:
    expected = board.solution
    DailyBoard.objects.filter(pk=board.pk).update(solution=[])
    assert daily_board_get(game=GAME, day=DAY).solution == expected
    assert DailyBoard.objects.get(pk=board.pk).solution == expected
    rnd = Round.objects.get(room=start(identity_create()).room)
    assert rnd.solution == expected


@pytest.mark.django_db(transaction=True)
async def test_a_start_through_the_asgi_chain_stores_the_attempt_and_sets_the_cookie(
    board: DailyBoard, monkeypatch: Any
) -> None:
    """The start is an asynchronous view (its work runs in the database threads, beside the
    sockets' services): through daphne's handler it answers as the synchronous one did."""
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    client = AsyncClient()
    answer = await client.post(f"/daily/4x4/{DAY.isoformat()}/start/", {"nickname": "Ann"})
    assert answer.status_code == 302, answer.content
    attempt = await sync_to_async(DailyAttempt.objects.select_related("room").get)()
    assert answer["Location"] == f"/r/{attempt.room.code}/"
    assert answer.cookies[COOKIE_NAME]["httponly"]
    again = await client.post(f"/daily/4x4/{DAY.isoformat()}/start/", {"nickname": "Ann"})
    assert again.status_code == 302 and again["Location"] == answer["Location"]  # continued
    assert await DailyAttempt.objects.acount() == 1
    refused = await client.post("/daily/9x9/2026-01-01/start/", {"nickname": "Ann"})
    assert refused.status_code == 404 and await DailyAttempt.objects.acount() == 1


def test_a_start_stores_what_the_long_way_stores_in_a_dozen_queries(board: DailyBoard) -> None:
    """Starts read the board, settings and list once a minute (the start kit) and then only
    insert: the room, its host, its round and announcement, the attempt."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.daily import services as daily
    from games.models import RoomEvent

    start(identity_create())  # the kit is read here
    newcomer = identity_create()
    with CaptureQueriesContext(connection) as queries:
        fast = start(newcomer, nickname="Bea")
    assert len(queries) <= 14, [q["sql"][:80] for q in queries.captured_queries]
    caches_clear("daily start kits")
    slow = daily._attempt_create(
        identity=identity_create(), game=GAME, board=board, nickname="Bea", ranked=True, now=NOON,
        address="",
    )  # fmt: skip
    rooms = [Room.objects.get(pk=a.room_id) for a in (fast, slow)]
    assert [(r.is_daily, r.is_solo, r.settings, r.next_board) for r in rooms] == [
        (True, True, rooms[1].settings, "")
    ] * 2
    assert all(r.host_id is not None for r in rooms)
    fields = ("number", "status", "board", "settings", "dictionary_id", "dictionary_hash",
              "solution", "max_score", "starts_at", "ends_at", "standing", "given")  # fmt: skip
    fast_round, slow_round = (Round.objects.values(*fields).get(room=r) for r in rooms)
    assert fast_round == slow_round
    assert (fast.started_at, fast.ends_at, fast.ranked) == (slow.started_at, slow.ends_at, True)
    for room in rooms:
        (event,) = RoomEvent.objects.filter(room=room)
        assert (event.seq, event.type) == (1, protocol.ROUND_STARTED)


def test_a_board_whose_list_changed_since_it_was_drawn_is_solved_with_todays(
    board: DailyBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    DailyBoard.objects.filter(pk=board.pk).update(dictionary_hash="an earlier version")
    solved: list[object] = []
    solve = Solver.solve
    monkeypatch.setattr(Solver, "solve", lambda *a: solved.append(a) or solve(*a))
    rnd = Round.objects.get(room=start(identity_create()).room)
    assert len(solved) == 1
    assert rnd.dictionary_hash == board.dictionary.content_hash != "an earlier version"


def test_a_dictionary_reached_through_a_foreign_key_leaves_its_words_behind(
    board: DailyBoard,
) -> None:
    """A round's or a daily board's dictionary is read at starts and ends: its stored word
    list (700 KB for YAWL) stays in the database unless asked for by name."""
    reached = DailyBoard.objects.get(pk=board.pk).dictionary
    assert reached is not None and "words_gz" in reached.get_deferred_fields()
    assert bytes(reached.words_gz)  # still there when asked for
    rnd = Round.objects.get(room=start(identity_create()).room)
    assert rnd.dictionary is not None and "words_gz" in rnd.dictionary.get_deferred_fields()


def test_the_record_names_a_daily_attempt_by_its_game_and_day(board: DailyBoard) -> None:
    identity = identity_create()
    finish(start(identity), words=2)
    record = player_record([identity])
    assert [(r.kind, r.title) for r in record.rounds] == [
        (DAILY, f"Daily 4×4, {DAY.day} {DAY:%B %Y}")  # not "Solo, round 1"
    ]
    assert record.rounds_by_kind[DAILY] == 1
    client = Client()
    client.cookies[COOKIE_NAME] = cookie_value(identity)
    html = client.get("/me/").content.decode()
    assert f"Daily 4×4, {DAY.day} {DAY:%B %Y}</a>" in html and "Solo, round" not in html
    assert "Daily boards: <span" in html


def test_the_daily_results_call_the_board_the_days_not_the_hosts(board: DailyBoard) -> None:
    attempt = finish(start(identity_create()), words=1)
    results = Round.objects.get(room=attempt.room).results
    assert results["standing"]["given"] is True  # drawn by the server, not from the dice
    assert results["standing"]["label"] == "The day's board"


NETWORK, OTHER_NETWORK = "203.0.113.7", "198.51.100.9"


def test_one_ranked_attempt_a_network_for_players_without_an_account(board: DailyBoard) -> None:
    first = start(identity_create(), address=NETWORK)
    fresh_cookie = start(identity_create(), address=NETWORK, nickname="Bea")
    elsewhere = start(identity_create(), address=OTHER_NETWORK, nickname="Cy")
    user = User.objects.create_user("dee", password="a long enough password")
    account = start(identity_create(user=user), address=NETWORK, nickname="Dee")
    assert (first.ranked, fresh_cookie.ranked, elsewhere.ranked, account.ranked) == (
        True, False, True, True,
    )  # fmt: skip
    finish(fresh_cookie, words=3)
    assert leaderboard_page(board.pk).players == 0  # the unranked one counts nowhere
    past = start(identity_create(), address=NETWORK, day=DAY - timedelta(days=1))
    assert not past.ranked  # a past day is unranked for everyone anyway


def test_a_second_cookie_from_the_network_hears_why_it_plays_unranked(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    url = f"/daily/{GAME.slug}/{DAY.isoformat()}/start/"
    Client(REMOTE_ADDR=NETWORK).post(url, {"nickname": "Ann"})
    page = Client(REMOTE_ADDR=NETWORK).post(url, {"nickname": "Bea"}, follow=True)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="notice"' in html
    assert escape(UNRANKED_NETWORK.format(game=GAME.name)) in html
    assert [a.ranked for a in DailyAttempt.objects.order_by("id")] == [True, False]


def test_play_beyond_a_persons_is_held_off_the_leaderboard_for_an_admin(
    board: DailyBoard, monkeypatch: Any
) -> None:
    rnd_words = len(board.solution)
    half = -(-rnd_words // 2)  # half the board's words, rounded up
    assert HOLD_SHARE_MIN_WORDS > half >= 5  # the test list is small: so is the minimum here
    monkeypatch.setattr("games.daily.rules.HOLD_SHARE_MIN_WORDS", 5)
    bot = finish(start(identity_create(), address=NETWORK), words=half)
    person = finish(start(identity_create(), address=OTHER_NETWORK, nickname="Bo"), words=2)
    assert (bot.review, person.review) == ("held", "")
    assert bot.review_reason == f"found {half} of the board's {rnd_words} words"
    board_page = leaderboard_page(board.pk)
    assert [row.nickname for row in board_page.rows] == ["Bo"] and board_page.players == 1
    assert daily_score_count_of(board, bot.score) == 0
    with pytest.raises(DailyError):  # still the player's one ranked attempt of the day
        daily_attempt_start(
            identity=bot.identity, game=GAME, day_text=DAY.isoformat(), nickname="Ann", now=NOON
        )
    client = Client()
    client.cookies[COOKIE_NAME] = cookie_value(bot.identity)
    monkeypatch.setattr("games.rules.clock.now", lambda: NOON)
    html = client.get(f"/daily/{GAME.slug}/{DAY.isoformat()}/").content.decode()
    assert 'data-testid="daily-review"' in html and 'data-testid="my-row"' not in html

    assert attempt_review(attempt_id=bot.pk, rank=True).endswith("on the leaderboard now.")
    assert leaderboard_page(board.pk).players == 2
    assert "not waiting for review" in attempt_review(attempt_id=bot.pk, rank=False)
    assert leaderboard_page(board.pk).players == 2  # decided once


def test_an_admin_may_keep_a_held_attempt_off_for_good(board: DailyBoard, monkeypatch: Any) -> None:
    monkeypatch.setattr("games.daily.rules.HOLD_SHARE_MIN_WORDS", 5)  # the test board is small
    held = finish(start(identity_create()), words=-(-len(board.solution) // 2))
    assert attempt_review(attempt_id=held.pk, rank=False).endswith("stays off the leaderboard.")
    held.refresh_from_db()
    assert held.review == "rejected" and leaderboard_page(board.pk).players == 0
    held.delete()  # its account deleted: nothing to take off the board's counts
    assert not DailyScore.objects.filter(board=board).exclude(players=0).exists()


@pytest.mark.parametrize(
    ("found", "board_words", "gaps", "held"),
    [
        (183, 183, 0.05, "found 183 of the board's 183 words"),
        (50, 100, 3.0, "found 50 of the board's 100 words"),
        (49, 100, 3.0, ""),  # a strong player's share, at a person's pace
        (9, 12, 3.0, ""),  # a tiny board: a few words are not a share that tells anything
        (20, 300, 0.4, "found 20 words 0.40 s apart (the median)"),
        (19, 300, 0.1, ""),  # too few to tell a fast typist from a machine
        (40, 300, 1.5, ""),
    ],
)
def test_the_review_rule_holds_machine_share_or_machine_speed(
    found: int, board_words: int, gaps: float, held: str
) -> None:
    times = [1.0 + gaps * n for n in range(found)]
    assert review_reason(found=found, board_words=board_words, found_at=times) == held


def test_the_admin_lists_held_attempts_and_ranks_them_with_an_action(
    board: DailyBoard, monkeypatch: Any
) -> None:
    monkeypatch.setattr("games.daily.rules.HOLD_SHARE_MIN_WORDS", 5)  # the test board is small
    held = finish(start(identity_create()), words=-(-len(board.solution) // 2))
    staff = Client()
    staff.force_login(User.objects.create_superuser("mod", "", "a long enough password"))
    listing = staff.get("/admin/games/dailyattempt/?review__exact=held")
    assert listing.status_code == 200 and escape(held.review_reason) in listing.content.decode()
    done = staff.post(
        "/admin/games/dailyattempt/",
        {"action": "rank_held", "_selected_action": [held.pk]},
        follow=True,
    )
    assert "on the leaderboard now" in done.content.decode()
    held.refresh_from_db()
    assert held.review == "" and leaderboard_page(board.pk).players == 1
    again = staff.post(
        "/admin/games/dailyattempt/",
        {"action": "keep_off", "_selected_action": [held.pk]},
        follow=True,
    )
    assert "None of those attempts is held for review." in again.content.decode()
