"""Definition sources: the admin upload, checked like word lists, and which source a word uses."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from solver.caches import caches_clear
from solver.definitions.admin import FILE_REQUIRED, DefinitionSourceForm
from solver.definitions.selectors import word_define, words_define
from solver.definitions.services import definition_source_save
from solver.definitions.uploads import NO_TAB, TSV_TOO_BIG, DefinitionLimits, tsv_read
from solver.models import DefinitionSource, Dictionary
from tests.solver.conftest import dictionary_of

ADMIN = "/admin/solver/definitionsource/"
FRENCH = "chat\tun petit félin domestique\nchien\tun animal qui aboie\n"


@pytest.fixture(autouse=True)
def fresh_glossaries() -> Any:
    caches_clear("definition glossaries")
    yield
    caches_clear("definition glossaries")


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/octet-stream")


def form_data(**fields: Any) -> dict[str, Any]:
    data = {"language": "fr", "name": "Lexique", "licence": "CC0", "is_active": "on"}
    data.update(fields)
    return data


def source_of(text: str, language: str, **fields: Any) -> DefinitionSource:
    source = DefinitionSource(language=language, name=f"{language} words", **fields)
    return definition_source_save(source=source, upload=tsv_read(text), file_name="defs.tsv")


def snapshot() -> list[dict[str, Any]]:
    rows = list(DefinitionSource.objects.values())
    for row in rows:
        row["data"] = bytes(row["data"])
    return rows


def test_uploading_a_tsv_creates_a_source(staff_client: Client) -> None:
    data = form_data(source_file=upload("fr.tsv", FRENCH.encode()))
    response = staff_client.post(f"{ADMIN}add/", data, follow=True)
    assert response.status_code == 200
    source = DefinitionSource.objects.get(language="fr")
    assert (source.kind, source.headword_count, source.sense_count) == ("tsv", 2, 2)
    assert source.file_name == "fr.tsv" and len(source.content_hash) == 64
    messages = [str(m) for m in response.context["messages"]]
    assert "Stored definitions of 2 words (2 senses) from fr.tsv." in messages


def test_a_new_source_needs_a_file(staff_client: Client) -> None:
    response = staff_client.post(f"{ADMIN}add/", form_data())
    assert response.context["adminform"].form.errors["source_file"] == [FILE_REQUIRED]
    assert not DefinitionSource.objects.exists()


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (upload("fr.tsv", b"chat un chat\n"), NO_TAB.format(line=1)),
        (upload("wn.tar.gz", b"\x1f\x8b garbage"), "The file is not a readable tar or zip"),
        (upload("fr.csv", b"chat,un chat"), "Upload a WordNet archive"),
    ],
    ids=["malformed-tsv", "bad-archive", "bad-name"],
)
def test_a_bad_upload_changes_nothing(staff_client: Client, bad: Any, error: str) -> None:
    source = source_of(FRENCH, "fr")
    before = snapshot()
    data = form_data(name="Renamed", source_file=bad)
    response = staff_client.post(f"{ADMIN}{source.pk}/change/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["source_file"][0].startswith(error)
    assert snapshot() == before
    assert staff_client.post(f"{ADMIN}add/", form_data(language="de", source_file=bad))
    assert DefinitionSource.objects.count() == 1


def test_an_oversized_upload_changes_nothing(
    staff_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DefinitionSourceForm, "limits", DefinitionLimits(upload_bytes=10))
    response = staff_client.post(
        f"{ADMIN}add/", form_data(source_file=upload("fr.tsv", FRENCH.encode()))
    )
    assert "uploads are limited to" in response.context["adminform"].form.errors["source_file"][0]
    assert not DefinitionSource.objects.exists()


def test_a_tsv_over_the_documented_cap_is_refused_by_its_size_and_nothing_is_stored(
    staff_client: Client,
) -> None:
    # docs/definitions.md: at most 40 MiB uploaded. A file just over it fits the admin's
    # 41 MiB body, so the form refuses it, by its size, before reading it.
    over = DefinitionLimits().upload_bytes + 64 * 1024
    line = b"owl\ta bird of prey that hunts at night\n"
    content = line * (over // len(line) + 1)
    response = staff_client.post(f"{ADMIN}add/", form_data(source_file=upload("big.tsv", content)))
    errors = response.context["adminform"].form.errors["source_file"]
    assert errors == [f"The file is {len(content) / 2**20:.1f} MiB; uploads are limited to 40 MiB."]
    assert not DefinitionSource.objects.exists()


def test_a_gzipped_tsv_that_unpacks_past_the_cap_says_so_and_nothing_is_stored(
    staff_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DefinitionSourceForm, "limits", DefinitionLimits(text_bytes=1000))
    content = gzip.compress(FRENCH.encode() * 100)  # 6 KiB unpacked, a few hundred bytes sent
    response = staff_client.post(
        f"{ADMIN}add/", form_data(source_file=upload("fr.tsv.gz", content))
    )
    errors = response.context["adminform"].form.errors["source_file"]
    assert errors == [TSV_TOO_BIG.format(limit=1000 / 2**20)]
    assert errors[0].startswith("The definitions are larger than")  # not "the word list"
    assert not DefinitionSource.objects.exists()


def test_uploading_again_replaces_the_definitions(staff_client: Client) -> None:
    source = source_of(FRENCH, "fr")
    data = form_data(source_file=upload("v2.tsv", b"oiseau\tun animal qui vole\n"))
    staff_client.post(f"{ADMIN}{source.pk}/change/", data)
    assert word_define(word="OISEAUX", language="fr") is None  # no rule for -x
    found = word_define(word="OISEAU", language="fr")
    assert found is not None and found.senses[0].gloss == "un animal qui vole"
    assert word_define(word="CHAT", language="fr") is None


@pytest.mark.django_db
def test_a_language_uses_its_uploaded_source() -> None:
    assert word_define(word="CHATS", language="fr") is None
    source_of(FRENCH, "fr")
    found = word_define(word="CHATS", language="fr")
    assert found is not None
    assert (found.base, found.senses[0].gloss, found.source) == (
        "chat",
        "un petit félin domestique",
        "fr words",
    )
    assert word_define(word="CHATS", language="fr-CA") == found
    english = word_define(word="CHAT", language="en")
    assert english is not None and english.source == "WordNet 3.0"


@pytest.mark.django_db
def test_an_english_source_comes_before_wordnet_which_it_may_replace() -> None:
    source = source_of("cat\ta pet that purrs\n", "en")
    cats = word_define(word="CATS", language="en")
    assert cats is not None and cats.senses[0].gloss == "a pet that purrs"
    quashed = word_define(word="QUASHED", language="en-GB")
    assert quashed is not None and quashed.source == "WordNet 3.0"
    source.use_shipped_too = False
    definition_source_save(source=source)
    assert word_define(word="QUASHED", language="en") is None
    source.is_active = False
    definition_source_save(source=source)
    cats = word_define(word="CATS", language="en")
    assert cats is not None and cats.source == "WordNet 3.0"


def test_the_word_check_shows_the_definition(staff_client: Client) -> None:
    dictionary: Dictionary = dictionary_of("quash quashed cat zzz")
    page = f"/admin/solver/dictionary/{dictionary.pk}/change/"
    html = staff_client.get(page, {"check": "quashed"}).content.decode()
    assert "QUASHED → quash" in html and "put down by force or intimidation" in html
    html = staff_client.get(page, {"check": "zzz"}).content.decode()
    assert "No definition." in html


def test_the_list_page_shows_the_sources(staff_client: Client) -> None:
    source_of(FRENCH, "fr")
    html = staff_client.get(ADMIN).content.decode()
    assert "fr words" in html and "word&lt;TAB&gt;definition list" in html


@pytest.mark.django_db
def test_many_words_are_defined_with_one_question_to_the_database(
    django_assert_num_queries: Any,
) -> None:
    source_of(FRENCH, "fr")
    word_define(word="CHAT", language="fr")  # loads the glossary once
    with django_assert_num_queries(1):
        found = words_define(words=["CHATS", "CHIEN", "OISEAU"], language="fr")
    assert {w: d and d.base for w, d in found.items()} == {
        "CHATS": "chat",
        "CHIEN": "chien",
        "OISEAU": None,
    }


def test_the_add_and_change_pages_show_the_upload_and_what_is_stored(staff_client: Client) -> None:
    add = staff_client.get(f"{ADMIN}add/").content.decode()
    assert 'name="source_file"' in add and "a word, a tab and its definition" in add
    source = source_of(FRENCH, "fr")
    change = staff_client.get(f"{ADMIN}{source.pk}/change/").content.decode()
    assert "Stored definitions" in change and "defs.tsv" in change
