"""The board lab in the admin: records by kind with a link that opens a room, and searches
started, watched and stopped from there."""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from solver.boardlab import runs as boardlab
from solver.boardlab.admin import run_services as board_run_services
from solver.boardlab.admin import runs as board_runs
from solver.boardlab.admin import search_form as board_search_form
from solver.boardlab.admin.run_selectors import SILENT_AFTER_S
from solver.engine.boardsearch import SearchError
from solver.models import BoardRecord, BoardSearchRun, DiceSet, Dictionary
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db

RECORDS = "/admin/solver/boardrecord/"
RUNS = "/admin/solver/boardsearchrun/"
START = f"{RUNS}add/"


@pytest.fixture
def dice(db: None) -> DiceSet:
    """A 2×2 dice set whose every roll is a word square of CAT/DOG letters."""
    return DiceSet.objects.create(
        name="Tiny four",
        slug="tiny4",
        rows=2,
        cols=2,
        dice=[["C", "D"], ["A", "O"], ["T", "G"], ["S", "S"]],
    )


def record(dictionary: Dictionary, dice_set: DiceSet | None, **fields: Any) -> BoardRecord:
    """Store a record as a search would (rows and code given; the rest defaulted)."""
    rows, code = fields.pop("rows_form", "CA/TS"), fields.pop("code", "2x2-CATS")
    values: dict[str, Any] = {
        "dictionary": dictionary,
        "dictionary_hash": dictionary.content_hash,
        "space": "dice" if dice_set else "free",
        "dice_set": dice_set,
        "rows": 2,
        "cols": 2,
        "objective": "max-score",
        "board": code,
        "board_rows": rows,
        "score": 2,
        "words": 2,
        "value": 2,
        "found_by": "board_search --dice tiny4",
        "seed": 7,
        **fields,
    }
    return BoardRecord.objects.create(**values)


def form_data(small: Dictionary, dice: DiceSet | None, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dictionary": small.pk,
        "dice_set": dice.pk if dice else "",
        "size": "",
        "objective": "max-score",
        "target": "",
        "long_length": "",
        "seconds": "5",
        "seed": "42",
        "jobs": "1",
        "min_length": "",
        "adjacency": "king",
        "scoring": "",
    }
    data.update(changes)
    return data


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the processes the admin would start instead of starting them."""
    calls: list[list[str]] = []

    def spawn(argv: list[str], log_path: Path) -> int:
        calls.append(argv)
        return 12345

    monkeypatch.setattr(board_run_services, "process_spawn", spawn)
    return calls


# Access ----------------------------------------------------------------------------------


def pages(small: Dictionary, dice: DiceSet, run: BoardSearchRun) -> list[str]:
    return [
        RECORDS,
        f"{RECORDS}best/{small.slug}/dice/{dice.slug}/",
        f"{RECORDS}best/{small.slug}/free/2x2/",
        RUNS,
        START,
        f"{RUNS}{run.pk}/change/",
        f"{RUNS}{run.pk}/progress.json",
    ]


def queued(small: Dictionary, dice: DiceSet | None = None, **fields: Any) -> BoardSearchRun:
    values: dict[str, Any] = {
        "dictionary": small,
        "space": "dice" if dice else "free",
        "dice_set": dice,
        "rows": 2,
        "cols": 2,
        "objective": "max-score",
        "seconds": 10,
        "seed": 3,
        **fields,
    }
    return BoardSearchRun.objects.create(**values)


def test_staff_see_every_board_lab_page(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    record(small, dice)
    record(small, None)
    run = queued(small, dice)
    for url in pages(small, dice, run):
        assert staff_client.get(url).status_code == 200, url


def test_others_are_sent_to_the_login_page_or_refused(
    client: Client, small: Dictionary, dice: DiceSet, spawned: list[list[str]]
) -> None:
    record(small, dice)
    record(small, None)
    run = queued(small, dice, status="running", started_at=timezone.now())
    urls = pages(small, dice, run)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    person = User.objects.create_user("person", password="pass-1234-word", is_staff=True)
    client.force_login(person)
    for url in urls:
        assert client.get(url).status_code == 403, url
    assert client.post(START, form_data(small, dice)).status_code == 403
    assert client.post(f"{RUNS}{run.pk}/stop/").status_code == 403
    assert BoardSearchRun.objects.count() == 1 and spawned == []
    assert BoardSearchRun.objects.get(pk=run.pk).status == "running"


def test_staff_who_may_only_view_runs_get_no_stop_button(
    client: Client, small: Dictionary, dice: DiceSet
) -> None:
    run = queued(small, dice, status="running", started_at=timezone.now())
    person = User.objects.create_user("viewer", password="pass-1234-word", is_staff=True)
    person.user_permissions.set(Permission.objects.filter(codename="view_boardsearchrun"))
    client.force_login(person)
    page = client.get(f"{RUNS}{run.pk}/change/").content.decode()
    assert "Stop the search" not in page
    assert client.post(f"{RUNS}{run.pk}/stop/").status_code == 403
    assert BoardSearchRun.objects.get(pk=run.pk).status == "running"


def test_records_can_be_deleted_but_not_added_or_edited(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    kept = record(small, dice)
    assert staff_client.get(f"{RECORDS}add/").status_code == 403
    page = staff_client.get(f"{RECORDS}{kept.pk}/change/").content.decode()
    assert 'name="_save"' not in page and "Open a room on this board" in page
    staff_client.post(f"{RECORDS}{kept.pk}/delete/", {"post": "yes"})
    assert not BoardRecord.objects.exists()


# The records pages -------------------------------------------------------------------------


def test_the_record_list_opens_with_the_kinds_that_have_records(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    record(small, dice)
    record(small, dice, code="2x2-DOGS", rows_form="DO/GS", value=1, score=1)
    record(small, None, rows=3, cols=3, code="3x3-CATSDOGSA", rows_form="CAT/SDO/GSA")
    page = staff_client.get(RECORDS).content.decode()
    assert f'href="{RECORDS}best/small/dice/tiny4/"' in page
    assert f'href="{RECORDS}best/small/free/3x3/"' in page
    filtered = staff_client.get(f"{RECORDS}?dice_set__id__exact={dice.pk}").content.decode()
    assert "best/small/dice/tiny4/" in filtered and "best/small/free/3x3/" not in filtered


def test_a_kind_page_lists_the_best_boards_per_objective_with_a_room_link(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    record(small, dice, code="2x2-DOGS", rows_form="DO/GS", value=1, score=1, seed=11)
    record(small, dice, value=2, seed=12)
    record(small, dice, objective="min-score", code="2x2-COGS", rows_form="CO/GS", value=0)
    record(small, dice, objective="min-score", value=2)
    for score, rows in ((3, "TA/CS"), (7, "TO/GS"), (4, "DA/CS")):
        code = f"2x2-{rows.replace('/', '')}"
        target = {"objective": "target", "parameter": 5, "score": score, "value": abs(score - 5)}
        record(small, dice, code=code, rows_form=rows, **target)
    response = staff_client.get(f"{RECORDS}best/small/dice/tiny4/")
    page = response.content.decode()
    groups = [g.title for g in response.context["groups"]]
    assert groups == ["highest score", "lowest score", "exact score 5"]
    best = [[r.record.board for r in g.rows] for g in response.context["groups"]]
    assert best[0] == ["2x2-CATS", "2x2-DOGS"]  # highest value first
    assert best[1] == ["2x2-COGS", "2x2-CATS"]  # lowest value first
    assert [r.record.score for r in response.context["groups"][2].rows] == [
        4,
        3,
        7,
    ]  # nearest 5, then earliest
    assert "<td>C</td><td>A</td>" in page and "Open a room on this board" in page
    assert '<th scope="col">Off target by</th>' in page  # an exact score's value: its distance
    assert "board_search --dice tiny4" in page and ">12<" in page


def test_the_room_link_fills_in_the_create_room_form(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    record(small, dice, min_length=4, scoring="linear", adjacency="rook")
    record(small, None, rows=3, cols=3, code="3x3-CATSDOGSA", rows_form="CAT/SDO/GSA")
    response = staff_client.get(f"{RECORDS}best/small/dice/tiny4/")
    url = response.context["groups"][0].rows[0].room_url
    path, query = urlsplit(url).path, parse_qs(urlsplit(url).query)
    assert path == "/"
    assert query == {
        "board": ["2x2-CATS"],
        "dice": ["tiny4"],
        "dictionary": ["small"],
        "rows": ["2"],
        "cols": ["2"],
        "min_length": ["4"],
        "adjacency": ["rook"],
        "scoring": ["linear"],
    }
    assert url.replace("&", "&amp;") in response.content.decode()


def test_a_free_board_opens_with_a_letter_set_that_can_draw_it(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    """Without dice the home form would fall back to the default dice, which cannot play a
    free board: the link names a letter-frequency set holding every face, or there is none."""
    record(small, None, rows=3, cols=3, code="3x3-CATSDOGSA", rows_form="CAT/SDO/GSA")
    page = f"{RECORDS}best/small/free/3x3/"
    free = staff_client.get(page).context["groups"][0].rows[0]
    assert free.room_url is None
    assert "No dice set of the game can draw this board." in staff_client.get(page).content.decode()
    DiceSet.objects.create(name="Vowels", slug="vowels", letter_frequencies={"A": 1, "O": 1})
    DiceSet.objects.create(
        name="Dog letters", slug="dogs", letter_frequencies={k: 1 for k in "CATSDOG"}
    )
    free = staff_client.get(page).context["groups"][0].rows[0]
    query = parse_qs(urlsplit(free.room_url).query)
    assert query["dice"] == ["dogs"] and query["board"] == ["3x3-CATSDOGSA"]
    assert (query["rows"], query["cols"]) == (["3"], ["3"])


def test_records_of_an_earlier_word_list_are_marked(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    record(small, dice, dictionary_hash="0" * 64)
    assert (
        "earlier word list" in staff_client.get(f"{RECORDS}best/small/dice/tiny4/").content.decode()
    )


def test_a_kind_without_records_is_not_found(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    assert staff_client.get(f"{RECORDS}best/small/dice/tiny4/").status_code == 404
    assert staff_client.get(f"{RECORDS}best/nothing/free/4x4/").status_code == 404


# Starting a search --------------------------------------------------------------------------


def test_the_form_shows_a_random_seed_and_takes_its_kind_from_the_query(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    form = staff_client.get(f"{START}?dictionary={small.pk}&size=3x4").context["form"]
    assert isinstance(form.initial["seed"], int)
    assert form.initial["size"] == "3x4" and form.initial["dictionary"] == str(small.pk)


def test_a_valid_form_queues_a_run_and_launches_its_command(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    spawned: list[list[str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(START, form_data(small, dice, seconds="30", seed="99"))
    run = BoardSearchRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{RUNS}{run.pk}/change/"
    assert (run.space, run.dice_set, run.rows, run.cols) == ("dice", dice, 2, 2)
    assert (run.objective, run.seconds, run.seed, run.jobs, run.status) == (
        "max-score",
        30,
        99,
        1,
        "queued",
    )
    assert (run.min_length, run.adjacency, run.scoring) == (3, "king", "classic")
    assert run.started_by == "admin"
    [argv] = spawned
    assert argv[1].endswith("manage.py") and argv[2:] == ["board_search", "--run", str(run.pk)]


def test_a_free_search_takes_its_size_rules_and_parameter(
    staff_client: Client,
    small: Dictionary,
    spawned: list[list[str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    data = form_data(
        small,
        None,
        size="3×5",
        objective="most-long-words",
        long_length="5",
        min_length="4",
        scoring="linear",
        adjacency="rook",
        seed="",
    )
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(START, data)
    run = BoardSearchRun.objects.get()
    assert (run.space, run.dice_set, run.rows, run.cols, run.parameter) == ("free", None, 3, 5, 5)
    assert (run.min_length, run.adjacency, run.scoring) == (4, "rook", "linear")
    assert 0 <= run.seed < 2**32 and len(spawned) == 1


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"dice_set": "99999"}, "dice_set", board_search_form.UNKNOWN_DICE),
        ({"objective": "target"}, "target", board_search_form.TARGET_MISSING),
        ({"objective": "most-long-words"}, "long_length", board_search_form.LONG_MISSING),
        (
            {"objective": "most-long-words", "long_length": "3"},
            "long_length",
            board_search_form.LONG_TOO_SHORT.format(min_length=3),
        ),
        ({"seconds": "0"}, "seconds", "Ensure this value is greater than or equal to 1."),
        ({"seconds": "3601"}, "seconds", "Ensure this value is less than or equal to 3600."),
        ({"dice_set": "", "size": "0x4"}, "size", "A board has 1 to 10 rows and columns, not 0×4."),
        ({"dice_set": "", "size": "four"}, "size", board_search_form.SIZE_FORM),
        ({"dice_set": ""}, "__all__", board_search_form.SPACE_NONE),
        ({"size": "4x4"}, "__all__", board_search_form.SPACE_BOTH),
        ({"jobs": "0"}, "jobs", "Ensure this value is greater than or equal to 1."),
        ({"dictionary": "99999"}, "dictionary", board_search_form.UNKNOWN_DICTIONARY),
    ],
)
def test_bad_input_gets_one_clear_message_and_starts_nothing(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    spawned: list[list[str]],
    changes: dict[str, str],
    field: str,
    message: str,
) -> None:
    response = staff_client.post(START, form_data(small, dice, **changes))
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [message]}
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert not BoardSearchRun.objects.exists() and spawned == []


def test_more_processes_than_cores_are_refused(
    staff_client: Client, small: Dictionary, dice: DiceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board_search_form, "cores", lambda: 2)
    response = staff_client.post(START, form_data(small, dice, jobs="3"))
    assert response.context["form"].errors == {
        "jobs": ["Ensure this value is less than or equal to 2."]
    }
    assert not BoardSearchRun.objects.exists()


def test_one_search_at_a_time_per_user_and_no_more_processes_than_cores(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    spawned: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One staff user ran six searches at once, one for 3,600 s on every core: eighteen
    processes on two cores. A second search waits for the first; all searches together use
    at most the machine's cores; a run whose process went silent holds nothing."""
    monkeypatch.setattr(board_search_form, "cores", lambda: 2)
    assert staff_client.post(START, form_data(small, dice, jobs="1")).status_code == 302
    first = BoardSearchRun.objects.get()
    again = staff_client.post(START, form_data(small, dice, jobs="1"))
    assert again.status_code == 400
    message = board_run_services.ONE_AT_A_TIME.format(run=first.pk)
    assert again.context["form"].non_field_errors() == [message]

    other = Client()
    other.force_login(User.objects.create_superuser("bea", "bea@example.com", password=None))
    crowded = other.post(START, form_data(small, dice, jobs="2"))
    assert crowded.status_code == 400
    busy = board_run_services.CORES_BUSY.format(cores=2, busy=1, runs=f"search #{first.pk}")
    assert crowded.context["form"].non_field_errors() == [busy]
    assert other.post(START, form_data(small, dice, jobs="1")).status_code == 302  # fits
    assert BoardSearchRun.objects.count() == 2

    # The first run's process died long ago: it holds neither its user nor its core.
    long_ago = timezone.now() - timedelta(seconds=SILENT_AFTER_S + 60)
    BoardSearchRun.objects.filter(pk=first.pk).update(created_at=long_ago)
    assert staff_client.post(START, form_data(small, dice, jobs="1")).status_code == 302
    assert BoardSearchRun.objects.count() == 3


def test_a_frequency_set_has_no_dice_to_search(
    staff_client: Client, small: Dictionary, dice: DiceSet, spawned: list[list[str]]
) -> None:
    letters = DiceSet.objects.create(name="Letters", slug="letters", letter_frequencies={"E": 1})
    response = staff_client.post(START, form_data(small, letters))
    assert response.context["form"].errors == {"dice_set": [board_search_form.UNKNOWN_DICE]}
    choices = [label for _, label in response.context["form"].fields["dice_set"].choices]
    assert "Tiny four" in choices and "Letters" not in choices
    assert not BoardSearchRun.objects.exists()


def test_a_process_that_cannot_start_fails_the_run(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def refuse(argv: list[str], log_path: Path) -> int:
        raise OSError("no such interpreter")

    monkeypatch.setattr(board_run_services, "process_spawn", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(START, form_data(small, dice))
    run = BoardSearchRun.objects.get()
    assert run.status == "failed" and "no such interpreter" in run.error
    assert run.finished_at is not None


# Watching and stopping -----------------------------------------------------------------------


def test_progress_reports_the_best_board_so_far(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    run = queued(
        small,
        dice,
        status="running",
        started_at=timezone.now() - timedelta(seconds=3),
        progress={
            "best_value": 4,
            "best_board": "CA/TS",
            "score": 4,
            "words": 3,
            "boards": 1500,
            "boards_per_s": 500.0,
            "elapsed": 2.5,
        },
    )
    report = staff_client.get(f"{RUNS}{run.pk}/progress.json").json()
    assert report["status"] == "running" and not report["finished"] and not report["silent"]
    assert report["fraction"] == 0.25 and report["elapsed"] == 2.5 and report["seconds"] == 10
    assert report["grid"] == [["C", "A"], ["T", "S"]]
    assert (report["best_value"], report["boards"], report["boards_per_s"]) == (4, 1500, 500.0)
    page = staff_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    assert 'data-field="best_board">CA/TS<' in page and "Stop the search" in page
    assert "solver/board_search_run.js" in page and "<script>" not in page


def test_a_run_whose_process_went_silent_is_shown_as_not_responding(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    long_ago = timezone.now() - timedelta(seconds=SILENT_AFTER_S + 30)
    run = queued(small, dice, status="running", started_at=long_ago, progress={"elapsed": 5})
    report = staff_client.get(f"{RUNS}{run.pk}/progress.json").json()
    assert report["silent"] and report["status_label"] == "not responding"
    assert "not responding" in staff_client.get(RUNS).content.decode()
    assert "Mark as failed" in staff_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    staff_client.post(f"{RUNS}{run.pk}/stop/")
    run.refresh_from_db()
    assert run.status == "failed" and "stopped reporting" in run.error and run.finished_at


def test_a_run_heard_from_lately_is_not_silent_whatever_its_progress_says(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    """Loading a dictionary or checking the boards writes no progress, but the process is
    alive: what counts is when it last said so."""
    long_ago = timezone.now() - timedelta(seconds=SILENT_AFTER_S + 30)
    run = queued(small, dice, status="running", started_at=long_ago, progress={"elapsed": 5})
    BoardSearchRun.objects.filter(pk=run.pk).update(heard_at=timezone.now())
    report = staff_client.get(f"{RUNS}{run.pk}/progress.json").json()
    assert not report["silent"] and report["status"] == "running"
    BoardSearchRun.objects.filter(pk=run.pk).update(heard_at=long_ago)
    assert staff_client.get(f"{RUNS}{run.pk}/progress.json").json()["silent"]


def test_a_queued_run_that_no_process_took_is_not_responding(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    run = queued(small, dice)
    BoardSearchRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - timedelta(seconds=SILENT_AFTER_S + 1)
    )
    assert staff_client.get(f"{RUNS}{run.pk}/progress.json").json()["silent"]
    staff_client.post(f"{RUNS}{run.pk}/stop/")
    run.refresh_from_db()
    assert run.status == "failed" and "never started" in run.error


def test_stop_asks_a_running_search_to_stop(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    progress = {"elapsed": 2.5, "best_value": 2, "best_board": "CA/TS"}
    run = queued(small, dice, status="running", started_at=timezone.now(), progress=progress)
    assert staff_client.get(f"{RUNS}{run.pk}/stop/").status_code == 405
    response = staff_client.post(f"{RUNS}{run.pk}/stop/")
    assert response.status_code == 302 and response["Location"] == f"{RUNS}{run.pk}/change/"
    run.refresh_from_db()
    # The process finishes the run (finished_at, records) when it sees the status.
    assert run.status == "stopped" and run.finished_at is None
    report = staff_client.get(f"{RUNS}{run.pk}/progress.json").json()
    assert report["status_label"] == "stopping" and not report["finished"]
    assert report["fraction"] == 0.25
    BoardSearchRun.objects.filter(pk=run.pk).update(finished_at=timezone.now())
    report = staff_client.get(f"{RUNS}{run.pk}/progress.json").json()
    assert report["finished"] and report["fraction"] == 0.25  # stopped a quarter of the way


def test_a_stopping_run_whose_process_died_can_be_marked_failed(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    long_ago = timezone.now() - timedelta(seconds=SILENT_AFTER_S + 30)
    run = queued(small, dice, status="stopped", started_at=long_ago, progress={"elapsed": 5})
    assert staff_client.get(f"{RUNS}{run.pk}/progress.json").json()["silent"]
    assert "Mark as failed" in staff_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    staff_client.post(f"{RUNS}{run.pk}/stop/")
    run.refresh_from_db()
    assert run.status == "failed" and run.finished_at is not None


def test_stop_finishes_a_queued_run_and_leaves_a_finished_one_alone(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    waiting = queued(small, dice)
    staff_client.post(f"{RUNS}{waiting.pk}/stop/")
    waiting.refresh_from_db()
    assert waiting.status == "stopped" and waiting.finished_at is not None
    done = queued(small, dice, status="done", finished_at=timezone.now())
    staff_client.post(f"{RUNS}{done.pk}/stop/")
    assert BoardSearchRun.objects.get(pk=done.pk).status == "done"


def test_a_running_search_cannot_be_deleted(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    run = queued(small, dice, status="running", started_at=timezone.now())
    page = staff_client.get(f"{RUNS}{run.pk}/delete/").content.decode()
    assert board_runs.STILL_ACTIVE.format(id=run.pk) in page
    staff_client.post(f"{RUNS}{run.pk}/delete/", {"post": "yes"})
    assert BoardSearchRun.objects.filter(pk=run.pk).exists()
    staff_client.post(
        RUNS, {"action": "delete_selected", "_selected_action": [run.pk], "post": "yes"}
    )
    assert BoardSearchRun.objects.filter(pk=run.pk).exists()
    run.status = "done"
    run.save()
    staff_client.post(f"{RUNS}{run.pk}/delete/", {"post": "yes"})
    assert not BoardSearchRun.objects.exists()


def test_a_finished_run_shows_the_records_it_found_best_first(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    run = queued(
        small,
        dice,
        objective="min-score",
        status="done",
        finished_at=timezone.now(),
        progress={"elapsed": 10},
    )
    record(small, dice, run=run, objective="min-score", found_by=f"search #{run.pk}")
    record(small, dice, run=run, objective="min-score", code="2x2-COGS", value=0, score=0)
    response = staff_client.get(f"{RUNS}{run.pk}/change/")
    assert [row.record.board for row in response.context["found"]] == ["2x2-COGS", "2x2-CATS"]
    page = response.content.decode()
    assert "Boards found" in page and "2x2-CATS" in page and "Open a room on this board" in page
    assert "Stop the search" not in page
    assert staff_client.get(f"{RUNS}{run.pk}/progress.json").json()["fraction"] == 1.0


def test_a_second_dictionary_keeps_its_records_apart(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    other = dictionary_of("cog cogs", slug="other")
    record(other, dice, code="2x2-COGS", rows_form="CO/GS")
    record(small, dice)
    groups = staff_client.get(f"{RECORDS}best/other/dice/tiny4/").context["groups"]
    boards = [row.record.board for group in groups for row in group.rows]
    assert boards == ["2x2-COGS"]


# End to end ---------------------------------------------------------------------------------


def test_a_search_started_here_runs_and_its_boards_open_rooms(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    spawned: list[list[str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(START, form_data(small, dice, seconds="1", seed="5"))
    run = BoardSearchRun.objects.get()
    [argv] = spawned
    call_command(*argv[2:], stdout=StringIO(), stderr=StringIO())  # what the process runs
    run.refresh_from_db()
    assert run.status == "done" and run.finished_at is not None
    best = run.records.order_by("-value").first()
    assert best is not None and best.seed == 5 and best.dice_set == dice
    # The dice roll C/D, A/O, T/G and S: CATS (cat, cats) or DOGS (dog, dogs) score 2.
    assert best.value == best.score == 2 and run.progress["best_value"] == 2
    page = staff_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    assert "(ended: its time ran out)" in page
    assert "Boards found" in page and best.board in page
    assert staff_client.get(f"{RUNS}{run.pk}/progress.json").json()["finished"] is True
    kind = staff_client.get(f"{RECORDS}best/small/dice/tiny4/")
    [group] = kind.context["groups"]
    assert group.rows[0].record == best
    query = parse_qs(urlsplit(group.rows[0].room_url).query)
    assert query["board"] == [best.board] and query["dice"] == ["tiny4"]
    home = staff_client.get(group.rows[0].room_url).content.decode()
    assert f'value="{best.board}"' in home  # the create-room form, filled in with the board


def test_dictionary_and_dice_set_pages_link_to_their_best_boards(
    staff_client: Client, small: Dictionary, dice: DiceSet
) -> None:
    page = staff_client.get(f"/admin/solver/dictionary/{small.pk}/change/").content.decode()
    assert f'href="{RECORDS}?dictionary__id__exact={small.pk}">Best boards<' in page
    page = staff_client.get(f"/admin/solver/diceset/{dice.pk}/change/").content.decode()
    assert f'href="{RECORDS}?dice_set__id__exact={dice.pk}">Best boards<' in page


def test_the_launched_process_is_detached_and_writes_its_log(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "run-1.log"
    code = "import os; print(os.getsid(0) == os.getpid(), flush=True)"
    pid = board_run_services.process_spawn([sys.executable, "-c", code], log)
    deadline = time.monotonic() + 20
    while not log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pid > 0 and log.read_text() == "True\n"  # the leader of a session of its own


def test_a_log_that_cannot_be_written_does_not_stop_the_search(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').write('yes')"
    board_run_services.process_spawn([sys.executable, "-c", code], blocked / "run-1.log")
    deadline = time.monotonic() + 20
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists()


def test_a_search_the_engine_refuses_is_reported_on_the_form(
    staff_client: Client,
    small: Dictionary,
    dice: DiceSet,
    spawned: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(**fields: Any) -> BoardSearchRun:
        raise SearchError("there is only one board of this kind: nothing to search")

    monkeypatch.setattr(boardlab, "board_search_run_create", refuse)
    response = staff_client.post(START, form_data(small, dice))
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "__all__": ["there is only one board of this kind: nothing to search"]
    }
    assert not BoardSearchRun.objects.exists() and spawned == []
