"""The dice-set admin: dice as text, validation against the board, and a rolled preview."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from solver.admin.dice_sets import BAD_FREQUENCY_LINE
from solver.models import DiceSet

pytestmark = pytest.mark.django_db
ADMIN = "/admin/solver/diceset/"


def form_data(**changes: Any) -> dict[str, Any]:
    data = {
        "name": "Tiny",
        "slug": "tiny",
        "description": "",
        "rows": 2,
        "cols": 2,
        "dice": "AAEEGN\n[Qu][In]__TH\nABCDEF\nHIMNQU",
        "letter_frequencies": "",
        "min_length": 3,
        "scoring": "classic",
        "is_active": "on",
    }
    data.update(changes)
    return data


def errors(response: Any) -> dict[str, list[str]]:
    form = response.context["adminform"].form
    return {name: [str(e) for e in errs] for name, errs in form.errors.items()}


def test_dice_written_as_text_are_stored_as_faces(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data())
    assert response.status_code == 302
    tiny = DiceSet.objects.get(slug="tiny")
    assert tiny.dice[1] == ["QU", "IN", "", "", "T", "H"]
    assert tiny.dice[3] == ["H", "I", "M", "N", "QU", "U"]


def test_the_dice_must_fill_the_board(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data(rows=3))
    assert errors(response) == {"dice": ["4 dice cannot fill a 3×2 board."]}
    assert not DiceSet.objects.exists()


def test_every_die_needs_the_same_number_of_faces(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data(dice="AAEEGN\nABC\nABCDEF\nABCDEF"))
    assert errors(response) == {
        "dice": ["Every die needs the same number of faces (found [3, 6])."]
    }


def test_a_bad_face_is_named(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data(dice="AAEEGN\nAB1DEF\nABCDEF\nABCDEF"))
    assert errors(response)["dice"][0].startswith("die 2: unknown face '1'")


def test_a_letter_frequency_set_needs_no_dice(staff_client: Client) -> None:
    data = form_data(dice="", letter_frequencies="E 12.7\nQu 0.1\n\nz 0.07")
    assert staff_client.post(f"{ADMIN}add/", data).status_code == 302
    assert DiceSet.objects.get(slug="tiny").letter_frequencies == {"E": 12.7, "QU": 0.1, "Z": 0.07}


@pytest.mark.parametrize("line", ["E", "E twelve", "E -1", "E 1 2", "[In 3", "_ 4"])
def test_a_bad_frequency_line_is_named(staff_client: Client, line: str) -> None:
    data = form_data(dice="", letter_frequencies=f"A 1\n{line}")
    response = staff_client.post(f"{ADMIN}add/", data)
    assert errors(response) == {"letter_frequencies": [BAD_FREQUENCY_LINE.format(n=2)]}


def test_dice_and_frequencies_together_are_refused(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data(letter_frequencies="E 1"))
    assert "not both" in str(errors(response))


def test_the_change_form_shows_the_dice_as_text(staff_client: Client, shipped_data: None) -> None:
    superbig = DiceSet.objects.get(slug="superbig36")
    html = staff_client.get(f"{ADMIN}{superbig.pk}/change/").content.decode()
    assert "[Qu][In][Th][Er][He][An]" in html and "EIO___" in html


def test_the_preview_rolls_a_board_and_repeats_a_seed(
    staff_client: Client, shipped_data: None
) -> None:
    big = DiceSet.objects.get(slug="big25")
    first = staff_client.get(f"{ADMIN}{big.pk}/change/", {"seed": 42})
    again = staff_client.get(f"{ADMIN}{big.pk}/change/", {"seed": 42}).context["roll"]
    roll = first.context["roll"]
    assert roll["share_code"] == again["share_code"] and roll["share_code"].startswith("5x5-")
    assert len(roll["grid"]) == 5 and all(len(row) == 5 for row in roll["grid"])
    assert f'href="?seed={roll["next_seed"]}#roll">Roll again' in first.content.decode()


def test_the_list_shows_kind_and_size(staff_client: Client, shipped_data: None) -> None:
    html = staff_client.get(ADMIN).content.decode()
    assert "36 dice" in html and "letter frequencies" in html and "6×6" in html
