"""`manage.py load_dictionaries --standings`: the presets' standings are ready before any round,
so that a fresh server's first rounds never wait for one."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from games.room_settings import PRESETS
from solver import boards, services, shipped
from solver.engine.standing import Standing
from solver.models import BoardStanding, DiceSet
from tests.solver.conftest import DATA, dictionary_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_shipped_data(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The algs4 words as the default dictionary and the shipped dice sets, instead of the
    shipped dictionaries (seconds to compile)."""
    dictionary_of((DATA / "dictionaries" / "dictionary-algs4.txt").read_text(), slug="algs4")
    for fields in shipped.dice_sets():
        DiceSet.objects.get_or_create(slug=fields["slug"], defaults=fields)
    monkeypatch.setattr(services, "shipped_data_load", lambda: None)
    boards.board_standing_forget()
    yield
    boards.board_standing_forget()


def load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_dictionaries", *args, stdout=out)
    return out.getvalue()


def test_standings_of_every_preset_are_stored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = boards.standing_compute

    def counting(*args: Any, **kwargs: Any) -> Standing:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(boards, "standing_compute", counting)
    said = load("--standings")
    stored = {
        (row.dice_set.slug, row.rows, row.cols, row.min_length, row.adjacency)
        for row in BoardStanding.objects.select_related("dice_set")
    }
    assert stored == {(p.dice, p.rows, p.cols, p.min_length, p.adjacency) for p in PRESETS.values()}
    assert len(calls) == len(PRESETS)
    for name in PRESETS:
        assert f"standing of {name} with algs4: " in said
    boards.board_standing_forget()  # another process: read from the database, not computed
    load("--standings")
    assert len(calls) == len(PRESETS) and BoardStanding.objects.count() == len(PRESETS)


def test_without_the_option_no_standing_is_worked_out() -> None:
    assert "standing" not in load()
    assert not BoardStanding.objects.exists()
