"""A tiny WordNet database in WordNet's own file formats, written for the definition tests.

Offsets are tokens here, not byte positions: the reader keys synsets by the token.
"""

from __future__ import annotations

from pathlib import Path

HEADER = "  1 A fake WordNet for tests.  \n  2 Use it for anything.  \n"

FILES = {
    "data.noun": HEADER
    + "00000100 05 n 01 cat 0 000 | feline mammal usually having thick soft fur\n"
    + "00000110 05 n 01 goose 0 000 | web-footed long-necked aquatic birds\n"
    + "00000120 06 n 01 box 0 000 | a (usually rectangular) container; may have a lid\n"
    + "00000130 05 n 01 fly 0 000 | two-winged insects\n"
    + "00000140 15 n 01 Mars 0 000 | a small planet\n"
    + "00000150 15 n 01 Jupiter 0 000 | the largest planet\n"
    + "00000160 04 n 01 run 0 000 | a score in baseball\n"
    + "00000170 26 n 01 runs 0 000 | diarrhea\n"
    + "00000180 06 n 01 glass 0 000 | a brittle transparent solid\n"
    + "00000190 06 n 01 ice_cream 0 000 | a frozen dessert\n"
    # WordNet 3.0 spells both senses of bel with a capital: the god (a name) and the unit
    + "00000300 18 n 01 Bel 0 000 | Babylonian god of the earth\n"
    + "00000310 23 n 02 Bel 0 B 3 000 | a logarithmic unit of sound intensity\n"
    + "00000320 23 n 02 gigabit 0 Gbit 0 000 | a unit of information equal to 1000 megabits\n",
    "index.noun": HEADER
    + "bel n 2 0 2 0 00000300 00000310\n"
    + "box n 1 0 1 0 00000120\n"
    + "cat n 1 0 1 0 00000100\n"
    + "fly n 1 0 1 0 00000130\n"
    + "gbit n 1 0 1 0 00000320\n"
    + "gigabit n 1 0 1 0 00000320\n"
    + "glass n 1 0 1 0 00000180\n"
    + "goose n 1 0 1 0 00000110\n"
    + "ice_cream n 1 0 1 0 00000190\n"
    + "jupiter n 1 0 1 0 00000150\n"
    + "mars n 1 0 1 0 00000140\n"
    + "run n 1 1 @ 1 1 00000160\n"
    + "runs n 1 0 1 0 00000170\n",
    "data.verb": HEADER
    + "00000010 30 v 01 quash 0 000 | put down by force or intimidation; "
    + '"The government quashes any attempt"; "quash a rebellion"\n'
    + "00000020 32 v 02 quash 1 squelch 0 000 | declare invalid\n"
    + "00000030 38 v 01 run 0 000 | move fast by using one's feet\n"
    + "00000040 35 v 01 box 0 000 | put into a box\n"
    + "00000050 38 v 01 fly 0 000 | travel through the air\n"
    + "00000060 30 v 01 mar 0 000 | make imperfect\n",
    "index.verb": HEADER
    + "box v 1 0 1 0 00000040\n"
    + "fly v 1 0 1 0 00000050\n"
    + "mar v 1 0 1 0 00000060\n"
    + "quash v 2 0 2 1 00000010 00000020\n"
    + "run v 1 0 1 1 00000030\n"
    + "squelch v 1 0 1 0 00000020\n",
    "data.adj": HEADER
    + "00000200 00 a 01 big(a) 0 000 | above average in size\n"
    + "00000210 00 a 01 quick 0 000 | moving fast\n"
    + "00000220 00 a 01 tall 0 000 | great in vertical dimension\n",
    "index.adj": HEADER
    + "big a 1 0 1 0 00000200\n"
    + "quick a 1 0 1 0 00000210\n"
    + "tall a 1 0 1 0 00000220\n",
    "noun.exc": "geese goose\nmice mouse\n",
    "verb.exc": "ran run\nrunning run\n",
    "adj.exc": "bigger big\n",
    "cntlist.rev": "run%2:38:00:: 1 50\nrun%1:04:00:: 1 5\nruns%1:26:00:: 1 1\n",
}


def write_fake_wordnet(directory: Path) -> Path:
    """Write the fake WordNet files into a directory and return it."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory
