"""Everyday-word dictionaries: the cut, the derive services, the admin page, the shipped one."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from games.rooms.forms import dictionary_choices
from solver.dictionaries import services, shipped
from solver.dictionaries.services import DictionaryChangeError
from solver.engine.everyday import everyday_cut
from solver.everyday.admin import CHANGED_SINCE_PREVIEW
from solver.everyday.services import (
    NOTHING_KEPT,
    SLUG_TAKEN,
    THRESHOLD_RANGE,
    dictionary_everyday_derive,
    dictionary_everyday_preview,
)
from solver.models import Dictionary
from tests.solver.conftest import dictionary_of

# A small fixed dictionary with its own Zipf figures, so that the counts do not depend on
# wordfreq's data.
FIGURES = {
    "AA": 4.0, "OE": 2.9, "CAT": 4.8, "DOG": 5.1, "EWE": 2.8, "OAT": 2.9, "QAT": 1.9,
    "ADZ": 1.7, "CWM": 2.3, "HOUSE": 5.5, "AALII": 0.0, "XYST": 0.0, "ZYZZYVA": 0.0,
}  # fmt: skip
WORDS = sorted(FIGURES)
DERIVE = "/admin/solver/dictionary/derive-everyday/"


def test_the_cut_counts_what_it_keeps_and_drops_with_examples() -> None:
    cut = everyday_cut(WORDS, threshold=2.8, min_length=3, zipf=FIGURES.__getitem__, examples=3)
    assert cut.kept.words == ("CAT", "DOG", "EWE", "HOUSE", "OAT")
    assert (cut.kept_count, cut.dropped_rare, cut.dropped_short, cut.total) == (5, 6, 2, 13)
    assert cut.most_common_dropped == [("CWM", 2.3), ("QAT", 1.9), ("ADZ", 1.7)]
    assert cut.least_common_kept == [("EWE", 2.8), ("OAT", 2.9), ("CAT", 4.8)]
    # Evenly spaced through the dropped words in alphabetical order (AALII ADZ CWM QAT XYST
    # ZYZZYVA): the first, the third and the fifth.
    assert cut.rare_dropped == [("AALII", 0.0), ("CWM", 2.3), ("XYST", 0.0)]
    assert cut.kept.alphabet == "ACDEGHOSTUW"


def test_without_a_minimum_length_common_two_letter_words_stay() -> None:
    cut = everyday_cut(WORDS, threshold=2.8, zipf=FIGURES.__getitem__)
    assert "AA" in cut.kept.words and "OE" in cut.kept.words and cut.dropped_short == 0


def test_wordfreqs_figures_drop_obscure_scrabble_words_and_keep_common_ones() -> None:
    cut = everyday_cut(WORDS, threshold=2.7, min_length=3)
    assert {"CAT", "DOG", "HOUSE", "EWE", "OAT"} <= set(cut.kept.words)
    assert not {"QAT", "ADZ", "AALII", "XYST", "ZYZZYVA", "AA", "OE"} & set(cut.kept.words)


@pytest.fixture
def nursery(db: None) -> Dictionary:
    return dictionary_of("cat dog house ewe qat aalii xyst aa", slug="nursery", licence="PD")


def test_deriving_creates_a_dictionary_like_any_other(nursery: Dictionary) -> None:
    made = dictionary_everyday_derive(
        source=nursery, name="Everyday nursery", slug="everyday-nursery", threshold=4.5,
        min_length=3,
    )  # fmt: skip
    assert made.word_count == 3  # CAT, DOG, HOUSE
    assert made.source == "derived from Nursery, Zipf ≥ 4.5, min length 3"
    assert made.licence == "PD" and made.alphabet == nursery.alphabet and made.is_active
    assert not made.changes.exists()
    services.dictionary_word_add(dictionary=made, word="ewe")  # extras work as anywhere
    assert Dictionary.objects.get(pk=made.pk).word_count == 4


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"threshold": 8.5}, THRESHOLD_RANGE),
        ({"threshold": -1}, THRESHOLD_RANGE),
        ({"slug": "nursery"}, SLUG_TAKEN.format(slug="nursery")),
        (
            {"threshold": 7.9},
            NOTHING_KEPT.format(name="Nursery", threshold=7.9, min_length=3),
        ),
    ],
)
def test_bad_figures_are_refused_and_nothing_is_created(
    nursery: Dictionary, changes: dict[str, Any], message: str
) -> None:
    fields: dict[str, Any] = {"name": "E", "slug": "e", "threshold": 3.0, "min_length": 3}
    with pytest.raises(DictionaryChangeError) as refused:
        dictionary_everyday_derive(source=nursery, **{**fields, **changes})
    assert str(refused.value) == message
    assert list(Dictionary.objects.values_list("slug", flat=True)) == ["nursery"]


def test_the_preview_changes_nothing(nursery: Dictionary) -> None:
    cut = dictionary_everyday_preview(source=nursery, threshold=4.5, min_length=3)
    assert cut.kept.words == ("CAT", "DOG", "HOUSE") and cut.dropped_short == 1
    assert Dictionary.objects.count() == 1


# The admin page ---------------------------------------------------------------------------


def post(client: Client, nursery: Dictionary, **changes: Any) -> Any:
    data = {
        "source": nursery.pk, "name": "Everyday nursery", "slug": "everyday-nursery",
        "threshold": "4.5", "min_length": "3", "action": "preview",
    }  # fmt: skip
    return client.post(DERIVE, {**data, **changes})


def test_the_admin_previews_then_saves(staff_client: Client, nursery: Dictionary) -> None:
    page = staff_client.get(f"{DERIVE}?source={nursery.pk}")
    assert page.status_code == 200 and b"Derive an everyday dictionary" in page.content
    preview = post(staff_client, nursery)
    assert preview.status_code == 200
    cut = preview.context["preview"]
    assert (cut.kept_count, cut.dropped_rare, cut.dropped_short) == (3, 4, 1)
    html = preview.content.decode()
    assert 'data-field="kept"><strong>3</strong>' in html and "QAT" in html
    assert Dictionary.objects.count() == 1  # a preview creates nothing
    previewed = preview.context["form"]["previewed"].value()
    saved = post(staff_client, nursery, action="save", previewed=previewed)
    made = Dictionary.objects.get(slug="everyday-nursery")
    assert saved.status_code == 302 and saved["Location"].endswith(f"/{made.pk}/change/")
    assert made.word_count == 3 and made.source.endswith("Zipf ≥ 4.5, min length 3")


def test_saving_figures_other_than_the_previewed_ones_previews_them_first(
    staff_client: Client, nursery: Dictionary
) -> None:
    previewed = post(staff_client, nursery).context["form"]["previewed"].value()
    again = post(staff_client, nursery, action="save", previewed=previewed, threshold="2")
    assert again.status_code == 200 and again.context["preview"].threshold == 2.0
    assert [str(m) for m in again.context["messages"]] == [CHANGED_SINCE_PREVIEW]
    assert not Dictionary.objects.filter(slug="everyday-nursery").exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"threshold": "9"}, THRESHOLD_RANGE),
        ({"slug": "nursery"}, SLUG_TAKEN.format(slug="nursery")),
        ({"threshold": "7.9"}, NOTHING_KEPT.format(name="Nursery", threshold=7.9, min_length=3)),
    ],
)
@pytest.mark.parametrize("action", ["preview", "save"])
def test_the_admin_refuses_bad_input_with_one_message(
    staff_client: Client, nursery: Dictionary, changes: dict[str, Any], message: str, action: str
) -> None:
    response = post(staff_client, nursery, action=action, **changes)
    assert response.status_code == 400
    form = response.context["form"]
    assert [e for errors in form.errors.values() for e in errors] == [message]
    assert response.context["preview"] is None
    assert not list(response.context["messages"])
    assert response.content.decode().count(escape(message)) == 1  # said once, at the top
    assert list(Dictionary.objects.values_list("slug", flat=True)) == ["nursery"]


def test_the_change_page_and_the_list_link_to_the_derive_page(
    staff_client: Client, nursery: Dictionary
) -> None:
    change = staff_client.get(f"/admin/solver/dictionary/{nursery.pk}/change/")
    assert f'href="{DERIVE}?source={nursery.pk}"'.encode() in change.content
    assert f'href="{DERIVE}"'.encode() in staff_client.get("/admin/solver/dictionary/").content
    action = staff_client.post(
        "/admin/solver/dictionary/",
        {"action": "derive_everyday", "_selected_action": [nursery.pk]},
    )
    assert action.status_code == 302 and action["Location"] == f"{DERIVE}?source={nursery.pk}"


# The shipped one ----------------------------------------------------------------------------


def test_everyday_english_is_shipped_after_yawl_once(db: None) -> None:
    services.shipped_data_load()
    slugs = list(Dictionary.objects.order_by("pk").values_list("slug", flat=True))
    assert slugs == ["yawl", "enable2k", "everyday"]
    everyday = Dictionary.objects.get(slug="everyday")
    assert everyday.name == "Everyday English" and everyday.is_active
    assert everyday.source == "derived from YAWL, Zipf ≥ 2.7, min length 3"
    assert 20_000 <= everyday.word_count <= 40_000
    words = set(shipped.everyday_words()[0].words)
    assert {"CAT", "DOG", "OAT", "EWE", "TOE", "AXE", "YAK"} <= words
    assert not {"QAT", "XU", "OE", "AA", "ADZ", "AALII"} & words
    assert ("everyday", "Everyday English") in dictionary_choices()
    before = everyday.updated_at
    services.shipped_data_load()
    assert Dictionary.objects.filter(slug="everyday").get().updated_at == before
    assert Dictionary.objects.count() == 3
