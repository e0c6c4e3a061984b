"""The site answers: a real home page, and an admin behind a login."""

import pytest
from django.test import Client

# The home page lists the dictionaries and dice sets a host may choose, from the database.
pytestmark = pytest.mark.django_db


def test_home_page_names_the_game(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Boggle Online" in response.content.decode()


def test_home_page_links_the_stylesheet(client: Client) -> None:
    assert "css/site.css" in client.get("/").content.decode()


def test_admin_redirects_anonymous_users_to_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
