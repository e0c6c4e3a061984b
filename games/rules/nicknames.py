"""What a nickname reads as: the key under which look-alike names ("Host", "Ηost") are one."""

from __future__ import annotations

import unicodedata

import icu  # type: ignore[import-untyped]  # PyICU ships no type hints

from games.rules.visible import ignorables_dropped

# ICU's checker holds the Unicode confusables data (UTS #39); its skeleton calls only read.
_SPOOF_CHECKER = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_SPOOF_CHECKER.getSkeleton(0, text))


def nickname_key(name: str) -> str:
    """Return what two nicknames share when they read alike: the UTS #39 confusables skeleton
    of the NFKC form, case-folded, so "Host", "host", "Ηost" (Greek Eta), "Ｈost" (fullwidth)
    and "Hоst" (Cyrillic o) all give "host".

    The skeleton is taken before and after case folding: folding first would turn a capital
    that looks Latin (Greek Η) into a small letter that does not (η), and folding may make
    letters with a skeleton of their own ("M" to "m", which reads like "rn").

    Characters drawn as nothing (zero-width, bidi controls, Hangul fillers) are dropped
    first: "Hch" and "Hch" followed by U+3164 look the same, so they are one name."""
    folded = _skeleton(unicodedata.normalize("NFKC", ignorables_dropped(name))).casefold()
    return _skeleton(unicodedata.normalize("NFKC", folded))
