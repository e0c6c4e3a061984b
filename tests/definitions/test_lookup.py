"""Finding a word's definition through its base form: WordNet's exceptions and suffix rules."""

from __future__ import annotations

import pytest

from solver.engine.definitions import (
    GCIDE_NAME,
    Definition,
    define,
    define_in,
    shipped_glossary,
)
from solver.engine.glossary import Glossary
from solver.engine.morphy import NOUN, VERB, derive, detach

# word, the base form shown, its first sense
FAKE_CASES = [
    ("QUASHED", "quash", "put down by force or intimidation"),
    ("quashes", "quash", "put down by force or intimidation"),
    ("CATS", "cat", "feline mammal usually having thick soft fur"),
    ("GEESE", "goose", "web-footed long-necked aquatic birds"),
    ("RUNNING", "run", "move fast by using one's feet"),
    ("RAN", "run", "move fast by using one's feet"),
    ("BIGGER", "big", "above average in size"),
    ("TALLER", "tall", "great in vertical dimension"),
    ("TALLEST", "tall", "great in vertical dimension"),
    ("BOXES", "box", "a (usually rectangular) container; may have a lid"),
    ("FLIES", "fly", "two-winged insects"),  # no usage counts: nouns first
    ("RUNS", "run", "move fast by using one's feet"),  # the verb is used far more than "runs"
    ("MARS", "mar", "make imperfect"),  # the planet is a name: not a word-game sense
    ("QUICKNESS", "quick", "moving fast"),  # a derivation WordNet's rules leave out
    ("QUICKLY", "quick", "moving fast"),
    ("GLASS", "glass", "a brittle transparent solid"),
]


@pytest.mark.parametrize(("word", "base", "gloss"), FAKE_CASES)
def test_an_inflected_word_is_defined_through_its_base_form(
    fake: Glossary, word: str, base: str, gloss: str
) -> None:
    found = define_in(fake, word)
    assert found is not None
    assert (found.base, found.senses[0].gloss) == (base, gloss)
    assert found.word == word.upper() and found.source == "fake"


@pytest.mark.parametrize("word", ["ZZZ", "JUPITER", "MICE", "ICECREAM", "ICE_CREAM", "", "A-B"])
def test_words_without_a_definition_get_none(fake: Glossary, word: str) -> None:
    assert define_in(fake, word) is None


def test_the_senses_come_from_the_parts_of_speech_the_form_belongs_to(fake: Glossary) -> None:
    boxes = define_in(fake, "BOXES")
    assert boxes is not None
    assert [s.pos for s in boxes.senses] == ["noun", "verb"]
    quashed = define_in(fake, "QUASHED")
    assert quashed is not None
    assert [s.gloss for s in quashed.senses] == [
        "put down by force or intimidation",  # the quoted examples are dropped
        "declare invalid",
    ]


def test_the_definition_says_which_base_form_it_shows(fake: Glossary) -> None:
    quashed = define_in(fake, "quashed")
    assert isinstance(quashed, Definition)
    assert quashed.summary() == "QUASHED → quash: put down by force or intimidation"
    assert not quashed.is_base
    cat = define_in(fake, "cat")
    assert cat is not None and cat.is_base and cat.heading() == "cat"
    assert quashed.as_dict()["senses"] == [
        {"pos": "verb", "gloss": "put down by force or intimidation"},
        {"pos": "verb", "gloss": "declare invalid"},
    ]


def test_morphy_leaves_nouns_in_ss_and_short_words_alone() -> None:
    assert detach("glass", NOUN) == []
    assert detach("as", NOUN) == []
    assert detach("quashed", VERB) == ["quashe", "quash"]


def test_derivations_undo_a_doubled_consonant() -> None:
    assert ("run", "v") in list(derive("runners"))


def test_glossaries_are_asked_in_order(fake: Glossary) -> None:
    first = define("QUASHED", [fake, shipped_glossary()])
    assert first is not None and first.source == "fake"
    assert define("ZZZ", []) is None


# The shipped WordNet 3.0: word, base form, the start of its first sense
SHIPPED_CASES = [
    ("QUASHED", "quash", "put down by force"),
    ("CATS", "cat", "feline mammal"),
    ("GEESE", "goose", "web-footed long-necked"),
    ("RUNNING", "run", "move fast by using one's feet"),
    ("BIGGER", "big", "above average in size"),
    ("BOXES", "box", "a (usually rectangular) container"),
    ("FLIES", "fly", "travel through the air"),
    ("WAS", "be", "have the quality of being"),
    ("MICE", "mouse", "any of numerous small rodents"),
    ("SADDEST", "sad", "experiencing or showing sorrow"),
    ("NEWS", "news", "information about recent and important events"),
    ("BELS", "bel", "a logarithmic unit of sound intensity"),  # not the god, not the tree
    ("BEL", "bel", "a logarithmic unit of sound intensity"),
]


@pytest.mark.parametrize(("word", "base", "start"), SHIPPED_CASES)
def test_the_shipped_wordnet_defines_inflected_forms(word: str, base: str, start: str) -> None:
    found = define(word)
    assert found is not None
    assert found.base == base and found.senses[0].gloss.startswith(start)
    assert found.source == "WordNet 3.0"


@pytest.mark.parametrize("word", ["LAA", "XYZZY", "ICE_CREAM"])
def test_the_shipped_wordnet_has_no_definition_for(word: str) -> None:
    assert define(word) is None


def test_function_words_wordnet_leaves_out_are_shipped_too() -> None:
    the = define("THE")
    assert the is not None and the.source == "Boggle Online function words"
    assert the.base == "the" and the.senses[0].pos == ""
    she = define("SHE")
    assert she is not None and she.senses[0].gloss.startswith("the female person")


def test_a_function_word_is_never_the_base_of_another_word() -> None:
    # "or" is a function word; ORS (heraldic gold, plural) must not become "introduces an
    # alternative": GCIDE has the heraldic noun, and only it is shown.
    ors = define("ORS")
    assert ors is not None and ors.source == GCIDE_NAME
    assert [s.pos for s in ors.senses] == ["noun"] and "gold" in ors.senses[0].gloss
    thes = define("THES")
    assert thes is None or all("article" not in s.gloss for s in thes.senses)


def test_derivations_leave_prefixes_and_a_bare_s_alone() -> None:
    assert [b for b, _ in derive("sures")] == []
    assert ("rob", "v") not in list(derive("rober")) and ("robe", "v") in list(derive("rober"))
    assert ("car", "n") not in list(derive("carrs"))


# Derivations against the shipped glossaries: (word, the base it must show or None for no
# definition, the naive base it must not show). An agent -ER is derived from a verb only when
# the base is not mainly a noun (a MOSSER gathers moss, a CODDER gathered peascods), and a
# doubled consonant is undone only when nothing replaces the ending (HOPPINGS is not hope).
FALSE_FRIENDS = [
    ("MOSSER", None, "moss"),
    ("MOSSERS", None, "moss"),
    ("SOAPER", None, "soap"),
    ("FORKERS", None, "fork"),
    ("CRABBER", "crabber", "crab"),  # GCIDE's own article: one who catches crabs
    ("PALMERS", "palmer", "palm"),
    ("FRUITER", "fruiter", "fruit"),
    ("LEAGUER", "leaguer", "league"),
    ("FLESHERS", "flesher", "flesh"),
    ("CODDER", "cod", "code"),
    ("DOTTER", None, "dote"),
    ("HOPPINGS", "hop", "hope"),
    ("RIDDER", "rid", "ride"),
    ("TINNILY", "tinny", "tiny"),
    ("SCARRIER", "scarry", "scary"),
    ("SLIMMERS", "slim", "slime"),
    ("TWINNINGS", "twin", "twine"),
]
TRUE_DERIVATIONS = [
    ("QUICKNESS", "quickness"),  # WordNet's own headword
    ("ROSIER", "rosy"),
    ("HOLES", "hole"),
    ("TALLER", "tall"),
    ("FUZZILY", "fuzzy"),
    ("IFFINESS", "iffy"),
    ("REEFIER", "reefy"),
    ("FOCUSLESS", "focus"),
    ("GOATLIKE", "goat"),
    ("STARTLEMENT", "startle"),
    ("HATCHABLE", "hatch"),
    ("NUTTINGS", "nut"),
    ("DETHRONERS", "dethrone"),
    ("DECIDER", "decide"),
    ("CARERS", "care"),
    ("THAWER", "thaw"),
    ("PREENERS", "preen"),
    ("QUASHERS", "quash"),
]


@pytest.mark.parametrize(("word", "base", "naive"), FALSE_FRIENDS)
def test_a_derivation_that_would_mislead_is_not_shown(
    word: str, base: str | None, naive: str
) -> None:
    found = define(word)
    assert (found.base if found else None) == base
    assert found is None or found.base != naive


@pytest.mark.parametrize(("word", "base"), TRUE_DERIVATIONS)
def test_a_true_derivation_keeps_its_base(word: str, base: str) -> None:
    found = define(word)
    assert found is not None and found.base == base


def test_an_agent_noun_reads_as_one_who_does_it() -> None:
    found = define("DETHRONERS")
    assert found is not None
    assert found.summary() == (
        "DETHRONERS → dethrone: one who or that dethrones (remove a monarch from the throne)"
    )
    assert found.senses[0].pos == "noun"
