"""What a piece of text shows: the characters that leave no mark on the screen (spaces,
zero-width and bidi controls, Hangul fillers, the blank Braille pattern) are told apart from
those that do, so a name or a chat line made only of the first kind can be refused."""

from __future__ import annotations

import icu  # type: ignore[import-untyped]  # PyICU ships no type hints

# Unicode's Default_Ignorable_Code_Point property lists what a renderer draws as nothing when
# it has no glyph (U+200B ZERO WIDTH SPACE, U+202E RIGHT-TO-LEFT OVERRIDE, U+3164 HANGUL
# FILLER, variation selectors, tags...); White_Space and the control characters add what draws
# as blank; U+2800 BRAILLE PATTERN BLANK is a symbol that shows no dot.
_IGNORABLE = icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:]\u2800]")
_INVISIBLE = icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:][:White_Space:][:Cc:]\u2800]")
_IGNORABLE.freeze()  # frozen sets answer from any thread without a lock
_INVISIBLE.freeze()


def invisible(ch: str) -> bool:
    """Return whether the character `ch` leaves no mark when shown."""
    return bool(_INVISIBLE.contains(ch))


def ignorables_dropped(text: str) -> str:
    """Return `text` without the characters drawn as nothing at all (zero-width, bidi
    controls, fillers), keeping the spaces and line breaks that separate its words."""
    return "".join(ch for ch in text if not _IGNORABLE.contains(ch))


def shows_nothing(text: str) -> bool:
    """Return whether `text` would look blank on the screen."""
    return all(_INVISIBLE.contains(ch) for ch in text)
