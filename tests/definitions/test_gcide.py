"""GCIDE, layered after WordNet: reading Debian's dict files, and lookups through base forms."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from solver.engine.definitions import GCIDE_NAME, WORD_GAME_NAME, define, shipped_glossaries
from solver.engine.gcide import (
    GcideError,
    gcide_prune,
    parse_article,
    plain_text,
    read_gcide,
)
from solver.engine.glossary import CLOSED, Glossary, glossary_encode
from solver.engine.glossary_tsv import TsvError, parse_tsv
from solver.engine.wordnet import directory_reader
from tests.definitions.fake_gcide import write_fake_gcide

WORD_LIST = {"tole", "ait", "ayt", "big", "sark", "ort", "spake", "speak", "paven", "cafe", "lo"}


@pytest.fixture(scope="module")
def gcide_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_gcide(tmp_path_factory.mktemp("gcide"))


@pytest.fixture(scope="module")
def gcide(gcide_dir: Path, fake: Glossary) -> Glossary:
    """The fake GCIDE, pruned behind the fake WordNet as the shipped one is."""
    data = read_gcide(directory_reader(gcide_dir))
    return Glossary(glossary_encode(gcide_prune(data, keep=WORD_LIST, before=fake)), "GCIDE")


# word, the base form shown, its first sense, the glossary it comes from
CASES = [
    ("AIT", "ait", "An islet, or little isle, in a river or lake; an eyot.", "GCIDE"),
    (
        "TOLE",
        "tole",
        "To draw, or cause to follow, by displaying something pleasing or "
        "desirable; to allure by some bait.",
        "GCIDE",
    ),
    (
        "TOLED",
        "tole",
        "To draw, or cause to follow, by displaying something pleasing or "
        "desirable; to allure by some bait.",
        "GCIDE",
    ),  # an inflection the article spells out
    (
        "TOLES",
        "tole",
        "To draw, or cause to follow, by displaying something pleasing or "
        "desirable; to allure by some bait.",
        "GCIDE",
    ),  # WordNet's rules on GCIDE's verb
    ("SARKS", "sark", "A shirt. [Scot.]", "GCIDE"),  # a plural by rule
    ("ORTS", "ort", "A morsel left at a meal; a fragment; refuse", "GCIDE"),
    ("SPAKE", "speak", "To utter words or articulate sounds; to talk. [Obs.]", "GCIDE"),
    ("AYT", "ayt", "variant of eyot: A little island in a river or lake. See Ait.", "GCIDE"),
    ("PAVEN", "paven", "See Pavan: A grave and stately Spanish dance.", "GCIDE"),
    ("CAFE", "cafe", "A coffee house; a restaurant.", "GCIDE"),  # Caf['e]: accents dropped
    ("LO", "lo", "Look; see; behold.", "GCIDE"),  # the quotation and citation are cut
    ("BIGGER", "big", "above average in size", "fake"),  # WordNet first
    ("QUASHED", "quash", "put down by force or intimidation", "fake"),
]


@pytest.mark.parametrize(("word", "base", "gloss", "source"), CASES)
def test_gcide_defines_what_wordnet_lacks(
    fake: Glossary, gcide: Glossary, word: str, base: str, gloss: str, source: str
) -> None:
    found = define(word, [fake, gcide])
    assert found is not None
    assert (found.base, found.senses[0].gloss, found.source) == (base, gloss, source)


@pytest.mark.parametrize("word", ["BALDER", "EYGHT", "TOLX", "SPOKES"])
def test_names_unlisted_words_and_unknown_words_get_none(
    fake: Glossary, gcide: Glossary, word: str
) -> None:
    # a proper noun (prop. n.), a variant not in the index, nonsense, and no rule to speak
    assert define(word, [fake, gcide]) is None


def test_pruning_keeps_what_wordnet_does_not_define(gcide_dir: Path, fake: Glossary) -> None:
    data = read_gcide(directory_reader(gcide_dir))
    assert {"quash", "big", "tole", "spake"} <= set(data.entries) | set(data.exceptions)
    pruned = gcide_prune(data, keep=WORD_LIST | {"quash"}, before=fake)
    assert "quash" not in pruned.entries  # WordNet defines quash as a verb already
    big = pruned.entries.get("big")
    assert big is None  # WordNet has big as an adjective: nothing more to add
    assert "eyot" not in pruned.entries  # not in the word list
    assert pruned.exceptions["spake"] == {"v": ["speak"]}


def test_obsolete_mythical_and_god_name_senses_come_after_the_others(gcide_dir: Path) -> None:
    # Webster orders senses by history; a player means the living sense (BEL: the unit, not
    # the Babylonian god). The others keep the article's order behind it.
    gleed = read_gcide(directory_reader(gcide_dir)).entries["gleed"]
    assert gleed.parts[0].glosses == (
        "A live coal; an ember.",
        "A glowing coal. [Obs.]",
        "(Myth.) The Saxon name of the god of the hearth.",
    )


def test_big_is_read_with_its_numbered_senses_and_inflections(gcide_dir: Path) -> None:
    data = read_gcide(directory_reader(gcide_dir))
    big = data.entries["big"].parts[0]
    assert big.pos == "a"
    assert big.glosses == (
        "Having largeness of size; of great size; large.",
        "Great with young; pregnant",
    )
    assert data.exceptions["bigger"] == {"a": ["big"]}
    assert data.exceptions["toled"] == {"v": ["tole"]}


@pytest.mark.parametrize(
    ("article", "headwords", "pos", "senses"),
    [
        (
            "Ean \\Ean\\ ([=e]n), v. t. & i. [AS. e['a]nian.]\n   To bring forth.\n",
            ["ean"],
            "v",
            ["To bring forth."],
        ),
        (
            "Nef \\Nef\\, n. [F.] (Arch.)\n   The nave of a church.\n",
            ["nef"],
            "n",
            ["(Arch.) The nave of a church."],
        ),
        ("Ay \\Ay\\, interj.\n   Ah! alas!\n", ["ay"], "i", ["Ah! alas!"]),
        (
            'Amid \\A*mid"\\, prep. [AS. onmiddan.]\n   In the midst of.\n',
            ["amid"],
            "x",
            ["In the midst of."],
        ),
        ("Aye \\Aye\\, Ay \\Ay\\, adv.\n   Always; ever.\n", ["aye", "ay"], "r", ["Always; ever."]),
    ],
)
def test_articles_are_read_into_headwords_parts_and_senses(
    article: str, headwords: list[str], pos: str, senses: list[str]
) -> None:
    read = parse_article(article)
    assert read is not None
    assert (read.headwords, read.pos, read.senses) == (headwords, pos, senses)


def test_character_codes_become_letters() -> None:
    assert plain_text("caf['e] and [ae]on, {Ait}; [Obs.]") == "café and æon, Ait; [Obs.]"


def test_a_capital_character_code_is_a_letter_not_a_source_tag() -> None:
    """BEL read "A thorny rutaceous tree ( gle marmelos)": [AE] was taken for a source's
    initials (like [PJC]) and dropped before it became Æ."""
    article = (
        "Bel \\Bel\\ (b[e^]l), n. [Hind., fr. Skr. bilva.]\n"
        "   A thorny rutaceous tree ({[AE]gle marmelos}) of India, and\n"
        "   its aromatic, orange-like fruit. [PJC]\n"
    )
    read = parse_article(article)
    assert read is not None
    assert read.senses == [
        "A thorny rutaceous tree (Ægle marmelos) of India, and its aromatic, orange-like fruit."
    ]


def test_bad_gcide_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(GcideError, match="gcide.index and gcide.dict.dz are both needed"):
        read_gcide(directory_reader(tmp_path))
    (tmp_path / "gcide.index").write_text("ait\tA\n")
    (tmp_path / "gcide.dict.dz").write_bytes(gzip.compress(b"Ait \\Ait\\, n.\n   An islet.\n"))
    with pytest.raises(GcideError, match="line 1: not a dict index line"):
        read_gcide(directory_reader(tmp_path))
    (tmp_path / "gcide.index").write_text("ait\tA\tZ\n")
    (tmp_path / "gcide.dict.dz").write_bytes(b"not gzip")
    with pytest.raises(GcideError, match="not gzip-compressed"):
        read_gcide(directory_reader(tmp_path))


# The shipped data: WordNet first, then GCIDE, each sense saying where it came from.
SHIPPED_CASES = [
    ("AIT", "ait", GCIDE_NAME),
    ("AITS", "ait", GCIDE_NAME),
    ("EAN", "ean", GCIDE_NAME),
    ("EANED", "ean", GCIDE_NAME),
    ("YEANING", "yean", GCIDE_NAME),
    ("TOLED", "tole", GCIDE_NAME),
    ("SARKS", "sark", GCIDE_NAME),
    ("ORTS", "ort", GCIDE_NAME),
    ("OES", "o", GCIDE_NAME),  # the plural of the letter O, from the article's "pl. Oes"
    ("OHS", "oh", GCIDE_NAME),  # an interjection's -s, -ed, -ing: "to say oh"
    ("AHED", "ah", GCIDE_NAME),
    ("EFS", "ef", "Boggle Online function words"),  # a letter name is a noun
    ("HAES", "hae", "Boggle Online function words"),  # Scots "have" is a verb
    ("OLES", "ole", "Boggle Online function words"),
    ("QUASHED", "quash", "WordNet 3.0"),
    ("GEESE", "goose", "WordNet 3.0"),
    ("OSE", "ose", WORD_GAME_NAME),  # what none of the three defines: Collins-only words
    ("TAOS", "tao", WORD_GAME_NAME),
    ("TELT", "telt", WORD_GAME_NAME),
]


@pytest.mark.parametrize(("word", "base", "source"), SHIPPED_CASES)
def test_the_shipped_glossaries_layer_gcide_after_wordnet(
    word: str, base: str, source: str
) -> None:
    found = define(word)
    assert found is not None and (found.base, found.source) == (base, source)
    assert len(shipped_glossaries()) == 4


def test_the_function_words_file_gives_each_word_a_part_of_speech() -> None:
    text = "ef\tn\tthe letter F\noh\ti\tan exclamation\nthe\tx\tthe definite article\n"
    entries = parse_tsv(text, CLOSED, pos_column=True).data.entries
    assert [entries[w].parts[0].pos for w in ("ef", "oh", "the")] == ["n", "i", "x"]
    with pytest.raises(TsvError, match="Line 1: 'q' is not a part of speech"):
        parse_tsv("ef\tq\tthe letter F\n", CLOSED, pos_column=True)
