"""A tiny GCIDE in Debian's dict-gcide format (gcide.index + gcide.dict.dz), for the tests.

The articles are written for these tests in GCIDE's layout: headwords with their syllables
between backslashes, a pronunciation, the part of speech, brackets of inflections and
etymology, an optional field label, numbered senses, quotations, notes and source tags.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from solver.engine.gcide import BASE64

ARTICLES: list[tuple[list[str], str]] = [
    (
        ["Tole"],
        "Tole \\Tole\\ (t[=o]l), v. t. [imp. & p. p. {Toled}; p. pr. & vb.\n"
        "   n. {Toling}.] [OE. tollen to draw.]\n"
        "   To draw, or cause to follow, by displaying something pleasing\n"
        "   or desirable; to allure by some bait. [Written also {toll}.]\n"
        "   [1913 Webster]\n\n"
        "         Whatever you observe him to be more frighted at, tole\n"
        "         him on.\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Ait"],
        "Ait \\Ait\\, n. [AS. ?, perh. dim. of [imac]g, island.]\n"
        "   An islet, or little isle, in a river or lake; an eyot.\n"
        "   [1913 Webster]\n\n"
        "         The ait where the osiers grew.           --R. Hodges.\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Eyot", "ayt"],
        'Eyot \\Ey"ot\\ ([imac]"[o^]t or [=a]t), n. [Ey + F. dim. -ot.]\n'
        "   A little island in a river or lake. See {Ait}. [Written also\n"
        "   {ait}, {ayt}, and {eyght}.] --Blackstone.\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Big", "Bigger", "Biggest"],
        "Big \\Big\\ (b[i^]g), a. [Compar. {Bigger}; superl. {Biggest}.]\n"
        "   [Perh. from Celtic.]\n"
        "   1. Having largeness of size; of great size; large. \"He's too\n"
        '      big to go in there." --Shak.\n'
        "      [1913 Webster]\n\n"
        "   2. Great with young; pregnant; -- often figuratively.\n"
        "      [1913 Webster]\n\n"
        "   Note: Big is often used in composition.\n"
        "         [1913 Webster]\n",
    ),
    (
        ["Sark"],
        "Sark \\Sark\\, n. [AS. serc, syrc.]\n   A shirt. [Scot.] --Burns.\n   [1913 Webster]\n",
    ),
    (
        ["Ort", "Orts"],
        "Ort \\Ort\\ ([^o]rt), n.; pl. {Orts} ([^o]rts). [Akin to LG. ort.]\n"
        "   A morsel left at a meal; a fragment; refuse; -- commonly used\n"
        "   in the plural.\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Spake"],
        "Spake \\Spake\\, imp. of {Speak}.\n   [1913 Webster]\n",
    ),
    (
        ["Speak"],
        "Speak \\Speak\\, v. i. [imp. {Spoke}; p. p. {Spoken}.]\n"
        "   To utter words or articulate sounds; to talk. [Obs.]\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Pavan", "Paven"],
        'Pavan \\Pav"an\\, n.\n   A grave and stately Spanish dance.\n   [1913 Webster]\n',
    ),
    (
        ["Paven"],
        'Paven \\Pav"en\\, n.\n   See {Pavan}.\n   [1913 Webster]\n',
    ),
    (
        ["Balder"],
        'Balder \\Bal"der\\, prop. n. (Scan. Myth.)\n   The god of peace.\n   [1913 Webster]\n',
    ),
    (
        ["Caf['e]", "Cafe"],
        "Caf['e] \\Caf`['e]\"\\, n. [F.]\n   A coffee house; a restaurant.\n   [1913 Webster]\n",
    ),
    (
        ["Quash"],
        "Quash \\Quash\\, v. t. (Law)\n"
        "   To abate, annul, or make void; as, to quash an indictment.\n"
        "   [1913 Webster]\n",
    ),
    (
        ["Gleed"],
        "Gleed \\Gleed\\, n. [AS. gl[=e]d.]\n"
        "   1. A glowing coal. [Obs.]\n"
        "      [1913 Webster]\n\n"
        "   2. (Myth.) The Saxon name of the god of the hearth.\n"
        "      [1913 Webster]\n\n"
        "   3. A live coal; an ember.\n"
        "      [1913 Webster]\n",
    ),
    (
        ["Lo"],
        'Lo \\Lo\\, interj.\n   Look; see; behold. "Lo, here is Christ." --Matt.\n'
        "   [1913 Webster]\n",
    ),
]


def _base64(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 64)
        digits = BASE64[digit] + digits
        if not number:
            return digits


def write_fake_gcide(directory: Path) -> Path:
    """Write gcide.index, gcide.dict.dz and a copyright file into a directory; return it."""
    directory.mkdir(parents=True, exist_ok=True)
    text = b""
    index: list[tuple[str, int, int]] = []
    for keys, article in ARTICLES:
        raw = article.encode()
        index += [(key, len(text), len(raw)) for key in keys]
        text += raw
    lines = sorted(f"{k}\t{_base64(o)}\t{_base64(n)}\n" for k, o, n in index)
    (directory / "gcide.index").write_text("".join(lines), encoding="utf-8")
    (directory / "gcide.dict.dz").write_bytes(gzip.compress(text))
    (directory / "copyright").write_text("A fake GCIDE for tests, under the GPL.\n")
    return directory
