"""Admin sign-in is throttled (django-axes): after five wrong passwords for one username from
one address, that pair is refused, even with the right password, until the cool-off ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-admin-password"
LOGIN = "/admin/login/?next=/admin/"


def sign_in(client: Client, password: str, username: str = "boss") -> int:
    """Post the admin's login form; return the status (302: signed in, 200: wrong password)."""
    return client.post(LOGIN, {"username": username, "password": password}).status_code


@pytest.fixture
def boss() -> User:
    return User.objects.create_superuser("boss", "boss@example.com", PASSWORD)


def test_the_sixth_try_after_five_wrong_passwords_is_refused_even_with_the_right_one(
    boss: User,
) -> None:
    client = Client(REMOTE_ADDR="203.0.113.7")
    statuses = [sign_in(client, f"guess-{n}") for n in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # the fifth wrong one locks the pair out
    refused = client.post(LOGIN, {"username": "boss", "password": PASSWORD})
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many wrong passwords" in page and "15 minutes" in page
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still not signed in


def test_the_lockout_is_per_username_and_address(boss: User) -> None:
    User.objects.create_superuser("other", "other@example.com", PASSWORD)
    flooder = Client(REMOTE_ADDR="203.0.113.8")
    for n in range(6):
        sign_in(flooder, f"guess-{n}")
    assert sign_in(Client(REMOTE_ADDR="203.0.113.9"), PASSWORD) == 302  # boss elsewhere
    assert sign_in(flooder, PASSWORD, username="other") == 302  # another account here


def test_a_right_password_before_the_limit_starts_the_count_again(boss: User) -> None:
    client = Client(REMOTE_ADDR="203.0.113.10")
    for n in range(4):
        sign_in(client, f"guess-{n}")
    assert sign_in(client, PASSWORD) == 302
    client.post("/admin/logout/")
    for n in range(4):
        sign_in(client, f"guess-{n}")
    assert sign_in(client, PASSWORD) == 302


def test_after_the_cool_off_the_right_password_works_again(boss: User) -> None:
    client = Client(REMOTE_ADDR="203.0.113.11")
    for n in range(5):
        sign_in(client, f"guess-{n}")
    assert sign_in(client, PASSWORD) == 429
    cool_off = timedelta(hours=settings.AXES_COOLOFF_TIME)
    AccessAttempt.objects.update(attempt_time=timezone.now() - cool_off - timedelta(seconds=1))
    assert sign_in(client, PASSWORD) == 302
