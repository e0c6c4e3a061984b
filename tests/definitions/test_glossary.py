"""The glossary format, the WordNet reader and the shipped file."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from solver.engine.definitions import SHIPPED_DIR, SHIPPED_PATH, shipped_glossary
from solver.engine.glossary import (
    MAX_SENSES,
    Entry,
    Glossary,
    GlossaryData,
    GlossaryFormatError,
    PosSenses,
    glossary_encode,
)
from solver.engine.wordnet import (
    WordNetError,
    directory_reader,
    gloss_definition,
    licence_of,
    read_wordnet,
)


def test_a_glossary_round_trips_through_its_format() -> None:
    data = GlossaryData(
        {
            "zebra": Entry((PosSenses("n", 3, ("a striped horse",)),)),
            "able": Entry((PosSenses("a", 9, ("having the means", "skilful")),)),
            "ablest": Entry((PosSenses("-", 0, ("the most able",)),)),
        },
        {"abler": {"a": ["able"]}},
    )
    glossary = Glossary(glossary_encode(data), "test")
    assert len(glossary) == 3 and list(glossary.headwords()) == ["able", "ablest", "zebra"]
    for word, entry in data.entries.items():
        assert glossary.entry(word) == entry
    assert glossary.entry("abl") is None and glossary.entry("zebras") is None
    assert glossary.exceptions == {"abler": {"a": ["able"]}}


@pytest.mark.parametrize(
    "blob",
    [b"", b"not xz", lzma.compress(b"hello\n"), lzma.compress(b"boggle-definitions 1\nwords 5\n")],
)
def test_bytes_that_are_not_a_glossary_are_refused(blob: bytes) -> None:
    with pytest.raises(GlossaryFormatError):
        Glossary(blob)


def test_an_entry_keeps_a_few_senses_and_one_of_each_part_of_speech_first() -> None:
    entry = Entry.chosen(
        [
            PosSenses("n", 5, ("n1", "n2", "n3", "n4", "n5")),
            PosSenses("v", 40, ("v1", "v2", "v3")),
            PosSenses("a", 1, ("a1",)),
        ]
    )
    assert [p.pos for p in entry.parts] == ["v", "n", "a"]  # most used first
    assert [p.glosses for p in entry.parts] == [("v1", "v2"), ("n1",), ("a1",)]
    assert sum(len(p.glosses) for p in entry.parts) == MAX_SENSES


def test_example_sentences_are_trimmed_from_glosses() -> None:
    assert gloss_definition(' declare invalid; "The court quashed the judgment"  ') == (
        "declare invalid"
    )
    assert gloss_definition("a fruit; yellow") == "a fruit; yellow"
    assert gloss_definition('"hello"') == '"hello"'


def test_the_reader_builds_from_a_fake_wordnet(fake_dir: Path) -> None:
    read = directory_reader(fake_dir)
    data = read_wordnet(read)
    assert "ice_cream" not in data.entries and "jupiter" not in data.entries
    assert data.entries["big"].parts[0].glosses == ("above average in size",)
    assert data.exceptions == {
        "geese": {"n": ["goose"]},
        "ran": {"v": ["run"]},
        "running": {"v": ["run"]},
        "bigger": {"a": ["big"]},
    }  # "mice → mouse" is dropped: mouse is no headword here
    assert licence_of(read) == "A fake WordNet for tests.\nUse it for anything.\n"


def test_a_unit_wordnet_spells_with_a_capital_is_kept_but_a_name_is_not(fake_dir: Path) -> None:
    # WordNet 3.0 has bel only as "Bel": the Babylonian god (a name) and the unit of sound
    # (named after Bell). The unit is the word; Gbit, a capitalised short form of gigabit, is not.
    entries = read_wordnet(directory_reader(fake_dir)).entries
    assert entries["bel"].parts == (PosSenses("n", 0, ("a logarithmic unit of sound intensity",)),)
    assert "gbit" not in entries and "gigabit" in entries
    assert "mars" not in entries and "jupiter" not in entries  # names are still left out


def test_a_broken_wordnet_file_is_named_in_the_error(tmp_path: Path, fake_dir: Path) -> None:
    for name in ("data.noun", "index.noun"):
        (tmp_path / name).write_text((fake_dir / name).read_text())
    (tmp_path / "data.noun").write_text("00000100 05 n zz cat 0 000 | a cat\n")
    with pytest.raises(WordNetError, match=r"data\.noun, line 1"):
        read_wordnet(directory_reader(tmp_path))
    with pytest.raises(WordNetError, match="missing"):
        read_wordnet(directory_reader(tmp_path / "empty"))


def test_the_shipped_glossary_loads_with_its_licence_beside_it() -> None:
    glossary = shipped_glossary()
    assert glossary is shipped_glossary()  # read once per process
    assert 60_000 < len(glossary) < 70_000
    assert SHIPPED_PATH.stat().st_size < 2 * 2**20
    assert "Princeton University" in (SHIPPED_DIR / "wordnet-LICENSE").read_text()
    assert all(word.isalpha() for word in glossary.headwords())
