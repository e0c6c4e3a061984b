"""How common an English word is: wordfreq's Zipf figure, and the label players read.

The Zipf scale is log10 of a word's frequency per billion words: 7 is "the", 3 is a word
met about once in a million words, 0 is a word wordfreq has never seen.
"""

from __future__ import annotations

import math
from functools import lru_cache

from wordfreq import get_frequency_dict, zipf_frequency

# The labels the results show, each with the least Zipf figure that earns it (checked in
# this order; below the last, a word is "rare"). static/js/results.js falls back to the same
# figures for results stored before the server sent labels.
COMMONNESS_LABELS: tuple[tuple[str, float], ...] = (
    ("everyday", 4.5),  # about 30 times in a million words or more: CAT, DOG, ERA
    ("common", 3.0),  # once in a million or more: TOE, AXE, YAK
    ("uncommon", 1.5),  # down to about once in 30 million words: OAT, EWE, QAT
)
RARE = "rare"  # AALII, XYST and the many other words wordfreq has never seen
# Words whose figure a process keeps: every round's results rate each word on its board, and
# a day of daily attempts rates the same board's words thousands of times over.
COMMONNESS_KEPT = 1 << 15


@lru_cache(maxsize=COMMONNESS_KEPT)
def commonness(word: str) -> float:
    """Return how common an English word is on the Zipf scale (0 = unseen, 7 = 'the').

    wordfreq's zipf_frequency gives the same figure but keeps every word it is asked about
    (up to 100,000, then it starts again): a worker scoring new boards all day kept growing.
    A word of plain letters is looked up in wordfreq's table instead, which is loaded once,
    and rounded as wordfreq rounds (three significant digits, then two decimals of Zipf);
    anything else takes the general path. The last COMMONNESS_KEPT words' figures are kept.
    """
    lowered = word.lower()
    if not (lowered.isascii() and lowered.isalpha()):
        return zipf_frequency(lowered, "en")
    frequency = get_frequency_dict("en", "best").get(lowered, 0.0)
    if frequency <= 0.0:
        return 0.0
    frequency = round(frequency, math.floor(-math.log(frequency, 10)) + 3)
    return round(math.log(frequency, 10) + 9, 2)


def commonness_label(zipf: float) -> str:
    """Return the label of a Zipf figure: everyday, common, uncommon or rare."""
    for label, least in COMMONNESS_LABELS:
        if zipf >= least:
            return label
    return RARE
