"""`manage.py preset_standings`: the presets' standings are ready before any round, so that a
fresh server's first rounds never wait for one; `load_dictionaries` leaves them alone."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.rules.room_settings import PRESETS
from solver.boardlab import boards
from solver.caches import caches_clear
from solver.dictionaries import services, shipped
from solver.engine.standing import Standing
from solver.models import BoardStanding, DiceSet, Dictionary
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
    caches_clear("board standings")
    yield
    caches_clear("board standings")


def run(command: str) -> str:
    out = io.StringIO()
    call_command(command, stdout=out)
    return out.getvalue()


def test_standings_of_every_preset_are_stored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = boards.standing_compute

    def counting(*args: Any, **kwargs: Any) -> Standing:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(boards, "standing_compute", counting)
    said = run("preset_standings")
    stored = {
        (row.dice_set.slug, row.rows, row.cols, row.min_length, row.adjacency)
        for row in BoardStanding.objects.select_related("dice_set")
    }
    assert stored == {(p.dice, p.rows, p.cols, p.min_length, p.adjacency) for p in PRESETS.values()}
    assert len(calls) == len(PRESETS)
    for name in PRESETS:
        assert f"standing of {name} with algs4: " in said
    caches_clear("board standings")  # another process: read from the database, not computed
    run("preset_standings")
    assert len(calls) == len(PRESETS) and BoardStanding.objects.count() == len(PRESETS)


def test_loading_the_dictionaries_works_out_no_standing() -> None:
    assert "standing of" not in run("load_dictionaries")
    assert not BoardStanding.objects.exists()


def test_without_a_default_dictionary_it_says_what_to_run_first() -> None:
    Dictionary.objects.update(is_default=False)
    with pytest.raises(CommandError, match="load_dictionaries"):
        run("preset_standings")
    assert not BoardStanding.objects.exists()
