"""With DATABASE_URL on PostgreSQL (always under CI), the suite runs on PostgreSQL."""

import pytest
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_suite_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"


def test_postgresql_answers_queries() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 + 1, current_database()")
        total, database = cursor.fetchone()
    assert total == 2
    assert database.startswith("test_")
