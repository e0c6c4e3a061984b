"""Changing dictionaries: create, replace the list, add or remove one word, default, active.

Each service runs in one transaction and leaves ``content_hash`` and ``word_count`` matching
the effective list; once it commits, the new list is compiled so that workers only map it.
"""

from __future__ import annotations

import bisect
import logging
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from solver.dictionaries import shipped
from solver.dictionaries.loading import DEFAULT_DICTIONARY
from solver.dictionaries.packing import words_pack, words_unpack
from solver.dictionaries.selectors import dictionary_trie, dictionary_word_list
from solver.engine.wordlist import MAX_WORD_LETTERS, WordList, normalise_word
from solver.models import DiceSet, Dictionary, DictionaryWord
from solver.processes import process_log_path, process_spawn

log = logging.getLogger(__name__)

# A list this long compiles in a process of its own (530 MiB and 14 s at 1.5 million
# words on a quick host); the shipped lists (173,000 and 264,000 words) compile in a second.
COMPILE_APART_WORDS = 300_000

# Why a change was refused (tests assert these by name).
NOT_LETTERS = "{word!r} is not a word: use letters only."
TOO_LONG = f"A word has at most {MAX_WORD_LETTERS} letters."
OUTSIDE_ALPHABET = "{word} uses letters outside this dictionary's alphabet ({alphabet})."
ALREADY_IN = "{word} is already in the dictionary."
NOT_IN = "{word} is not in the dictionary."
LAST_WORD = "{word} is the last word: a dictionary cannot be empty."
DEFAULT_INACTIVE = "{name} is inactive: activate it before making it the default."
DEFAULT_DEACTIVATE = "{name} is the default: make another dictionary the default first."


class DictionaryChangeError(ValueError):
    """A change to a dictionary that was refused; the message says why."""


@transaction.atomic
def dictionary_create(
    *,
    name: str,
    slug: str,
    word_list: WordList,
    alphabet: str,
    language: str = "en",
    description: str = "",
    source: str = "",
    licence: str = "",
    is_active: bool = True,
    upload_report: str = "",
    words_gz: bytes | None = None,
) -> Dictionary:
    """Create a dictionary from a normalised list; the first one becomes the default."""
    dictionary = Dictionary(
        name=name,
        slug=slug,
        language=language,
        description=description,
        source=source,
        licence=licence,
        is_active=is_active,
    )
    return dictionary_store_new(
        dictionary=dictionary,
        word_list=word_list,
        alphabet=alphabet,
        upload_report=upload_report,
        words_gz=words_gz,
    )


def dictionary_store_new(
    *,
    dictionary: Dictionary,
    word_list: WordList,
    alphabet: str,
    upload_report: str = "",
    words_gz: bytes | None = None,
) -> Dictionary:
    """Store a new dictionary (its details set, not yet saved: the admin's form built it)
    with its list; the first one becomes the default."""
    dictionary.alphabet = alphabet
    dictionary.words_gz = words_gz if words_gz is not None else words_pack(word_list.words)
    dictionary.word_count = len(word_list.words)
    dictionary.content_hash = word_list.digest
    dictionary.upload_report = upload_report
    dictionary.is_default = (
        dictionary.is_active and not Dictionary.objects.filter(is_default=True).exists()
    )
    dictionary.save(force_insert=True)
    _compile_on_commit(dictionary)
    return dictionary


@transaction.atomic
def dictionary_words_replace(
    *, dictionary: Dictionary, word_list: WordList, alphabet: str, upload_report: str = ""
) -> Dictionary:
    """Replace a dictionary's base list; extras and exclusions that still mean something stay."""
    locked = _locked(dictionary)
    base = set(word_list.words)
    allowed = set(alphabet)
    for change in locked.changes.all():
        in_base = change.word in base
        is_extra = change.kind == DictionaryWord.Kind.EXTRA
        if (is_extra and (in_base or not allowed.issuperset(change.word))) or (
            not is_extra and not in_base
        ):
            change.delete()
    locked.words_gz = words_pack(word_list.words)
    locked.alphabet = alphabet
    locked.upload_report = upload_report
    locked.save(update_fields=["words_gz", "alphabet", "upload_report", "updated_at"])
    return _refresh(locked)


@transaction.atomic
def dictionary_word_add(*, dictionary: Dictionary, word: str, by: Any = None) -> Dictionary:
    """Put one word into the effective list: undo its exclusion, or add it as an extra."""
    locked = _locked(dictionary)
    word = _checked_word(locked, word)
    change = locked.changes.filter(word=word).first()
    if change is not None and change.kind == DictionaryWord.Kind.EXCLUDED:
        change.delete()
    elif change is not None or _in_base(locked, word):
        raise DictionaryChangeError(ALREADY_IN.format(word=word))
    else:
        DictionaryWord.objects.create(
            dictionary=locked, word=word, kind=DictionaryWord.Kind.EXTRA, created_by=by
        )
    return _refresh(locked)


@transaction.atomic
def dictionary_word_remove(*, dictionary: Dictionary, word: str, by: Any = None) -> Dictionary:
    """Take one word out of the effective list: drop its extra, or exclude it from the base."""
    locked = _locked(dictionary)
    word = _checked_word(locked, word)
    change = locked.changes.filter(word=word).first()
    if change is not None and change.kind == DictionaryWord.Kind.EXTRA:
        change.delete()
    elif change is None and _in_base(locked, word):
        DictionaryWord.objects.create(
            dictionary=locked, word=word, kind=DictionaryWord.Kind.EXCLUDED, created_by=by
        )
    else:
        raise DictionaryChangeError(NOT_IN.format(word=word))
    if locked.word_count == 1:
        raise DictionaryChangeError(LAST_WORD.format(word=word))
    return _refresh(locked)


@transaction.atomic
def dictionary_default_set(*, dictionary: Dictionary) -> None:
    """Make a dictionary the one new games use by default (exactly one is)."""
    locked = _locked(dictionary)
    if not locked.is_active:
        raise DictionaryChangeError(DEFAULT_INACTIVE.format(name=locked.name))
    Dictionary.objects.filter(is_default=True).exclude(pk=locked.pk).update(is_default=False)
    Dictionary.objects.filter(pk=locked.pk).update(is_default=True)
    dictionary.is_default = True


@transaction.atomic
def dictionary_active_set(*, dictionary: Dictionary, active: bool) -> None:
    """Let a dictionary be chosen for new games, or not; rounds already running keep it."""
    locked = _locked(dictionary)
    if locked.is_default and not active:
        raise DictionaryChangeError(DEFAULT_DEACTIVATE.format(name=locked.name))
    Dictionary.objects.filter(pk=locked.pk).update(is_active=active)
    dictionary.is_active = active


def shipped_data_load() -> None:
    """Create the shipped dictionaries and dice sets that are missing; change nothing else."""
    for spec in shipped.DICTIONARIES:
        if Dictionary.objects.filter(slug=spec.slug).exists():
            continue
        word_list, packed = shipped.dictionary_words(spec.slug)
        try:
            with transaction.atomic():
                dictionary_create(
                    name=spec.name,
                    slug=spec.slug,
                    language=spec.language,
                    description=spec.description,
                    source=spec.source,
                    licence=spec.licence,
                    alphabet=spec.alphabet,
                    word_list=word_list,
                    words_gz=packed,
                )
        except IntegrityError:  # another process loaded it first
            log.info("shipped dictionary %s was loaded by another process", spec.slug)
    _shipped_everyday_load()
    if not Dictionary.objects.filter(is_default=True).exists():
        fallback = Dictionary.objects.filter(slug=DEFAULT_DICTIONARY, is_active=True).first()
        if fallback is not None:
            dictionary_default_set(dictionary=fallback)
    for fields in shipped.dice_sets():
        DiceSet.objects.get_or_create(slug=fields["slug"], defaults=fields)


def _shipped_everyday_load() -> None:
    """Create Everyday English (cut from the shipped YAWL file) unless a dictionary has its slug."""
    spec = shipped.EVERYDAY
    if Dictionary.objects.filter(slug=spec.slug).exists():
        return
    base = spec.base_spec
    word_list, packed = shipped.everyday_words()
    try:
        with transaction.atomic():
            dictionary_create(
                name=spec.name,
                slug=spec.slug,
                language=base.language,
                description=(
                    f"The {len(word_list.words):,} everyday words of {base.name}: no obscure "
                    "Scrabble words, for players who want words they know."
                ),
                source=spec.source,
                licence=base.licence,
                alphabet=base.alphabet,
                word_list=word_list,
                words_gz=packed,
            )
    except IntegrityError:  # another process loaded it first
        log.info("shipped dictionary %s was loaded by another process", spec.slug)


def _locked(dictionary: Dictionary) -> Dictionary:
    """Return the dictionary's row, locked until the transaction ends."""
    return Dictionary.objects.select_for_update().get(pk=dictionary.pk)


def _checked_word(dictionary: Dictionary, word: str) -> str:
    """Return a word normalised, or refuse one that no list of this dictionary could hold."""
    word = normalise_word(word.strip())
    if not word.isalpha():
        raise DictionaryChangeError(NOT_LETTERS.format(word=word))
    if len(word) > MAX_WORD_LETTERS:
        raise DictionaryChangeError(TOO_LONG)
    if not set(dictionary.alphabet).issuperset(word):
        raise DictionaryChangeError(
            OUTSIDE_ALPHABET.format(word=word, alphabet=dictionary.alphabet)
        )
    return word


def _in_base(dictionary: Dictionary, word: str) -> bool:
    base = words_unpack(Dictionary.objects.values_list("words_gz", flat=True).get(pk=dictionary.pk))
    i = bisect.bisect_left(base, word)
    return i < len(base) and base[i] == word


def _refresh(dictionary: Dictionary) -> Dictionary:
    """Store the effective list's hash and size, and compile it once the change commits."""
    word_list = dictionary_word_list(dictionary)
    dictionary.content_hash = word_list.digest
    dictionary.word_count = len(word_list.words)
    dictionary.save(update_fields=["content_hash", "word_count", "updated_at"])
    _compile_on_commit(dictionary)
    return dictionary


def _compile_on_commit(dictionary: Dictionary) -> None:
    """Compile the new list after commit, so no game waits for it (a failure only logs): a
    list of COMPILE_APART_WORDS or more in a process of its own (`manage.py
    dictionary_compile`), whose memory and CPU leave with it; a smaller one here, in less
    time than starting that process takes."""

    def compile_now() -> None:
        try:
            if dictionary.word_count >= COMPILE_APART_WORDS:
                manage = Path(settings.BASE_DIR) / "manage.py"
                argv = [sys.executable, str(manage), "dictionary_compile"]
                log_path = process_log_path("dictionary-compile", dictionary.slug)
                process_spawn([*argv, "--dictionary", str(dictionary.pk)], log_path)
            else:
                dictionary_trie(dictionary)
        except Exception:
            log.exception("could not compile dictionary %s", dictionary.slug)

    transaction.on_commit(compile_now)
