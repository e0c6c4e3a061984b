"""Deriving an everyday dictionary from another: preview the cut, then store it.

The new dictionary is like any other: its own base list (the kept words), no extras or
exclusions yet, created through solver.dictionaries.services.dictionary_create.
"""

from __future__ import annotations

from django.db import transaction

from solver.dictionaries.selectors import dictionary_word_list
from solver.dictionaries.services import DictionaryChangeError, dictionary_create
from solver.engine.everyday import MAX_ZIPF, EverydayCut, everyday_cut, everyday_source
from solver.engine.wordlist import MAX_WORD_LETTERS
from solver.models import Dictionary

# Why a derivation was refused (tests assert these by name).
THRESHOLD_RANGE = f"The threshold is a Zipf figure from 0 to {MAX_ZIPF:g}."
MIN_LENGTH_RANGE = f"The minimum length is 1 to {MAX_WORD_LETTERS} letters."
NOT_ENGLISH = "{name} is not an English dictionary: the commonness figures are for English."
NOTHING_KEPT = (
    "No word of {name} with at least {min_length} letters reaches Zipf {threshold:g}: "
    "choose a lower threshold."
)
SLUG_TAKEN = "Another dictionary already has the slug {slug!r}: choose another."
NAME_MISSING = "Give the new dictionary a name and a slug."


def dictionary_everyday_preview(
    *, source: Dictionary, threshold: float, min_length: int
) -> EverydayCut:
    """Return what deriving from `source` would keep and drop; refuse a cut that keeps
    nothing or figures out of range (DictionaryChangeError says why)."""
    if not 0 <= threshold <= MAX_ZIPF:
        raise DictionaryChangeError(THRESHOLD_RANGE)
    if not 1 <= min_length <= MAX_WORD_LETTERS:
        raise DictionaryChangeError(MIN_LENGTH_RANGE)
    if source.language != "en":
        raise DictionaryChangeError(NOT_ENGLISH.format(name=source.name))
    cut = everyday_cut(
        dictionary_word_list(source).words, threshold=threshold, min_length=min_length
    )
    if not cut.kept.words:
        raise DictionaryChangeError(
            NOTHING_KEPT.format(name=source.name, threshold=threshold, min_length=min_length)
        )
    return cut


@transaction.atomic
def dictionary_everyday_derive(
    *,
    source: Dictionary,
    name: str,
    slug: str,
    threshold: float,
    min_length: int,
    description: str = "",
) -> Dictionary:
    """Create a dictionary of the words of `source` at least as common as `threshold`."""
    name, slug = name.strip(), slug.strip()
    if not name or not slug:
        raise DictionaryChangeError(NAME_MISSING)
    if Dictionary.objects.filter(slug=slug).exists():
        raise DictionaryChangeError(SLUG_TAKEN.format(slug=slug))
    cut = dictionary_everyday_preview(source=source, threshold=threshold, min_length=min_length)
    made = everyday_source(source.name, threshold, min_length)
    return dictionary_create(
        name=name,
        slug=slug,
        word_list=cut.kept,
        alphabet=source.alphabet,
        language=source.language,
        description=description or f"The everyday words of {source.name}: {made}.",
        source=made,
        licence=source.licence,
    )
