"""Production settings: `manage.py check --deploy` passes with the environment that
docs/operations.md gives, and each hardening switch does what it says."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.utils.module_loading import import_string
from whitenoise.storage import CompressedManifestStaticFilesStorage

from tests.site.test_settings import load_settings

ROOT = Path(__file__).resolve().parents[2]

# The production environment of docs/operations.md (names only; the values are examples).
PRODUCTION = {
    "DEBUG": "false",
    "ALLOWED_HOSTS": "boggle.example.com",
    "DATABASE_URL": "postgres://boggle:secret@127.0.0.1:5432/boggle",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECURE_PROXY_SSL_HEADER": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "CSRF_TRUSTED_ORIGINS": "https://boggle.example.com",
}
HARDENING = (
    "HTTPS",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "CSRF_TRUSTED_ORIGINS",
    "STATIC_ROOT",
)


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k not in HARDENING}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **env, "SECRET_KEY": secrets.token_urlsafe(50)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_passes_with_the_production_environment() -> None:
    done = check_deploy(PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_names_what_a_bare_production_setup_leaves_to_the_proxy() -> None:
    bare = {"DEBUG": "false", "ALLOWED_HOSTS": "boggle.example.com"}
    done = check_deploy(bare)
    assert done.returncode != 0
    found = {code for code in ("W005", "W008", "W021") if f"security.{code}" in done.stderr}
    assert found == {"W005", "W008", "W021"}  # subdomains, redirect, preload: policy choices
    assert "ERROR" not in done.stderr


def load(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, object]:
    for name in HARDENING:
        monkeypatch.delenv(name, raising=False)
    return load_settings(monkeypatch, **env)


def test_production_cookies_are_secure_and_hsts_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load(monkeypatch, DEBUG="false", SECRET_KEY="k")
    assert loaded["SESSION_COOKIE_SECURE"] is True and loaded["CSRF_COOKIE_SECURE"] is True
    assert loaded["SECURE_HSTS_SECONDS"] == 31_536_000
    assert "SECURE_PROXY_SSL_HEADER" not in loaded  # opt-in only
    assert loaded["CSRF_TRUSTED_ORIGINS"] == []
    storage = import_string(loaded["STORAGES"]["staticfiles"]["BACKEND"])  # type: ignore[index]
    assert issubclass(storage, CompressedManifestStaticFilesStorage)  # WhiteNoise serves them


def test_proxy_header_and_trusted_origins_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded = load(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY="k",
        SECURE_PROXY_SSL_HEADER="true",
        CSRF_TRUSTED_ORIGINS="https://a.example, https://b.example",
        STATIC_ROOT="/srv/boggle/static",
    )
    assert loaded["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert loaded["CSRF_TRUSTED_ORIGINS"] == ["https://a.example", "https://b.example"]
    assert loaded["STATIC_ROOT"] == Path("/srv/boggle/static")


def test_plain_http_trials_and_development_send_cookies_over_http(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trial = load(monkeypatch, DEBUG="false", SECRET_KEY="k", HTTPS="false")
    assert trial["SESSION_COOKIE_SECURE"] is False and trial["SECURE_HSTS_SECONDS"] == 0
    development = load(monkeypatch)
    assert development["SESSION_COOKIE_SECURE"] is False
    assert development["SECURE_HSTS_SECONDS"] == 0


def test_the_throttle_counts_in_redis_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = load(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0")["CACHES"]
    assert shared["throttle"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"  # type: ignore[index]
    alone = load(monkeypatch)["CACHES"]
    assert alone["throttle"]["BACKEND"].endswith("LocMemCache")  # type: ignore[index]


def test_the_documented_nginx_site_is_the_one_the_layout_test_runs() -> None:
    # A deployment copies docs/operations.md's site; the layout test and `make cluster` run
    # the one boggle_site.deploy.nginx writes: they must be the same, line for line.
    from boggle_site.deploy.example import example_site

    doc = (ROOT / "docs" / "operations.md").read_text()
    blocks = [b for b in doc.split("```nginx\n")[1:]]
    assert len(blocks) == 1, "docs/operations.md shows one nginx site"
    assert blocks[0].split("```", 1)[0] == example_site()


def test_a_request_behind_the_proxy_counts_the_address_the_proxy_names(
    settings: Any, rf: Any
) -> None:
    from games.limits.throttle import client_address

    forwarded = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    settings.BEHIND_PROXY = False  # exposed directly: a client's header proves nothing
    assert client_address(forwarded) == "127.0.0.1"
    settings.BEHIND_PROXY = True
    assert client_address(forwarded) == "203.0.113.5"
    assert client_address(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
