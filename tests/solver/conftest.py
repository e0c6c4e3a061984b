"""Dictionaries for the solver app's tests, each in its own compiled-dictionary cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from solver.caches import caches_clear
from solver.dictionaries import services
from solver.engine.wordlist import parse_word_list
from solver.models import Dictionary

DATA = Path(__file__).resolve().parents[1] / "data"
SMALL_WORDS = "cat cats dog dogs tape tapes pity quiz quit bird"


@pytest.fixture(autouse=True)
def quick_password_hashes(settings: Settings) -> None:
    """Hash the test accounts' passwords in microseconds rather than the production hasher's
    deliberate fraction of a second (the admin's sign-in and lockout tests pay it often)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def trie_cache(tmp_path_factory: pytest.TempPathFactory, settings: Settings) -> Iterator[Path]:
    """A compiled-dictionary store shared by this package's tests, and a fresh memory cache."""
    directory = tmp_path_factory.getbasetemp() / "solver-trie-cache"
    settings.BOGGLE_CACHE_DIR = directory
    caches_clear("compiled dictionaries")
    yield directory
    caches_clear("compiled dictionaries")


def dictionary_of(words: str = SMALL_WORDS, slug: str = "small", **fields: object) -> Dictionary:
    """Create a dictionary over a few words (the first one created becomes the default)."""
    return services.dictionary_create(
        name=str(fields.pop("name", slug.title())),
        slug=slug,
        word_list=parse_word_list(words),
        alphabet=str(fields.pop("alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")),
        **fields,  # type: ignore[arg-type]
    )


@pytest.fixture
def small(db: None) -> Dictionary:
    """A ten-word dictionary, the default."""
    return dictionary_of()


@pytest.fixture
def staff_client(db: None, client: Client) -> Client:
    """A client logged in as a superuser (staff with every permission)."""
    admin = User.objects.create_superuser("admin", "admin@example.com", password=None)
    client.force_login(admin)
    return client
