"""With DATABASE_URL on PostgreSQL (always under CI), the suite runs on PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Player
from games.models import sql as sql_rows

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


def test_the_hand_written_statements_are_bound_and_prepared_by_the_server() -> None:
    sql = f"SELECT COUNT(*) FROM {sql_rows.table(Player)} WHERE id = %s"
    for n in range(6):  # psycopg prepares a statement on its fifth run on a connection
        assert sql_rows.rows(sql, [n]) == [(0,)]
        assert not Player.objects.filter(pk=n).exists()  # the ORM's: bound here, never prepared
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert prepared == [sql.replace("%s", "$1")]


def test_a_prepared_hand_written_statement_is_logged_with_its_parameters() -> None:
    # Read back from psycopg, a prepared statement has no text: the tests that count and read
    # a service's queries (and DEBUG's log) would get None from its sixth run on.
    sql = f"SELECT COUNT(*) FROM {sql_rows.table(Player)} WHERE id = %s"
    with CaptureQueriesContext(connection) as queries:
        for n in range(7):
            sql_rows.rows(sql, [n])
    assert [q["sql"] for q in queries] == [sql % n for n in range(7)]
