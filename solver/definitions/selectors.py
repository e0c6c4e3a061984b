"""Reading definitions: the glossaries a language's dictionaries use, and a word's definition.

A language's active uploaded source (DefinitionSource) comes first; the shipped glossaries
(WordNet, the function words it leaves out, GCIDE and the word-game glossary, in that order)
serve English, alone or behind an English source that keeps ``use_shipped_too``. A loaded
glossary is kept per process by its content hash, so a replaced source is read again on its next
use. Each call asks the database once: define many words with ``words_define``. These functions
touch the database: call them from async code through ``database_sync_to_async``.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable

from django.db import DatabaseError

from solver.caches import cache_register
from solver.engine.definitions import Definition, define, shipped_glossaries
from solver.engine.glossary import Glossary
from solver.models import DefinitionSource, Dictionary

log = logging.getLogger(__name__)

SHIPPED_LANGUAGE = "en"
LOADED_SOURCES = 4  # uploaded glossaries a process keeps loaded

_loaded: OrderedDict[tuple[int, str], Glossary] = OrderedDict()
_lock = threading.Lock()


def language_primary(language: str) -> str:
    """Return the primary subtag of a language tag, lower case ("en-GB" → "en")."""
    return language.strip().lower().replace("_", "-").partition("-")[0]


def _source_glossary(pk: int, content_hash: str, name: str) -> Glossary:
    key = (pk, content_hash)
    with _lock:
        if key in _loaded:
            _loaded.move_to_end(key)
            return _loaded[key]
    data = DefinitionSource.objects.filter(pk=pk).values_list("data", flat=True).get()
    glossary = Glossary(bytes(data), name)
    with _lock:
        _loaded[key] = glossary
        while len(_loaded) > LOADED_SOURCES:
            _loaded.popitem(last=False)
    return glossary


def definition_glossaries(language: str) -> list[Glossary]:
    """Return the glossaries to look a word of this language up in, in order (maybe none)."""
    primary = language_primary(language)
    try:
        rows = list(
            DefinitionSource.objects.filter(
                language__in={language.strip(), primary}, is_active=True
            ).values_list("pk", "content_hash", "name", "use_shipped_too", "language")
        )
    except DatabaseError as exc:  # not migrated, or no database: the shipped file still works
        log.debug("no definition sources in the database (%s)", exc)
        rows = []
    rows.sort(key=lambda row: row[4] != language.strip())  # the exact tag first
    glossaries = [_source_glossary(pk, digest, name) for pk, digest, name, _, _ in rows[:1]]
    if primary == SHIPPED_LANGUAGE and (not rows or rows[0][3]):
        glossaries.extend(shipped_glossaries())
    return glossaries


def word_define(*, word: str, language: str = SHIPPED_LANGUAGE) -> Definition | None:
    """Return a word's definition for its language, through its base form if need be."""
    return define(word, definition_glossaries(language))


def words_define(
    *, words: Iterable[str], language: str = SHIPPED_LANGUAGE
) -> dict[str, Definition | None]:
    """Return each word's definition (None if it has none), keyed by the word as given."""
    glossaries = definition_glossaries(language)
    return {word: define(word, glossaries) for word in words}


def dictionary_word_define(dictionary: Dictionary, word: str) -> Definition | None:
    """Return the definition of a word of a dictionary, in the dictionary's language."""
    return word_define(word=word, language=dictionary.language)


def _definition_cache_clear() -> None:
    """Forget this process's loaded uploaded glossaries (for tests)."""
    with _lock:
        _loaded.clear()


cache_register("definition glossaries", _definition_cache_clear)


def dictionary_language(name: str | None) -> str:
    """Return the language of a dictionary named on the command line (files and shipped: en)."""
    try:
        query = Dictionary.objects.filter(slug=name) if name else Dictionary.objects.none()
        if name is None:
            query = Dictionary.objects.filter(is_default=True)
        found = query.values_list("language", flat=True).first()
    except DatabaseError:
        found = None
    return found or SHIPPED_LANGUAGE
