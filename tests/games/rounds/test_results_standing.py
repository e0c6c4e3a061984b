"""The results say how good the board was: its words and points and its percentile among
boards of its kind, once the round is over and never before."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from games.models import RoomEvent, Round
from games.rooms import services as rooms
from games.rooms.selectors import room_snapshot
from games.rounds import services as rounds
from games.rules import clock
from games.rules.scoring import board_summary
from solver.boardlab import boards
from solver.boardlab.boards import board_standing
from solver.caches import caches_clear
from solver.engine.rules import Rules
from solver.engine.standing import Standing
from solver.models import BoardStanding, DiceSet, Dictionary
from tests.games.conftest import make_room, seat

pytestmark = pytest.mark.django_db

SEED = 20261123


@pytest.fixture(autouse=True)
def fresh_standings() -> Iterator[None]:
    caches_clear("board standings")
    yield
    caches_clear("board standings")


def new16_standing(dictionary: Dictionary) -> Standing:
    return board_standing(
        dictionary=dictionary,
        dice_set=DiceSet.objects.get(slug="new16"),
        rows=4,
        cols=4,
        rules=Rules(3, "king", "classic"),
    )


def results_response(rnd: Round, cookie: str) -> tuple[int, dict[str, object]]:
    client = Client()
    client.cookies["player"] = cookie
    response = client.get(f"/r/{rnd.room.code}/rounds/{rnd.number}/results.json")
    return response.status_code, response.json()


def test_the_results_rank_the_board_among_boards_of_its_kind(game_data: Dictionary) -> None:
    new16_standing(game_data)  # known, as load_dictionaries --standings leaves the presets
    room, host, host_key = make_room({"preset": "classic", "duration": 0})
    bob, _ = seat(room, "Bob")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    status, running = results_response(rnd, host_key)
    assert status == 409 and "standing" not in running
    events = list(RoomEvent.objects.filter(room=room).values_list("payload", flat=True))
    for sent in (room_snapshot(room, bob, clock.now()), *events):
        assert "percentile" not in str(sent) and "standing" not in str(sent)
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    status, results = results_response(rnd, host_key)
    assert status == 200
    standing = new16_standing(game_data)
    shown = results["standing"]
    assert isinstance(shown, dict)
    assert shown["words"] == len(rnd.solution) and shown["points"] == rnd.max_score
    assert shown["score_percentile"] == standing.score_percentile(rnd.max_score)
    assert shown["words_percentile"] == standing.words_percentile(len(rnd.solution))
    assert shown["given"] is False and shown["label"] == "The board"
    assert shown["text"].endswith("of boards for these dice and this dictionary")


def test_a_given_board_is_ranked_too(game_data: Dictionary) -> None:
    new16_standing(game_data)
    room, host, host_key = make_room({"preset": "classic", "duration": 0})
    rooms.room_board_give(room=room, player=host, text="PERS/LATG/SINE/TERS")
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    _, results = results_response(rnd, host_key)
    shown = results["standing"]
    assert isinstance(shown, dict) and shown["given"] is True
    assert shown["label"] == "The host's board"
    assert rnd.board == "4x4-PERSLATGSINETERS" and shown["points"] == rnd.max_score
    assert shown["score_percentile"] == new16_standing(game_data).score_percentile(rnd.max_score)


@pytest.fixture
def later(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[Callable[[], None]]:
    """Background standings on (the suite turns them off), their threads kept to run here."""
    settings.BOARD_STANDINGS_IN_BACKGROUND = True
    jobs: list[Callable[[], None]] = []
    monkeypatch.setattr(boards, "_in_background", jobs.append)
    return jobs


def count_computations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = boards.standing_compute

    def counting(*args: Any, **kwargs: Any) -> Standing:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(boards, "standing_compute", counting)
    return calls


def run(job: Callable[[], None]) -> None:
    """Run a background job on a thread of its own, as the server does, and wait for it."""
    thread = threading.Thread(target=job)
    thread.start()
    thread.join()


@pytest.mark.django_db(transaction=True)
def test_an_any_board_round_never_waits_for_a_missing_standing(
    game_data: Dictionary, later: list[Callable[[], None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_computations(monkeypatch)
    room, host, host_key = make_room({"preset": "classic", "duration": 0})
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    assert not calls and rnd.standing is None  # started without it
    assert len(later) == 1  # left to a background thread, once the round was stored
    run(later[0])
    assert len(calls) == 1 and BoardStanding.objects.count() == 1
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    _, results = results_response(rnd, host_key)
    shown = results["standing"]  # known by the end: the results rank the board all the same
    assert shown["score_percentile"] == new16_standing(game_data).score_percentile(rnd.max_score)
    nxt = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED + 1)
    assert nxt.standing is not None and len(later) == 1 and len(calls) == 1


def test_results_without_a_standing_yet_give_the_totals(
    game_data: Dictionary, later: list[Callable[[], None]], django_capture_on_commit_callbacks: Any
) -> None:
    room, host, host_key = make_room({"preset": "classic", "duration": 0})
    with django_capture_on_commit_callbacks(execute=True):  # left to the background on commit
        rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    status, results = results_response(rnd, host_key)
    shown = results["standing"]
    assert status == 200 and not BoardStanding.objects.exists()
    assert shown["words"] == len(rnd.solution) and shown["points"] == rnd.max_score
    assert "score_percentile" not in shown and "richer" not in shown["text"]
    # one computation under way for the kind, however many rounds start meanwhile
    with django_capture_on_commit_callbacks(execute=True):  # asked again as this one commits
        rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED + 1)
    assert len(later) == 1


def test_without_background_standings_nothing_is_started(game_data: Dictionary) -> None:
    room, host, _ = make_room({"preset": "classic", "duration": 0})
    assert (
        boards.board_standing_later(
            dictionary=game_data,
            dice_set=DiceSet.objects.get(slug="new16"),
            rows=4,
            cols=4,
            rules=Rules(3, "king", "classic"),
        )
        is False
    )
    rnd = rounds.round_start(room=room, player=host, now=clock.now(), seed=SEED)
    assert rnd.standing is None and not BoardStanding.objects.exists()


def test_the_summary_says_words_points_and_percentile_in_plain_words() -> None:
    standing = {"score_percentile": 87.26, "words_percentile": 80.0}
    summary = board_summary(words=412, points=1034, standing=standing, letters=False, given=False)
    assert summary["text"] == (
        "412 words, 1,034 points — richer than 87% of boards for these dice and this dictionary"
    )
    letters = board_summary(words=1, points=1, standing=standing, letters=True, given=True)
    assert letters["text"] == (
        "1 word, 1 point — richer than 87% of boards for these letters and this dictionary"
    )


@pytest.mark.parametrize(
    ("percentile", "said"),
    [
        (99.7, "richer than 99% of boards for"),
        (100.0, "richer than every random board for"),
        (0.2, "poorer than 99% of boards for"),
        (50.5, "richer than 50% of boards for"),
        (0.0, "poorer than every random board for"),
    ],
)
def test_a_percentile_is_never_rounded_up_to_all_or_down_to_none(
    percentile: float, said: str
) -> None:
    standing = {"score_percentile": percentile, "words_percentile": percentile}
    text = board_summary(words=2, points=2, standing=standing, letters=False, given=False)["text"]
    assert f"2 words, 2 points — {said} these dice and this dictionary" == text


def test_without_a_standing_the_summary_gives_the_totals() -> None:
    summary = board_summary(words=3, points=4, standing=None, letters=False, given=False)
    assert summary == {
        "words": 3, "points": 4, "given": False, "label": "The board", "text": "3 words, 4 points"
    }  # fmt: skip
