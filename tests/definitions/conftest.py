"""The fake WordNet and the glossary built from it, shared by the definition tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.engine.glossary import Glossary, glossary_encode
from solver.engine.wordnet import directory_reader, read_wordnet
from tests.definitions.fake_wordnet import write_fake_wordnet


@pytest.fixture(scope="session")
def fake_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the fake WordNet files."""
    return write_fake_wordnet(tmp_path_factory.mktemp("wordnet"))


@pytest.fixture(scope="session")
def fake(fake_dir: Path) -> Glossary:
    """The glossary built from the fake WordNet."""
    return Glossary(glossary_encode(read_wordnet(directory_reader(fake_dir))), "fake")
