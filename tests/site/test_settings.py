"""Settings read the environment: DATABASE_URL picks the database, REDIS_URL the channel layer."""

import runpy
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from boggle_site import settings
from boggle_site.settings import channel_layers_config, database_config

SETTINGS_FILE = settings.__file__
ENV_VARS = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "BOGGLE_CACHE_DIR")


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Run the settings module afresh with exactly `env` set, and return its globals."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(SETTINGS_FILE)


def test_no_database_url_means_sqlite_under_var(tmp_path: Path) -> None:
    config = database_config(None, tmp_path / "var" / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "var" / "db.sqlite3"
    assert (tmp_path / "var").is_dir()


def test_a_sqlite_database_url_gets_the_same_settings_as_the_default_file(tmp_path: Path) -> None:
    """The browser tests' server names its SQLite file by URL: it once got SQLite's defaults
    (rollback journal, deferred transactions), and two writers failed at once on "database is
    locked" where they should have waited."""
    default = database_config(None, tmp_path / "var" / "db.sqlite3")
    named = database_config(f"sqlite:///{tmp_path}/other/db.sqlite3", tmp_path / "unused")
    assert named["NAME"] == tmp_path / "other" / "db.sqlite3"
    assert (tmp_path / "other").is_dir() and not (tmp_path / "unused").exists()
    assert named["OPTIONS"] == default["OPTIONS"]
    assert named["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in named["OPTIONS"]["init_command"]


def test_postgres_database_url_means_postgresql(tmp_path: Path) -> None:
    config = database_config("postgres://boggle:secret@db.example:5433/boggle", tmp_path / "x")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("boggle", "boggle", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.example", 5433)
    assert not (tmp_path / "x").exists()


def test_no_redis_url_means_in_memory_channel_layer() -> None:
    layer = channel_layers_config(None)["default"]
    assert layer["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_redis_url_means_redis_channel_layer() -> None:
    layer = channel_layers_config("redis://cache.example:6379/2")["default"]
    assert (
        layer["BACKEND"] == "games.realtime.layers.RedisChannelLayer"
    )  # channels_redis's, minus a leak
    assert layer["CONFIG"]["hosts"] == ["redis://cache.example:6379/2"]


def test_defaults_suit_local_development(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch)
    assert loaded["DEBUG"] is True
    assert loaded["SECRET_KEY"]
    assert loaded["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert loaded["DATABASES"]["default"]["NAME"] == loaded["BASE_DIR"] / "var" / "db.sqlite3"
    assert loaded["BOGGLE_CACHE_DIR"] == loaded["BASE_DIR"] / "var" / "cache"
    assert loaded["INSTALLED_APPS"][0] == "daphne"


def test_environment_overrides_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY="s3cret",
        ALLOWED_HOSTS="boggle.example, www.boggle.example",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/boggle",
        REDIS_URL="redis://127.0.0.1:6379/0",
        BOGGLE_CACHE_DIR="/srv/boggle/cache",
    )
    assert loaded["DEBUG"] is False
    assert loaded["ALLOWED_HOSTS"] == ["boggle.example", "www.boggle.example"]
    assert loaded["DATABASES"]["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert (
        loaded["CHANNEL_LAYERS"]["default"]["BACKEND"] == "games.realtime.layers.RedisChannelLayer"
    )
    assert loaded["BOGGLE_CACHE_DIR"] == Path("/srv/boggle/cache")


def test_production_refuses_to_start_without_secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="false")
