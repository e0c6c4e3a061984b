"""Request bodies larger than their path may take are refused (413) before anything reads
them: the game's forms are a few KB, only the admin takes files (boggle_site/bodies.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from boggle_site.bodies import body_limit
from games.models import Room

pytestmark = pytest.mark.usefixtures("shipped_data")


def test_a_body_over_the_limit_is_refused_unread_and_creates_nothing(client: Client) -> None:
    over = body_limit("/") + 1
    response = client.post("/", {"nickname": "Ann", "preset": "classic"}, CONTENT_LENGTH=str(over))
    assert response.status_code == 413
    assert f"{over:,} bytes" in response.content.decode()
    assert not Room.objects.exists()


def test_a_form_within_the_limit_is_served(client: Client) -> None:
    response = client.post("/", {"nickname": "Ann", "preset": "classic"})
    assert response.status_code == 302 and Room.objects.count() == 1


def test_the_admin_takes_uploads_up_to_its_own_larger_limit(settings: Any) -> None:
    assert body_limit("/admin/solver/dictionary/add/") == settings.BOGGLE_BODY_LIMITS["/admin/"]
    assert body_limit("/admin/") > 40 * 1024 * 1024 > body_limit("/r/ABCDEF/reports/")


def test_a_body_whose_length_is_not_a_number_is_refused(client: Client) -> None:
    response = client.post("/", {"nickname": "Ann"}, CONTENT_LENGTH="lots")
    assert response.status_code == 400 and not Room.objects.exists()
