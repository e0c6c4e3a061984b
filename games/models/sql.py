"""Plain SQL for the few statements the ORM cannot say in one (an UPDATE … RETURNING, an
INSERT … SELECT under a limit, a batch of inserts), through Django's own cursor, with every
table and column named from the models: one convention, so a renamed field or table breaks
no statement written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Field, Model


def on_postgresql() -> bool:
    """Return whether the database is PostgreSQL (else SQLite, the embedded default). Read
    from the settings, not `connection.vendor`: in an event loop `connection` is a per-task
    object, and asking it made a database wrapper for every socket (2 KiB each)."""
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def table(model: type[Model]) -> str:
    """Return a model's table, quoted for the database in use."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], field: str) -> str:
    """Return the column of a model's field (by the field's name), quoted."""
    found = model._meta.get_field(field)
    assert isinstance(found, Field), f"{model.__name__}.{field} has no column"
    return connection.ops.quote_name(found.column)


def columns(model: type[Model], *fields: str) -> str:
    """Return the columns of these fields of a model, quoted and joined by commas."""
    return ", ".join(column(model, field) for field in fields)


def rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return every row a statement reads (or, with RETURNING, writes)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run a statement that returns no rows; return how many rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def execute_many(sql: str, params: Sequence[Sequence[Any]]) -> None:
    """Run one statement for each set of parameters, in one batch."""
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
