"""Under daphne, Django runs the middleware chain asynchronously only if every middleware can:
one synchronous middleware puts every request of the worker, views included, into its one
thread for synchronous code, where they wait for each other (docs/daily.md, "Scale")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import AsyncClient
from django.utils.module_loading import import_string


def test_every_middleware_can_run_in_the_asynchronous_chain(settings: Any) -> None:
    sync_only = [
        path
        for path in settings.MIDDLEWARE
        if not getattr(import_string(path), "async_capable", False)
    ]
    assert sync_only == []
    assert "boggle_site.static_files.StaticFilesMiddleware" in settings.MIDDLEWARE


@pytest.mark.django_db
async def test_a_static_file_and_a_page_through_the_asynchronous_chain(settings: Any) -> None:
    settings.WHITENOISE_USE_FINDERS = True  # no collectstatic in the tests: found in static/
    settings.WHITENOISE_AUTOREFRESH = True
    client = AsyncClient()
    module = await client.get("/static/js/round_parts.js")
    assert module.status_code == 200
    assert module["Content-Type"].startswith("text/javascript")
    body = b"".join(module.streaming_content)  # type: ignore[arg-type]  # a file's chunks
    module.close()
    assert b"export function roundParts" in body
    missing = await client.get("/static/js/no-such-module.js")
    assert missing.status_code == 404
    home = await client.get("/")
    assert home.status_code == 200 and b"Boggle Online" in home.content
