"""`manage.py define`, `definitions_build` and `definitions_coverage` as a user runs them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from solver.definitions.coverage import coverage_measure
from solver.engine.definitions import shipped_glossaries
from solver.engine.dice import DICE_SETS
from solver.engine.glossary import Glossary
from solver.engine.rules import Rules
from solver.engine.search import Solver
from solver.engine.trie import Trie
from solver.engine.wordlist import read_word_list
from tests.commands.conftest import DATA, manage
from tests.definitions.fake_gcide import write_fake_gcide
from tests.definitions.fake_wordnet import write_fake_wordnet

ALGS4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")


def test_define_prints_the_base_form_and_the_senses() -> None:
    result = manage("define", "QUASHED")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "QUASHED → quash (WordNet 3.0)",
        "  1. verb: put down by force or intimidation",
        "  2. verb: declare invalid",
    ]


def test_define_checks_the_word_is_in_the_dictionary_given(cache: Path) -> None:
    found = manage("define", "geese", "--dictionary", "enable2k", cache=cache)
    assert found.returncode == 0 and found.stdout.startswith("GEESE → goose (WordNet 3.0)")
    missing = manage("define", "quashx", "--dictionary", "enable2k", cache=cache)
    assert missing.returncode == 1
    assert "QUASHX is not in the dictionary enable2k" in missing.stderr


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["XYZZY"], 1, "XYZZY: no definition found"),
        (["LAA", "--dictionary", "yawl"], 1, "LAA: no definition found"),
        ([""], 2, "give a word to define"),
        (["ice-cream"], 2, "'ice-cream' is not a word: use letters only"),
        (["cat", "--dictionary", "nosuch"], 2, "unknown dictionary 'nosuch'"),
    ],
    ids=["no-definition", "in-yawl-but-undefined", "empty", "not-letters", "bad-dictionary"],
)
def test_define_exit_status(args: list[str], status: int, message: str, cache: Path) -> None:
    result = manage("define", *args, cache=cache)
    assert result.returncode == status and message in result.stderr


def test_the_builder_writes_a_glossary_and_the_licence(tmp_path: Path) -> None:
    source = write_fake_wordnet(tmp_path / "wordnet")
    out = tmp_path / "out" / "defs.xz"
    result = manage(
        "definitions_build", "--only", "wordnet", "--wordnet", str(source), "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert ": 15 headwords, 19 senses, 4 irregular forms" in result.stdout
    glossary = Glossary(out.read_bytes())
    entry = glossary.entry("quash")
    assert entry is not None and entry.parts[0].glosses[0] == "put down by force or intimidation"
    assert (out.parent / "wordnet-LICENSE").read_text().startswith("A fake WordNet for tests.")
    missing = manage("definitions_build", "--wordnet", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no such directory" in missing.stderr


def test_the_builder_layers_gcide_after_wordnet(tmp_path: Path) -> None:
    wordnet = write_fake_wordnet(tmp_path / "wordnet")
    gcide = write_fake_gcide(tmp_path / "gcide")
    words = tmp_path / "words.txt"
    words.write_text("ait\ntole\ntoled\nquash\nspake\nsark\nbig\n")
    out = tmp_path / "out"
    result = manage(
        "definitions_build",
        *("--wordnet", str(wordnet), "--out", str(out / "wordnet.defs.xz")),
        *("--gcide", str(gcide), "--gcide-out", str(out / "gcide.defs.xz")),
        *("--gcide-licence", str(gcide / "copyright"), "--words", str(words)),
    )
    assert result.returncode == 0, result.stderr
    assert "gcide.defs.xz: 4 headwords, 4 senses, 2 irregular forms" in result.stdout
    glossary = Glossary((out / "gcide.defs.xz").read_bytes())
    # quash and big are WordNet's; speak stays as the base form of spake
    assert list(glossary.headwords()) == ["ait", "sark", "speak", "tole"]
    assert glossary.exceptions["spake"] == {"v": ["speak"]}
    licence = (out / "gcide-LICENSE").read_text()
    assert licence.startswith("A fake GCIDE for tests, under the GPL.")
    alone = manage(
        "definitions_build",
        *("--only", "gcide", "--out", str(out / "wordnet.defs.xz")),
        *("--gcide", str(tmp_path / "nowhere")),
    )
    assert alone.returncode == 2
    assert "no such directory (apt-get install dict-gcide)" in alone.stderr


def test_the_coverage_command_prints_the_weighted_share(cache: Path) -> None:
    args = ["--dictionary", ALGS4, "--boards", "20", "--seed", "7", "--show", "3"]
    result = manage("definitions_coverage", *args, cache=cache)
    assert result.returncode == 0, result.stderr
    figure = re.search(r"(\d+\.\d)% of ([\d,]+) word appearances", result.stdout)
    assert figure is not None

    rng = random.Random(7)
    boards = [DICE_SETS["new16"].roll(rng) for _ in range(20)]
    trie = Trie.from_word_list(read_word_list(Path(ALGS4)))
    expected = coverage_measure(
        solver=Solver(trie, Rules()),
        boards=boards,
        glossaries=shipped_glossaries(),
        undefined_shown=3,
    )
    assert figure.groups() == (f"{expected.weighted:.1f}", f"{expected.appearances:,}")
    shown = ", ".join(f"{word} ({n})" for word, n in expected.undefined)
    assert ("most frequent without one: " + shown in result.stdout) == bool(expected.undefined)
