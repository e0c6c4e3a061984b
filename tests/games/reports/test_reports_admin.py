"""The admin's word report queue: one entry per word and kind in a dictionary, with counts, the
definition and how common the word is; one click removes, adds or dismisses, the live list
changes as on the dictionary's page, and the reporter reads the outcome."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from games.identity import COOKIE_NAME, cookie_value
from games.models import WordReport
from games.reports import services as reports
from games.rules import clock
from solver.dictionaries import selectors as solver_selectors
from solver.models import Dictionary, DictionaryWord
from tests.games.reports.test_reports import NOT_IN_LIST, played

pytestmark = pytest.mark.django_db

QUEUE = "/admin/games/wordreport/"
DECIDE = "/admin/games/wordreport/decide/"


def admin_client(*, superuser: bool = True, perms: tuple[str, ...] = ()) -> Client:
    user = User.objects.create_user("boss", "boss@example.com", "pw", is_staff=True)
    user.is_superuser = superuser
    user.save()
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    client = Client()
    client.force_login(user)
    return client


def reported(game_data: Dictionary) -> Any:
    """Two rooms: three players report SITE, one reports TIS as a word."""
    first, ann, bob = played()
    second, cy, dee = played()
    now = clock.now()
    for rnd, player, word, kind, reason in (
        (first, ann, "SITE", "should_not_count", "a place"),
        (first, bob, "SITE", "should_not_count", ""),
        (second, cy, "SITE", "should_not_count", "<b>web</b> site"),
        (second, dee, NOT_IN_LIST, "is_a_word", "'tis"),
    ):
        reports.report_create(rnd=rnd, player=player, word=word, kind=kind, reason=reason, now=now)
    return first, bob


def decide(client: Client, dictionary: Dictionary, word: str, kind: str, decision: str) -> Any:
    return client.post(
        DECIDE,
        {"dictionary": dictionary.pk, "word": word, "kind": kind, "decision": decision},
        follow=True,
    )


def test_the_queue_shows_each_word_with_its_counts_definition_and_commonness(
    game_data: Dictionary,
) -> None:
    reported(game_data)
    page = admin_client().get(QUEUE)
    assert page.status_code == 200
    assert page.context["chosen"] == game_data
    html = page.content.decode()
    assert "3 reports from 2 rooms" in html and "1 report from 1 room" in html
    assert "this should not count" in html and "this is a word" in html
    assert "site: " in html  # its definition
    assert "everyday" in html and "Zipf" in html
    assert "&lt;b&gt;web&lt;/b&gt; site" in html  # a player's words are text, never HTML
    assert 'data-testid="decide-remove"' in html and 'data-testid="decide-add"' in html


def test_removing_from_the_queue_changes_the_live_list_and_the_reporter_sees_it(
    game_data: Dictionary,
) -> None:
    first, bob = reported(game_data)
    client = admin_client()
    page = decide(client, game_data, "SITE", "should_not_count", reports.REMOVE)
    assert "SITE: removed from Test words (3 reports answered)." in page.content.decode()
    game_data.refresh_from_db()
    assert "SITE" not in solver_selectors.dictionary_trie(game_data)
    assert DictionaryWord.objects.get(word="SITE").kind == "excluded"  # undone on its page
    assert [e.word for e in page.context["entries"]] == [NOT_IN_LIST]
    seen = Client()
    assert bob.identity is not None
    seen.cookies[COOKIE_NAME] = cookie_value(bob.identity)
    mine = seen.get(f"/r/{first.room.code}/reports/", {"round": first.number}).json()
    assert [(r["word"], r["outcome"], r["outcome_text"]) for r in mine["reports"]] == [
        ("SITE", "removed", "Removed from the dictionary.")
    ]


def test_adding_and_dismissing_from_the_queue(game_data: Dictionary) -> None:
    reported(game_data)
    client = admin_client()
    decide(client, game_data, NOT_IN_LIST, "is_a_word", reports.ADD)
    game_data.refresh_from_db()
    assert NOT_IN_LIST in solver_selectors.dictionary_trie(game_data)
    digest = game_data.content_hash
    page = decide(client, game_data, "SITE", "should_not_count", reports.DISMISS)
    assert "dismissed; Test words is unchanged" in page.content.decode()
    game_data.refresh_from_db()
    assert game_data.content_hash == digest
    assert 'data-testid="queue-empty"' in page.content.decode()
    assert dict(WordReport.objects.values_list("word", "outcome").distinct()) == {
        "SITE": "dismissed",
        NOT_IN_LIST: "added",
    }


def test_a_decision_that_does_not_fit_is_explained_and_changes_nothing(
    game_data: Dictionary,
) -> None:
    reported(game_data)
    digest = game_data.content_hash
    page = decide(admin_client(), game_data, "SITE", "should_not_count", reports.ADD)
    assert "cannot be answered with “add”" in page.content.decode()
    game_data.refresh_from_db()
    assert game_data.content_hash == digest
    assert set(WordReport.objects.values_list("outcome", flat=True)) == {"pending"}


def test_an_admin_who_may_only_look_sees_the_queue_without_buttons_and_cannot_act(
    game_data: Dictionary,
) -> None:
    reported(game_data)
    client = admin_client(superuser=False, perms=("view_wordreport", "change_wordreport"))
    page = client.get(QUEUE)
    assert page.status_code == 200 and "3 reports from 2 rooms" in page.content.decode()
    assert 'data-testid="decide-remove"' not in page.content.decode()
    refused = client.post(
        DECIDE,
        {"dictionary": game_data.pk, "word": "SITE", "kind": "should_not_count",
         "decision": reports.REMOVE},
    )  # fmt: skip
    assert refused.status_code == 403
    assert set(WordReport.objects.values_list("outcome", flat=True)) == {"pending"}
    assert Client().get(QUEUE).status_code == 302  # not signed in: to the login page


def test_a_report_is_never_edited_or_deleted_one_by_one(game_data: Dictionary) -> None:
    reported(game_data)
    client = admin_client()
    one = WordReport.objects.first()
    assert one is not None
    for path in (f"{QUEUE}{one.pk}/change/", f"{QUEUE}{one.pk}/delete/", f"{QUEUE}add/"):
        assert client.get(path).status_code == 404
    assert WordReport.objects.count() == 4
