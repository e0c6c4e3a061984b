"""The dictionary admin: uploads, the list, statistics, the two tools and the buttons."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from solver.admin.forms import ALPHABET_NEEDS_UPLOAD, FILE_REQUIRED
from solver.dictionaries.services import ALREADY_IN, DEFAULT_DEACTIVATE
from solver.dictionaries.uploads import NOT_UTF8
from solver.models import Dictionary, DictionaryWord
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db
ADMIN = "/admin/solver/dictionary/"
AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def form_data(dictionary: Dictionary | None = None, **changes: Any) -> dict[str, Any]:
    """Return the fields the change form posts, as a browser would send them."""
    data = {
        "name": "Nursery",
        "slug": "nursery",
        "language": "en",
        "description": "",
        "source": "",
        "licence": "",
        "alphabet": AZ,
    }
    if dictionary is not None:
        data.update({key: getattr(dictionary, key) for key in data})
    data.update(changes)
    return data


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/octet-stream")


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_uploading_a_word_list_creates_a_dictionary(staff_client: Client) -> None:
    words = upload("nursery.txt.gz", gzip.compress(b"Humpty dumpty sat on a wall\nwall wall 42"))
    response = staff_client.post(f"{ADMIN}add/", form_data(word_file=words), follow=True)
    assert response.status_code == 200
    created = Dictionary.objects.get(slug="nursery")
    assert created.word_count == 6 and created.is_default
    assert "Stored 6 words from nursery.txt.gz." in messages_of(response)
    assert "removed 2 duplicate word(s)" in messages_of(response)
    skipped = "skipped 1 word(s) with characters that are not letters, e.g. 42"
    assert skipped in messages_of(response)
    assert created.upload_report == f"removed 2 duplicate word(s)\n{skipped}"


def test_a_new_dictionary_needs_a_file(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data())
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["word_file"] == [FILE_REQUIRED]
    assert not Dictionary.objects.exists()


def test_a_refused_upload_shows_why_and_creates_nothing(staff_client: Client) -> None:
    latin1 = upload("latin1.txt", "caf\u00e9\n".encode("latin-1"))
    response = staff_client.post(f"{ADMIN}add/", form_data(word_file=latin1))
    assert response.context["adminform"].form.errors["word_file"] == [NOT_UTF8.format(line=1)]
    assert not Dictionary.objects.exists()


def snapshot(dictionary: Dictionary) -> tuple[Any, ...]:
    row = Dictionary.objects.filter(pk=dictionary.pk).values().get()
    row["words_gz"] = bytes(row["words_gz"])
    return (row, list(DictionaryWord.objects.values_list("word", "kind")))


@pytest.mark.parametrize(
    "bad",
    [
        upload("empty.txt", b""),
        upload("latin1.txt", "caf\u00e9".encode("latin-1")),
        upload("words.csv", b"cat"),
        upload("damaged.txt.gz", gzip.compress(b"cat dog" * 100)[:30]),
        upload("greek.txt", "αβγ".encode()),
    ],
    ids=["empty", "latin1", "csv", "damaged-gzip", "nothing-usable"],
)
def test_a_failed_upload_leaves_the_live_dictionary_exactly_as_it_was(
    staff_client: Client, small: Dictionary, bad: SimpleUploadedFile
) -> None:
    staff_client.post(f"{ADMIN}{small.pk}/words/", {"word": "zebra", "action": "add"})
    before = snapshot(small)
    data = form_data(small, name="Renamed", word_file=bad)
    response = staff_client.post(f"{ADMIN}{small.pk}/change/", data)
    assert response.status_code == 200 and response.context["adminform"].form.errors
    assert snapshot(small) == before


def test_uploading_on_the_change_page_replaces_the_list(
    staff_client: Client, small: Dictionary
) -> None:
    data = form_data(small, word_file=upload("new.txt", b"owl\nzebra\n"))
    response = staff_client.post(f"{ADMIN}{small.pk}/change/", data, follow=True)
    assert response.status_code == 200
    small.refresh_from_db()
    assert small.word_count == 2
    assert "Stored 2 words from new.txt." in messages_of(response)


def test_the_alphabet_changes_only_with_a_new_list(staff_client: Client, small: Dictionary) -> None:
    response = staff_client.post(f"{ADMIN}{small.pk}/change/", form_data(small, alphabet="ABC"))
    assert response.context["adminform"].form.errors["alphabet"] == [ALPHABET_NEEDS_UPLOAD]
    data = form_data(small, alphabet="téa", word_file=upload("fr.txt", "été café a".encode()))
    staff_client.post(f"{ADMIN}{small.pk}/change/", data)
    small.refresh_from_db()
    assert small.alphabet == "ATÉ" and small.word_count == 2  # A and ÉTÉ; CAFÉ needs C and F


def test_the_list_page_shows_the_columns(staff_client: Client, small: Dictionary) -> None:
    dictionary_of(slug="other", language="fr")
    html = staff_client.get(ADMIN).content.decode()
    for header in ("Name", "Language", "Words", "Is default", "Is active", "Last change"):
        assert f">{header}</a>" in html
    assert ">Small</a>" in html and ">fr<" in html and ">10<" in html


def test_the_change_page_shows_statistics(staff_client: Client, small: Dictionary) -> None:
    html = staff_client.get(f"{ADMIN}{small.pk}/change/").content.decode()
    assert "Words by length" in html
    assert "<tr><td>3</td><td>2</td>" in html  # CAT DOG
    assert "<tr><td>4</td><td>7</td>" in html  # CATS DOGS TAPE PITY QUIZ QUIT BIRD
    assert f"<code>{AZ}</code>" in html


def test_the_length_bars_need_no_inline_style(staff_client: Client, small: Dictionary) -> None:
    """The CSP refuses inline style attributes, which left the bars empty: meters need none."""
    html = staff_client.get(f"{ADMIN}{small.pk}/change/").content.decode()
    assert 'value="100">100%</meter>' in html  # 4 letters: the most common length
    assert 'value="29">29%</meter>' in html  # 3 letters: 2 words of 7
    assert "style=" not in html.split("Words by length")[1]


@pytest.mark.parametrize(
    ("text", "status"), [("quiz", "WORD"), ("QU", "PREFIX"), ("zzz", "NOT_WORD")]
)
def test_the_word_check_answers_word_prefix_or_not_word(
    staff_client: Client, small: Dictionary, text: str, status: str
) -> None:
    html = staff_client.get(f"{ADMIN}{small.pk}/change/", {"check": text}).content.decode()
    assert f'data-status="{status}"' in html and f"<strong>{text.upper()}</strong>" in html


def test_the_word_check_answers_in_words(staff_client: Client, small: Dictionary) -> None:
    """It answered "ZZXQ: NOT_WORD", a code from the engine, not a sentence."""
    for text, answer in [
        ("quiz", "QUIZ</strong>\n      <span"),
        ("quiz", ">is a word in this dictionary.</span>"),
        ("QU", ">is not a word, but words begin with it.</span>"),
        ("zzxq", ">is not a word, and no word begins with it.</span>"),
    ]:
        html = staff_client.get(f"{ADMIN}{small.pk}/change/", {"check": text}).content.decode()
        assert answer in html, (text, answer)
        assert "NOT_WORD<" not in html and ">PREFIX<" not in html and ">WORD<" not in html


@pytest.mark.parametrize("board", ["CAT/XXS", "2x3-CATXXS"])
def test_the_board_solver_takes_rows_or_a_share_code(
    staff_client: Client, small: Dictionary, board: str
) -> None:
    query = {"board": board, "min_length": 3, "scoring": "classic", "adjacency": "king"}
    response = staff_client.get(f"{ADMIN}{small.pk}/change/", query)
    solution = response.context["solution"]
    assert solution.words == ["CAT", "CATS"] and solution.score == 2
    assert "Score 2" in response.content.decode()


def test_the_board_solver_explains_a_bad_board(staff_client: Client, small: Dictionary) -> None:
    query = {"board": "AB/C", "min_length": 3, "scoring": "classic", "adjacency": "king"}
    response = staff_client.get(f"{ADMIN}{small.pk}/change/", query)
    assert "row 2 has 1 faces, expected 2" in response.content.decode()
    assert "solution" not in response.context


def test_words_are_added_and_removed_one_at_a_time(staff_client: Client, small: Dictionary) -> None:
    url = f"{ADMIN}{small.pk}/words/"
    response = staff_client.post(url, {"word": "zebra", "action": "add"}, follow=True)
    assert "ZEBRA: added." in messages_of(response)
    response = staff_client.post(url, {"word": "cat", "action": "remove"}, follow=True)
    assert "CAT: removed." in messages_of(response)
    response = staff_client.post(url, {"word": "dog", "action": "add"}, follow=True)
    assert ALREADY_IN.format(word="DOG") in messages_of(response)
    small.refresh_from_db()
    assert small.word_count == 10
    html = response.content.decode()
    # Repeated inside the panel, where the page reopens after the button.
    assert f'solver-feedback-error">{ALREADY_IN.format(word="DOG")}</p>' in html
    assert "<td>ZEBRA</td><td>extra</td>" in html and "<td>CAT</td><td>excluded</td>" in html


def test_the_status_buttons_set_the_default_and_deactivate(
    staff_client: Client, small: Dictionary
) -> None:
    other = dictionary_of(slug="other")
    status = f"{ADMIN}{other.pk}/status/"
    response = staff_client.post(status, {"action": "default"}, follow=True)
    assert "Other is now the default dictionary." in messages_of(response)
    assert Dictionary.objects.get(is_default=True) == other
    response = staff_client.post(status, {"action": "deactivate"}, follow=True)
    assert DEFAULT_DEACTIVATE.format(name="Other") in messages_of(response)
    staff_client.post(f"{ADMIN}{small.pk}/status/", {"action": "deactivate"})
    assert not Dictionary.objects.get(pk=small.pk).is_active


def test_the_list_action_deactivates_all_but_the_default(
    staff_client: Client, small: Dictionary
) -> None:
    other = dictionary_of(slug="other")
    data = {"action": "deactivate_selected", "_selected_action": [small.pk, other.pk]}
    response = staff_client.post(ADMIN, data, follow=True)
    assert DEFAULT_DEACTIVATE.format(name="Small") in messages_of(response)
    assert list(Dictionary.objects.filter(is_active=True)) == [small]
