"""Words stored in batches: each answered exactly as if it had come alone, one commit for a
batch, and the words that arrive while batches are being stored going together next."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.db import connection

from games import protocol
from games.models import Player, Round, Submission
from games.rounds import batches as word_batches
from games.rounds import services as rounds
from games.rounds import submissions
from games.rounds.submissions import Sent, submission_create, submissions_create
from games.rules import clock
from solver.models import Dictionary
from tests.fixed_dice import FIXED_ROOM, FIXED_WORDS_ALGS4
from tests.games.conftest import make_room, reschedule, seat

pytestmark = pytest.mark.django_db


def started(seed: int = 7) -> tuple[Round, list[Player]]:
    """A running round on the fixed S I T E board, with three players."""
    room, host, _ = make_room(FIXED_ROOM)
    players = [host, seat(room, "Bob")[0], seat(room, "Cy")[0]]
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=seed)
    assert {word for word, _, _ in rnd.solution} == FIXED_WORDS_ALGS4
    return reschedule(rnd, starts_in=-1, ends_in=60), players


# What the players send, in order: (player index, client id, word or None, path or None).
SENT: list[tuple[int, str, str | None, str | None]] = [
    (0, "a1", "SITE", None),
    (1, "b1", "site", None),  # another player's same word: each scores it
    (0, "a2", "SITE", None),  # the same word again, another client id: already found
    (0, "a1", "SITE", None),  # a retry: the first answer again
    (2, "c1", "TIES", None),
    (2, "c2", "TIE", "traced"),  # traced, the path from the board's solution
    (1, "b2", "SITES", None),  # not on the board (a word of the list)
    (1, "b3", "ZZZ", None),  # not a word
    (1, "b4", "IT", None),  # too short
    (2, "c3", "TIE", "forged"),  # its first two cells swapped: it spells ITE
    (0, "a3", "ITS", None),
    (1, "b5", "ITS", None),
    (1, "b5", "ITS", None),  # retried within the batch
]


def sents(players: Sequence[Player]) -> list[Sent]:
    now = clock.now()
    rnd = Round.objects.get(room_id=players[0].room_id)
    traced = tuple(next(path for word, path, _ in rnd.solution if word == "TIE"))
    paths = {"traced": traced, "forged": (traced[1], traced[0], *traced[2:]), None: None}
    return [
        Sent(players[who].id, players[who].room_id, cid, word, paths[path], now)
        for who, cid, word, path in SENT
    ]


def comparable(answer: dict[str, Any] | Exception) -> dict[str, Any]:
    assert not isinstance(answer, Exception), answer
    return {key: value for key, value in answer.items() if key != "server_time"}


def test_a_batch_answers_every_word_as_the_words_alone_would(game_data: Dictionary) -> None:
    alone_round, alone_players = started()
    batch_round, batch_players = started()
    assert alone_round.board == batch_round.board  # the fixed dice: the same words
    alone = [
        submission_create(
            player_id=s.player_id,
            room_id=s.room_id,
            client_id=s.client_id,
            word=s.word,
            path=s.path,
            now=s.now,
        )
        for s in sents(alone_players)
    ]
    batch = submissions_create(sents(batch_players))
    assert [comparable(a) for a in batch] == [comparable(a) for a in alone]
    reasons = [answer.get("reason") for answer in batch]  # type: ignore[union-attr]
    assert reasons == [
        None, None, protocol.ALREADY_FOUND, None, None, None, protocol.NOT_ON_BOARD,
        protocol.NOT_A_WORD, protocol.TOO_SHORT, protocol.BAD_PATH, None, None, None,
    ]  # fmt: skip

    def stored(rnd: Round) -> list[tuple[str, str, str, int]]:
        rows = Submission.objects.filter(round=rnd).order_by("player__nickname", "word")
        return list(rows.values_list("player__nickname", "word", "client_id", "points"))

    assert stored(batch_round) == stored(alone_round)
    assert len(stored(batch_round)) == 6  # SITE twice, TIES, TIE, ITS twice


def test_a_round_that_ends_before_its_batch_is_stored_takes_none_of_it(
    game_data: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd, players = started()
    real_judge = submissions._judge
    ended: list[bool] = []

    def judge_while_the_round_ends(*args: object, **kwargs: object) -> object:
        if not ended:  # another worker's trigger wins before the batch is stored
            ended.append(rounds.round_end(round_id=rnd.id, now=clock.now(), force=True))
        return real_judge(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(submissions, "_judge", judge_while_the_round_ends)
    answers = submissions_create(sents(players)[:3])
    assert [a["reason"] for a in answers] == [protocol.ROUND_NOT_RUNNING] * 3  # type: ignore[index]
    assert not Submission.objects.filter(round=rnd).exists()


@pytest.mark.django_db(transaction=True)
def test_a_seat_removed_before_the_batch_is_stored_fails_only_its_own_words(
    game_data: Dictionary,
) -> None:
    rnd, players = started()
    words = sents(players)
    Player.objects.filter(pk=players[2].pk).delete()  # c1's seat, deleted as a room closes
    answers = submissions_create([words[0], words[4], words[10]])  # a1, c1, a3
    assert comparable(answers[0])["accepted"] is True
    assert comparable(answers[2])["accepted"] is True
    assert comparable(answers[1]) == comparable(
        protocol.submit_result("c1", "TIES", accepted=False, reason=protocol.ROUND_NOT_RUNNING)
    )
    assert sorted(Submission.objects.filter(round=rnd).values_list("word", flat=True)) == [
        "ITS",
        "SITE",
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_a_batch_is_one_transaction(game_data: Dictionary) -> None:
    rnd, players = started()
    answers = submissions_create(sents(players))
    assert sum(1 for a in answers if comparable(a)["accepted"]) == 8  # the retries included
    with connection.cursor() as cursor:  # the id of the transaction that wrote each row
        cursor.execute(
            "SELECT DISTINCT xmin::text FROM games_submission WHERE round_id = %s", [rnd.id]
        )
        assert len(cursor.fetchall()) == 1
    assert Submission.objects.filter(round=rnd).count() == 6


# The batcher ----------------------------------------------------------------------------


class HeldBatches:
    """submissions_create held until released, noting the batches it was given."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.release = threading.Event()

    def __call__(self, sents: Sequence[Sent]) -> list[dict[str, Any] | Exception]:
        self.sizes.append(len(sents))
        assert self.release.wait(10)
        return [
            ValueError("refused by the test")
            if sent.word == "FAIL"
            else protocol.submit_result(sent.client_id, sent.word or "", accepted=True, points=1)
            for sent in sents
        ]


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldBatches]:
    batches = HeldBatches()
    monkeypatch.setattr(word_batches, "submissions_create", batches)
    # Each batch in a thread of its own, as on PostgreSQL (SQLite's runner has one thread).
    monkeypatch.setattr(word_batches, "service_run", lambda action, lane: asyncio.to_thread(action))
    yield batches
    batches.release.set()


def sent(word: str, n: int = 0) -> Sent:
    return Sent(1, 1, f"{word}-{n}", word, None, clock.now())


async def until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


async def test_words_arriving_while_batches_are_stored_go_together_next(
    held: HeldBatches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(word_batches, "WRITERS", 2)
    first = []
    for n in range(2):  # two writers, a word each
        first.append(asyncio.ensure_future(word_batches.word_submit(sent("A", n))))
        await until(lambda: len(held.sizes) == len(first))
    later = [asyncio.ensure_future(word_batches.word_submit(sent("B", n))) for n in range(5)]
    await asyncio.sleep(0.05)
    assert held.sizes == [1, 1] and not any(task.done() for task in first + later)
    held.release.set()
    answers = await asyncio.gather(*first, *later)
    assert held.sizes == [1, 1, 5]
    assert [a["client_id"] for a in answers] == ["A-0", "A-1", *[f"B-{n}" for n in range(5)]]


async def test_a_batch_caps_its_words_and_a_words_error_is_its_own(
    held: HeldBatches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(word_batches, "WRITERS", 1)
    monkeypatch.setattr(word_batches, "BATCH_MAX", 3)
    blocker = asyncio.ensure_future(word_batches.word_submit(sent("A")))
    await until(lambda: held.sizes == [1])
    words = ["B", "FAIL", "C", "D", "E"]
    tasks = [asyncio.ensure_future(word_batches.word_submit(sent(w))) for w in words]
    gone = asyncio.ensure_future(word_batches.word_submit(sent("GONE")))
    await asyncio.sleep(0.05)
    gone.cancel()  # its socket closed: the others are answered all the same
    held.release.set()
    results = await asyncio.gather(blocker, *tasks, return_exceptions=True)
    assert held.sizes == [1, 3, 3]
    assert isinstance(results[2], ValueError)
    assert [r["client_id"] for r in results if isinstance(r, dict)] == [
        "A-0", "B-0", "C-0", "D-0", "E-0",
    ]  # fmt: skip


async def test_a_lone_word_goes_at_once(game_data_committed: Dictionary) -> None:
    """Through the real service: nothing waits for company."""
    from channels.db import database_sync_to_async

    rnd, players = await database_sync_to_async(started)()
    batches = word_batches.word_batches()
    before = batches.batches
    (first, *_) = await database_sync_to_async(sents)(players)
    answer = await word_batches.word_submit(first)
    assert answer["accepted"] is True and batches.batches == before + 1


@pytest.mark.postgres
async def test_words_are_stored_while_every_shared_database_thread_is_busy(
    game_data_committed: Dictionary,
) -> None:
    """Their own lane: a storm of sockets arriving (snapshots in the shared pool) does not
    hold them up."""
    from channels.db import database_sync_to_async

    from games.realtime.runner import service_run

    rnd, players = await database_sync_to_async(started)()
    (first, *_) = await database_sync_to_async(sents)(players)
    release = threading.Event()
    busy = [asyncio.ensure_future(service_run(lambda: release.wait(10))) for _ in range(40)]
    try:
        answer = await asyncio.wait_for(word_batches.word_submit(first), 5)
        assert answer["accepted"] is True and not any(task.done() for task in busy)
    finally:
        release.set()
        await asyncio.gather(*busy)
    assert await database_sync_to_async(Submission.objects.filter(round=rnd).count)() == 1
