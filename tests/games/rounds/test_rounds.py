"""Rounds: drawing and solving, judging words, and ending exactly once from any trigger."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import OperationalError, close_old_connections, connection, transaction

from games import protocol
from games.models import Player, RoomEvent, Round, Submission
from games.protocol import NOT_HOST, ROUND_RUNNING, ProtocolError
from games.rounds import services as rounds
from games.rounds import submissions as submissions_module
from games.rounds.submissions import submission_create
from games.rules import clock
from solver.engine.board import Board
from solver.engine.paths import find_path
from solver.models import Dictionary
from tests.fixed_dice import words_needed
from tests.games.conftest import make_room, reschedule, seat


def started(
    seed: int = 7, settings: dict[str, object] | None = None
) -> tuple[Round, Player, Player]:
    room, host, _ = make_room(settings)
    bob, _ = seat(room, "Bob")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=seed)
    words_needed(rnd.solution, 3, rnd.board)  # the tests below use up to three words
    return reschedule(rnd, starts_in=-1, ends_in=60), host, bob


def submit(
    player: Player, word: str | None = None, path: tuple[int, ...] | None = None, cid: str = ""
) -> dict[str, object]:
    return submission_create(
        player_id=player.id,
        room_id=player.room_id,
        client_id=cid or f"{word}-{path}",
        word=word,
        path=path,
        now=clock.now(),
    )


def test_a_round_is_drawn_from_its_seed_solved_and_stored(game_data: Dictionary) -> None:
    rnd, _, _ = started(seed=42)
    board = Board.from_share_code(rnd.board)
    assert (board.rows, board.cols) == (4, 4)
    assert rnd.max_score == sum(points for _, _, points in rnd.solution) > 0
    for word, path, _ in rnd.solution:
        assert "".join(board.faces[c] for c in path) == word
    again, _, _ = started(seed=42)
    assert again.board == rnd.board
    assert RoomEvent.objects.filter(room=rnd.room, type="round_started").exists()
    announced = RoomEvent.objects.get(room=rnd.room, type="round_started").payload["round"]
    assert "board" not in announced  # not before starts_at


def test_only_the_host_starts_and_only_one_round_runs(game_data: Dictionary) -> None:
    rnd, host, bob = started()
    with pytest.raises(ProtocolError) as info:
        rounds.round_start(room=rnd.room, player=bob, now=clock.now())
    assert info.value.code == NOT_HOST
    with pytest.raises(ProtocolError) as info:
        rounds.round_start(room=rnd.room, player=host, now=clock.now())
    assert info.value.code == ROUND_RUNNING


def test_an_accepted_typed_word_comes_back_with_its_path_and_points(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    word, path, points = rnd.solution[0]
    answer = submit(host, word.lower())
    assert answer["accepted"] is True and answer["points"] == points and answer["word"] == word
    board = Board.from_share_code(rnd.board)
    assert "".join(board.faces[c] for c in answer["path"]) == word  # type: ignore[union-attr]
    assert Submission.objects.get(round=rnd, player=host).word == word


def test_a_traced_path_is_accepted(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    word, path, _ = rnd.solution[-1]
    answer = submit(host, path=tuple(path))
    assert answer["accepted"] is True and answer["word"] == word


def test_every_rejection_reason(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    board = Board.from_share_code(rnd.board)
    word, path, _ = next(entry for entry in rnd.solution if len(entry[1]) >= 3)
    on_board = {w for w, _, _ in rnd.solution}
    absent = next(
        w for w in ("QUEUE", "ZOOLOGY", "ABANDON", "ZEBRA", "JUXTAPOSE") if w not in on_board
    )
    traceable_nonsense = "".join(board.faces[c] for c in path) + "Z"

    def reason(**kw: object) -> object:
        return submit(host, **kw)["reason"]  # type: ignore[arg-type]

    assert reason(word="AB") == protocol.TOO_SHORT
    assert reason(word="XQZVT") == protocol.NOT_A_WORD
    assert reason(word=absent) == protocol.NOT_ON_BOARD
    assert reason(path=(path[0], path[0], path[1])) == protocol.BAD_PATH  # reused cell
    assert reason(path=(0, 15, 1)) == protocol.BAD_PATH  # not adjacent
    assert reason(path=(0, 1, 99)) == protocol.BAD_PATH  # off the board
    assert reason(word=word[::-1] + "Q", path=tuple(path)) == protocol.BAD_PATH  # wrong letters
    assert reason(word=traceable_nonsense) in (protocol.NOT_A_WORD, protocol.TOO_SHORT)
    submit(host, word, cid="first")
    assert reason(word=word, cid="second") == protocol.ALREADY_FOUND
    assert Submission.objects.filter(round=rnd).count() == 1


def test_rook_rooms_refuse_diagonal_paths(game_data: Dictionary) -> None:
    rnd, host, _ = started(settings={"preset": "rook"})
    board = Board.from_share_code(rnd.board)
    diagonal = next(
        (w, p)
        for w, p, _ in Round.objects.get(pk=rnd.pk).solution
        if find_path(board, w, "rook") is not None
    )
    assert submit(host, path=(0, 6, 12))["reason"] in (protocol.BAD_PATH, protocol.TOO_SHORT)
    assert submit(host, diagonal[0])["accepted"] is True


def test_a_retried_submission_is_answered_again_and_counted_once(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    word = rnd.solution[0][0]
    first = submit(host, word, cid="c-1")
    again = submit(host, word, cid="c-1")
    assert first == again and first["accepted"] is True
    assert Submission.objects.filter(round=rnd, player=host).count() == 1


def test_words_before_the_board_appears_or_after_the_end_are_refused(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    word = rnd.solution[0][0]
    reschedule(rnd, starts_in=2, ends_in=60)
    assert submit(host, word)["reason"] == protocol.ROUND_NOT_RUNNING
    reschedule(rnd, starts_in=-60, ends_in=-1)
    assert submit(host, word, cid="late")["reason"] == protocol.ROUND_NOT_RUNNING
    assert Round.objects.get(pk=rnd.pk).status == Round.FINISHED  # the late word ended it


def test_words_inside_the_grace_still_count(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    reschedule(rnd, starts_in=-60, ends_in=-clock.GRACE.total_seconds() / 2)
    assert submit(host, rnd.solution[0][0])["accepted"] is True


def test_round_end_waits_for_the_time_then_scores_once(game_data: Dictionary) -> None:
    rnd, host, bob = started()
    shared, own = rnd.solution[0][0], rnd.solution[1][0]
    for player in (host, bob):
        submit(player, shared)
    submit(host, own)
    assert rounds.round_end(round_id=rnd.id, now=clock.now()) is False  # not due yet
    after = rnd.ends_at + clock.GRACE  # type: ignore[operator]
    assert rounds.round_end(round_id=rnd.id, now=after) is True
    assert rounds.round_end(round_id=rnd.id, now=after) is False
    assert rounds.rounds_end_due(now=after + timedelta(seconds=5)) == 0
    rnd.refresh_from_db()
    results = rnd.results
    scores = {row["id"]: row["score"] for row in results["players"]}
    assert scores == {host.id: rnd.solution[1][2], bob.id: 0}
    assert RoomEvent.objects.filter(room=rnd.room, type="round_ended").count() == 1
    assert Player.objects.get(pk=host.pk).total_score == scores[host.id]
    assert results["max_score"] == rnd.max_score and len(results["missed"]) == len(rnd.solution) - 2


def test_the_sweep_ends_every_overdue_round(game_data: Dictionary) -> None:
    first, _, _ = started()
    second, _, _ = started()
    reschedule(first, starts_in=-100, ends_in=-10)
    reschedule(second, starts_in=-100, ends_in=-10)
    assert rounds.rounds_end_due(now=clock.now()) == 2
    assert rounds.rounds_end_due(now=clock.now()) == 0


def test_the_host_ends_an_untimed_round(game_data: Dictionary) -> None:
    room, host, _ = make_room({"preset": "classic", "duration": 0})
    bob, _ = seat(room, "Bob")
    rnd = rounds.round_start(room=room, player=host, now=clock.now())
    assert rnd.ends_at is None
    reschedule(rnd, starts_in=-1, ends_in=None)
    assert rounds.rounds_end_due(now=clock.now() + timedelta(days=1)) == 0
    with pytest.raises(ProtocolError):
        rounds.round_end_by_host(room=rnd.room, player=bob, now=clock.now())
    rounds.round_end_by_host(room=rnd.room, player=host, now=clock.now())
    assert Round.objects.get(pk=rnd.pk).status == Round.FINISHED


def test_a_room_starts_at_most_twenty_rounds_in_ten_minutes(game_data: Dictionary) -> None:
    """Looping start_round/end_round on an untimed room made 15 rounds in 1.7 s, each
    storing its board's whole solution. Counted from the rounds stored, at the time given."""
    room, host, _ = make_room({"preset": "classic", "duration": 0})
    t0 = clock.now()
    for n in range(rounds.ROUNDS_PER_WINDOW):
        at = t0 + timedelta(seconds=n)
        rounds.round_start(room=room, player=host, now=at)
        rounds.round_end_by_host(room=room, player=host, now=at)
    with pytest.raises(ProtocolError) as refused:
        rounds.round_start(room=room, player=host, now=t0 + timedelta(seconds=30))
    assert refused.value.code == protocol.ROUNDS_TOO_FAST
    assert "wait a little" in refused.value.detail
    assert Round.objects.filter(room=room).count() == rounds.ROUNDS_PER_WINDOW  # none stored
    later = t0 + rounds.ROUNDS_WINDOW + timedelta(minutes=1)
    assert rounds.round_start(room=room, player=host, now=later).number == 21


@pytest.mark.django_db(transaction=True)
def test_three_triggers_at_once_score_the_round_once(game_data: Dictionary) -> None:
    rnd, host, _ = started()
    submit(host, rnd.solution[0][0])
    reschedule(rnd, starts_in=-100, ends_in=-5)
    outcomes: list[object] = []
    barrier = threading.Barrier(3)

    def trigger() -> None:
        barrier.wait()
        try:
            outcomes.append(rounds.round_end(round_id=rnd.id, now=clock.now()))
        except OperationalError:  # SQLite's in-memory test database refuses, never waits
            outcomes.append("locked")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=trigger) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count(True) == 1
    if connection.vendor == "postgresql":  # a real server makes the others wait, then skip
        assert sorted(outcomes, key=str) == [False, False, True]
    assert RoomEvent.objects.filter(room=rnd.room, type="round_ended").count() == 1
    assert Player.objects.get(pk=host.pk).total_score == rnd.solution[0][2]


def test_a_word_is_refused_if_the_round_ends_between_the_check_and_the_insert(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.rounds import submissions

    rnd, host, _ = started()
    real_judge = submissions._judge

    def judge_while_the_round_ends(*args: object, **kwargs: object) -> object:
        rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)  # another trigger wins
        return real_judge(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(submissions, "_judge", judge_while_the_round_ends)
    answer = submit(host, rnd.solution[0][0])
    assert answer["reason"] == protocol.ROUND_NOT_RUNNING
    assert not Submission.objects.filter(round=rnd).exists()
    results = Round.objects.get(pk=rnd.pk).results
    assert all(not row["words"] for row in results["players"])


def _in_thread(action: Callable[[], object], done: list[object]) -> threading.Thread:
    def run() -> None:
        try:
            done.append(action())
        finally:
            close_old_connections()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_word_waits_for_a_round_end_in_progress_and_is_then_refused(
    game_data: Dictionary,
) -> None:
    rnd, host, _ = started()
    word = rnd.solution[0][0]
    answers: list[object] = []
    with transaction.atomic():  # another worker is ending the round and has not committed
        Round.objects.filter(pk=rnd.pk).update(status=Round.FINISHED)
        thread = _in_thread(lambda: submit(host, word), answers)
        thread.join(timeout=0.5)
        assert thread.is_alive() and not answers  # the word waits for the end to commit
    thread.join(timeout=10)
    assert answers and answers[0]["reason"] == protocol.ROUND_NOT_RUNNING
    assert not Submission.objects.filter(round=rnd).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_words_of_one_round_do_not_wait_for_each_other_but_its_end_waits_for_them(
    game_data: Dictionary,
) -> None:
    rnd, host, bob = started()
    (first, _, _), (second, _, _) = rnd.solution[:2]
    answers: list[object] = []
    ended: list[object] = []
    with transaction.atomic():  # a word being stored holds the round as the insert does
        list(Round.objects.raw("SELECT * FROM games_round WHERE id = %s FOR SHARE", [rnd.id]))
        thread = _in_thread(lambda: submit(bob, second), answers)
        thread.join(timeout=10)
        assert answers and answers[0]["accepted"] is True
        ender = _in_thread(
            lambda: rounds.round_end(round_id=rnd.id, now=clock.now(), force=True), ended
        )
        ender.join(timeout=0.5)
        assert ender.is_alive() and not ended  # the end waits for the word to be stored
        Submission.objects.create(
            round=rnd, player=host, word=first, path=rnd.solution[0][1], points=1, client_id="x"
        )
    ender.join(timeout=10)
    assert ended == [True]
    results = Round.objects.get(pk=rnd.pk).results
    found = {word["word"] for row in results["players"] for word in row["words"]}
    assert {first, second} <= found


def test_game_totals_add_each_rounds_scores_for_every_player(game_data: Dictionary) -> None:
    rnd, host, bob = started()
    carol, _ = seat(rnd.room, "Carol")
    submit(host, rnd.solution[0][0])
    submit(bob, rnd.solution[1][0])
    submit(bob, rnd.solution[2][0])
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    first = {host.id: rnd.solution[0][2], bob.id: rnd.solution[1][2] + rnd.solution[2][2]}
    nxt = reschedule(
        rounds.round_start(room=rnd.room, player=host, now=clock.now(), seed=8),
        starts_in=-1,
        ends_in=60,
    )
    words_needed(nxt.solution, 2, nxt.board)
    submit(host, nxt.solution[0][0])
    submit(carol, nxt.solution[1][0])
    rounds.round_end(round_id=nxt.id, now=clock.now(), force=True)
    totals = dict(Player.objects.filter(room=rnd.room).values_list("id", "total_score"))
    assert totals == {
        host.id: first[host.id] + nxt.solution[0][2],
        bob.id: first[bob.id],
        carol.id: nxt.solution[1][2],
    }
    shown = {row["id"]: row["total"] for row in Round.objects.get(pk=nxt.pk).results["players"]}
    assert shown == totals


def test_a_word_after_another_worker_ended_the_round_is_refused_though_kept_running(
    game_data: Dictionary,
) -> None:
    rnd, host, bob = started()
    assert submit(host, rnd.solution[0][0])["accepted"]  # this process now keeps the round
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)  # as another worker would
    answer = submit(bob, rnd.solution[1][0])
    assert answer["accepted"] is False and answer["reason"] == protocol.ROUND_NOT_RUNNING
    assert list(Submission.objects.filter(round=rnd).values_list("word", flat=True)) == [
        rnd.solution[0][0]
    ]


def test_a_word_goes_to_the_round_another_worker_started_since(game_data: Dictionary) -> None:
    rnd, host, bob = started()
    assert submit(host, rnd.solution[0][0])["accepted"]  # kept: round 1, running
    Round.objects.filter(pk=rnd.pk).update(status=Round.FINISHED)  # ended, as elsewhere
    following = rounds.round_start(room=rnd.room, player=host, now=clock.now(), seed=8)
    reschedule(following, starts_in=-1, ends_in=60)
    rounds_kept = submissions_module._running_rounds
    rounds_kept[rnd.room_id] = (rnd.id, rnd.seed, Round.RUNNING, rnd.starts_at, rnd.ends_at)
    word = following.solution[0][0]
    answer = submit(bob, word)
    assert answer["accepted"] is True
    assert Submission.objects.get(player=bob).round_id == following.id
