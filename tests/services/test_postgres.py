"""With DATABASE_URL on PostgreSQL (always under CI), the suite runs on PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Player, sql

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_suite_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"


def test_postgresql_answers_queries() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 + 1, current_database()")
        total, database = cursor.fetchone()
    assert total == 2
    assert database.startswith("test_")


def test_a_query_of_more_than_65535_parameters_runs() -> None:
    # The ORM binds on the client: bound by the server, PostgreSQL caps a statement's
    # parameters at 65,535, and Django batches none of its deletes or IN lists for it (a
    # cascade deleting 100,000 daily attempts failed so).
    assert Player.objects.filter(pk__in=range(1, 70_001)).count() == 0


def test_no_statement_is_prepared_on_the_server() -> None:
    # Every statement, the hand-written ones too, is bound by psycopg on the client: a pooler
    # in transaction mode between the workers and PostgreSQL keeps no state of a session's.
    statement = f"SELECT COUNT(*) FROM {sql.table(Player)} WHERE id = %s"
    for n in range(6):
        assert sql.rows(statement, [n]) == [(0,)]
        assert not Player.objects.filter(pk=n).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM pg_prepared_statements")
        assert cursor.fetchone() == (0,)


def test_a_hand_written_statement_is_logged_with_its_parameters() -> None:
    # The tests that count and read a service's queries (and DEBUG's log) read them so.
    statement = f"SELECT COUNT(*) FROM {sql.table(Player)} WHERE id = %s"
    with CaptureQueriesContext(connection) as queries:
        for n in range(7):
            sql.rows(statement, [n])
    assert [q["sql"] for q in queries] == [statement % n for n in range(7)]
