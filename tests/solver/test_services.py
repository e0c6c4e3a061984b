"""Dictionary services keep the effective list, its hash and the single default consistent."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from solver.dictionaries import selectors, services, shipped
from solver.dictionaries.services import (
    ALREADY_IN,
    DEFAULT_DEACTIVATE,
    DEFAULT_INACTIVE,
    LAST_WORD,
    NOT_IN,
    NOT_LETTERS,
    OUTSIDE_ALPHABET,
    DictionaryChangeError,
)
from solver.dictionaries.tries import trie_store
from solver.engine.wordlist import parse_word_list
from solver.models import DiceSet, Dictionary, DictionaryWord
from tests.solver.conftest import dictionary_of

pytestmark = pytest.mark.django_db


def effective(dictionary: Dictionary) -> tuple[str, ...]:
    return selectors.dictionary_word_list(dictionary).words


def test_the_first_dictionary_becomes_the_default_and_others_do_not() -> None:
    first = dictionary_of(slug="first")
    second = dictionary_of(slug="second")
    assert first.is_default and not second.is_default
    assert selectors.dictionary_default() == first


def test_a_dictionary_stores_its_list_hash_and_size(small: Dictionary) -> None:
    word_list = parse_word_list("cat cats dog dogs tape tapes pity quiz quit bird")
    assert small.content_hash == word_list.digest
    assert small.word_count == 10
    assert effective(small) == word_list.words


def test_adding_a_word_makes_an_extra_and_changes_the_hash(small: Dictionary) -> None:
    before = small.content_hash
    services.dictionary_word_add(dictionary=small, word=" Zebra ")
    small.refresh_from_db()
    assert "ZEBRA" in effective(small) and small.word_count == 11
    assert small.content_hash == parse_word_list(" ".join(effective(small))).digest != before
    assert DictionaryWord.objects.get(word="ZEBRA").kind == DictionaryWord.Kind.EXTRA


def test_removing_a_base_word_excludes_it_and_adding_it_back_undoes_that(
    small: Dictionary,
) -> None:
    original = small.content_hash
    services.dictionary_word_remove(dictionary=small, word="pity")
    small.refresh_from_db()
    assert "PITY" not in effective(small) and small.word_count == 9
    assert DictionaryWord.objects.get(word="PITY").kind == DictionaryWord.Kind.EXCLUDED
    services.dictionary_word_add(dictionary=small, word="PITY")
    small.refresh_from_db()
    assert small.content_hash == original and not DictionaryWord.objects.exists()


def test_removing_an_extra_deletes_it(small: Dictionary) -> None:
    original = small.content_hash
    services.dictionary_word_add(dictionary=small, word="zebra")
    services.dictionary_word_remove(dictionary=small, word="zebra")
    small.refresh_from_db()
    assert small.content_hash == original and not DictionaryWord.objects.exists()


@pytest.mark.parametrize(
    ("action", "word", "message"),
    [
        ("add", "cat", ALREADY_IN.format(word="CAT")),
        ("remove", "zebra", NOT_IN.format(word="ZEBRA")),
        ("add", "don't", NOT_LETTERS.format(word="DON'T")),
        ("add", "two words", NOT_LETTERS.format(word="TWO WORDS")),
        ("add", "", NOT_LETTERS.format(word="")),
        (
            "add",
            "café",
            OUTSIDE_ALPHABET.format(word="CAFÉ", alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        ),
    ],
)
def test_refused_word_changes_say_why_and_change_nothing(
    small: Dictionary, action: str, word: str, message: str
) -> None:
    service = services.dictionary_word_add if action == "add" else services.dictionary_word_remove
    with pytest.raises(DictionaryChangeError) as error:
        service(dictionary=small, word=word)
    assert str(error.value) == message
    assert Dictionary.objects.get(pk=small.pk).content_hash == small.content_hash


def test_the_last_word_cannot_be_removed(db: None) -> None:
    one = dictionary_of("solo", slug="solo")
    with pytest.raises(DictionaryChangeError) as error:
        services.dictionary_word_remove(dictionary=one, word="solo")
    assert str(error.value) == LAST_WORD.format(word="SOLO")
    assert effective(one) == ("SOLO",) and not DictionaryWord.objects.exists()


def test_replacing_the_list_keeps_changes_that_still_mean_something(small: Dictionary) -> None:
    services.dictionary_word_add(dictionary=small, word="zebra")  # becomes base: dropped
    services.dictionary_word_add(dictionary=small, word="yak")  # still extra: kept
    services.dictionary_word_remove(dictionary=small, word="cat")  # still in base: kept
    services.dictionary_word_remove(dictionary=small, word="dog")  # gone from base: dropped
    new = parse_word_list("cat zebra owl")
    services.dictionary_words_replace(dictionary=small, word_list=new, alphabet=small.alphabet)
    small.refresh_from_db()
    assert effective(small) == ("OWL", "YAK", "ZEBRA")
    assert small.word_count == 3
    kept = dict(DictionaryWord.objects.values_list("word", "kind"))
    assert kept == {"YAK": "extra", "CAT": "excluded"}


def test_default_switching_keeps_exactly_one_default(small: Dictionary) -> None:
    other = dictionary_of(slug="other")
    services.dictionary_default_set(dictionary=other)
    assert list(Dictionary.objects.filter(is_default=True)) == [other]
    services.dictionary_default_set(dictionary=small)
    assert list(Dictionary.objects.filter(is_default=True)) == [small]
    assert selectors.dictionary_default() == small


def test_the_database_refuses_a_second_default(small: Dictionary) -> None:
    other = dictionary_of(slug="other")
    with pytest.raises(IntegrityError), transaction.atomic():
        Dictionary.objects.filter(pk=other.pk).update(is_default=True)


def test_the_default_cannot_be_deactivated_nor_an_inactive_one_made_default(
    small: Dictionary,
) -> None:
    with pytest.raises(DictionaryChangeError) as error:
        services.dictionary_active_set(dictionary=small, active=False)
    assert str(error.value) == DEFAULT_DEACTIVATE.format(name=small.name)
    other = dictionary_of(slug="other")
    services.dictionary_active_set(dictionary=other, active=False)
    assert list(selectors.dictionary_active_list()) == [small]
    with pytest.raises(DictionaryChangeError) as error:
        services.dictionary_default_set(dictionary=other)
    assert str(error.value) == DEFAULT_INACTIVE.format(name=other.name)
    services.dictionary_active_set(dictionary=other, active=True)
    services.dictionary_default_set(dictionary=other)
    assert selectors.dictionary_default() == other


def test_a_deactivated_dictionary_still_serves_rounds_that_use_it(small: Dictionary) -> None:
    other = dictionary_of("tape pity", slug="other")
    services.dictionary_active_set(dictionary=other, active=False)
    assert "TAPE" in selectors.dictionary_trie(other)


def test_shipped_data_load_creates_the_shipped_data_once(db: None) -> None:
    started = time.perf_counter()
    services.shipped_data_load()
    elapsed = time.perf_counter() - started
    assert elapsed < 10, f"loading the shipped data took {elapsed:.1f} s"
    yawl = Dictionary.objects.get(slug="yawl")
    assert yawl.is_default and yawl.word_count == 264_061
    assert Dictionary.objects.get(slug="enable2k").word_count == 173_528
    slugs = set(DiceSet.objects.values_list("slug", flat=True))
    assert slugs == {"classic16", "new16", "big25", "superbig36", "english-letters"}
    assert yawl.content_hash == shipped.dictionary_words("yawl")[0].digest

    snapshot = [
        list(model.objects.order_by("pk").values_list("pk", "updated_at"))
        for model in (Dictionary, DiceSet)
    ]
    services.shipped_data_load()
    again = [
        list(model.objects.order_by("pk").values_list("pk", "updated_at"))
        for model in (Dictionary, DiceSet)
    ]
    assert again == snapshot


def test_shipped_data_load_leaves_an_admins_changes_alone(db: None) -> None:
    services.shipped_data_load()
    enable = Dictionary.objects.get(slug="enable2k")
    services.dictionary_default_set(dictionary=enable)
    services.dictionary_word_remove(dictionary=enable, word="aa")
    DiceSet.objects.filter(slug="new16").update(min_length=4)
    services.shipped_data_load()
    assert selectors.dictionary_default().slug == "enable2k"
    assert Dictionary.objects.get(slug="enable2k").word_count == 173_527
    assert DiceSet.objects.get(slug="new16").min_length == 4


def test_the_shipped_data_fixture_loads_everything(shipped_data: None) -> None:
    assert selectors.dictionary_default().slug == "yawl"
    assert DiceSet.objects.count() == 5


def test_a_large_list_compiles_in_a_process_of_its_own_after_commit(
    small: Dictionary, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """The compile costs hundreds of MiB and seconds of CPU at a million words: the web
    worker that stored the list starts `manage.py dictionary_compile` and goes on."""
    started: list[list[str]] = []
    monkeypatch.setattr(services, "process_spawn", lambda argv, log: started.append(argv) or 1)
    monkeypatch.setattr(services, "COMPILE_APART_WORDS", 5)  # "large" for a ten-word list
    compiled: list[Dictionary] = []
    monkeypatch.setattr(services, "dictionary_trie", compiled.append)
    with django_capture_on_commit_callbacks(execute=True):
        services.dictionary_word_add(dictionary=small, word="zebra")
    assert [argv[-3:] for argv in started] == [
        ["dictionary_compile", "--dictionary", str(small.pk)]
    ]
    assert compiled == []  # nothing compiled in this process

    monkeypatch.setattr(services, "COMPILE_APART_WORDS", 1000)  # a small list: here, at once
    with django_capture_on_commit_callbacks(execute=True):
        services.dictionary_word_add(dictionary=small, word="zebras")
    assert len(started) == 1 and [d.pk for d in compiled] == [small.pk]


def test_the_compile_command_puts_the_current_list_in_the_shared_store(
    small: Dictionary, settings: Any
) -> None:
    out = io.StringIO()
    call_command("dictionary_compile", dictionary=small.pk, stdout=out)
    assert out.getvalue().startswith(f"small: {small.word_count} words compiled")
    assert trie_store().path_for(small.content_hash).exists()  # on disk, for the workers
    with pytest.raises(CommandError, match="There is no dictionary with id 999"):
        call_command("dictionary_compile", dictionary=999)
