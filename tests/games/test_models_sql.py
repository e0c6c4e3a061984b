"""The few plain-SQL statements name their tables and columns from the models (games/models/
sql.py): one convention, and the same rows as the ORM reads."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Player, Room, Submission, sql

pytestmark = pytest.mark.django_db


def test_tables_and_columns_are_the_models_own_quoted() -> None:
    quote = connection.ops.quote_name
    assert sql.table(Room) == quote(Room._meta.db_table)
    assert sql.column(Player, "room") == quote("room_id")  # a foreign key's column
    assert sql.columns(Submission, "word", "points") == f"{quote('word')}, {quote('points')}"


def test_a_field_without_a_column_is_refused() -> None:
    with pytest.raises(AssertionError, match="has no column"):
        sql.column(Room, "players")  # the reverse side of Player.room


def test_a_statement_reads_what_the_orm_wrote() -> None:
    room = Room.objects.create(code="SQLTST", settings={})
    statement = f"SELECT {sql.columns(Room, 'code', 'seq')} FROM {sql.table(Room)} WHERE id = %s"
    assert sql.rows(statement, [room.pk]) == [("SQLTST", 0)]
    changed = sql.execute(
        f"UPDATE {sql.table(Room)} SET {sql.column(Room, 'seq')} = 7 WHERE id = %s", [room.pk]
    )
    assert changed == 1
    room.refresh_from_db()
    assert room.seq == 7
