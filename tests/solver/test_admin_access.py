"""Only staff reach the dictionary and dice-set admin, and only with the right permissions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from solver.models import DiceSet, Dictionary

pytestmark = pytest.mark.django_db


def pages(dictionary: Dictionary) -> list[str]:
    base = "/admin/solver/dictionary/"
    return [
        base,
        f"{base}add/",
        f"{base}{dictionary.pk}/change/",
        f"{base}{dictionary.pk}/change/?check=cat",
        "/admin/solver/diceset/",
        "/admin/solver/diceset/add/",
    ]


def posts(dictionary: Dictionary) -> list[tuple[str, dict[str, str]]]:
    base = f"/admin/solver/dictionary/{dictionary.pk}"
    return [
        (f"{base}/words/", {"word": "zebra", "action": "add"}),
        (f"{base}/status/", {"action": "deactivate"}),
    ]


def user(client: Client, *, staff: bool, permissions: tuple[str, ...] = ()) -> User:
    person = User.objects.create_user("person", password="pass-1234-word", is_staff=staff)
    person.user_permissions.set(Permission.objects.filter(codename__in=permissions))
    client.force_login(person)
    return person


def test_anonymous_visitors_are_sent_to_the_login_page(client: Client, small: Dictionary) -> None:
    for url in pages(small):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    for url, data in posts(small):
        response = client.post(url, data)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert Dictionary.objects.get(pk=small.pk).content_hash == small.content_hash


def test_users_who_are_not_staff_are_sent_to_the_login_page(
    client: Client, small: Dictionary
) -> None:
    user(client, staff=False, permissions=("change_dictionary", "view_dictionary"))
    for url in pages(small):
        assert client.get(url)["Location"].startswith("/admin/login/")
    for url, data in posts(small):
        assert client.post(url, data)["Location"].startswith("/admin/login/")


def test_staff_without_permissions_are_refused(client: Client, small: Dictionary) -> None:
    user(client, staff=True)
    for url in pages(small):
        assert client.get(url).status_code == 403
    for url, data in posts(small):
        assert client.post(url, data).status_code == 403
    assert Dictionary.objects.get(pk=small.pk).is_active


def test_staff_who_may_only_view_get_the_tools_but_no_changes(
    client: Client, small: Dictionary
) -> None:
    user(client, staff=True, permissions=("view_dictionary",))
    page = client.get(f"/admin/solver/dictionary/{small.pk}/change/?check=cat")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-status="WORD"' in html and "Add or remove a word" in html
    assert 'name="action" value="add"' not in html
    for url, data in posts(small):
        assert client.post(url, data).status_code == 403


def test_the_buttons_refuse_get_requests(staff_client: Client, small: Dictionary) -> None:
    for url, _ in posts(small):
        assert staff_client.get(url).status_code == 405


def test_the_default_dictionary_cannot_be_deleted(staff_client: Client, small: Dictionary) -> None:
    assert staff_client.get(f"/admin/solver/dictionary/{small.pk}/delete/").status_code == 403
    assert Dictionary.objects.filter(pk=small.pk).exists()


def test_staff_with_permissions_reach_every_page(
    staff_client: Client, small: Dictionary, shipped_data: None
) -> None:
    for url in pages(small):
        assert staff_client.get(url).status_code == 200, url
    superbig = DiceSet.objects.get(slug="superbig36")
    assert staff_client.get(f"/admin/solver/diceset/{superbig.pk}/change/").status_code == 200
