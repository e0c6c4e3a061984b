"""Model rows read and written by hand-written SQL, for the few statements every socket's
arrival, every daily start and every round's end makes.

Building a query through the ORM (cloning the queryset, resolving its lookups, compiling it)
cost a socket's arrival three to four times what running the query did: about 1.2 ms of a
worker's CPU for a one-row read against 0.3 ms for the same SQL through Django's cursor, on
a host where a rush of daily starts makes a thousand arrivals a minute (docs/daily.md). The
statements here are written once, from the models' own table and column names, and their
rows become model instances the way the ORM makes them: each value through its field's
database converters (JSON, and on SQLite dates and booleans), then `Model.from_db`.

On PostgreSQL these statements, and these alone, go through a cursor that sends the
parameters apart from the statement (psycopg then quotes nothing in Python) and lets the server
prepare a statement a connection has run five times (psycopg's default threshold): each is
planned once per connection. The ORM keeps psycopg's client-side binding, which Django's
PostgreSQL backend is made for: bound by the server, a query's parameters are capped at
65,535 (a cascade deleting 100,000 attempts failed with it) and parameters repeated in a
SELECT and its GROUP BY are no longer seen as the same (Django ticket #34255).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import ForeignKey, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Columns:
    """The columns of one model a statement selects, under an alias, and how a row's values
    of them become an instance."""

    model: type[Model]
    attnames: tuple[str, ...]
    select: str  # "alias"."column", ... in attnames' order
    converters: tuple[tuple[tuple[Converter, ...], Any], ...]  # per column: converters, col

    def __len__(self) -> int:
        return len(self.attnames)

    def converted(self, values: Sequence[Any]) -> list[Any]:
        """Return a row's values of these columns as the ORM gives them (each through its
        field's database converters)."""
        conn = _db()
        out = []
        for value, (converters, col) in zip(values, self.converters, strict=True):
            for convert in converters:
                value = convert(value, col, conn)
            out.append(value)
        return out

    def instance(self, values: Sequence[Any]) -> Any:
        """Return the model instance a row's values of these columns make, as the ORM would
        (a column left out is deferred: read on first use)."""
        return self.model.from_db(DEFAULT_DB_ALIAS, list(self.attnames), self.converted(values))


def _db() -> Any:
    """Return this thread's connection itself, not the proxy (an attribute lookup a value)."""
    return connections[DEFAULT_DB_ALIAS]


@lru_cache(maxsize=64)
def _columns(
    model: type[Model], alias: str, skip: tuple[str, ...], vendor: str, conn_alias: str
) -> Columns:
    fields = [f for f in model._meta.concrete_fields if f.name not in skip]
    quote = connection.ops.quote_name
    converters = []
    for field in fields:
        col = field.get_col(alias)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        converters.append((tuple(found), col))
    return Columns(
        model=model,
        attnames=tuple(f.attname for f in fields),
        select=", ".join(f"{quote(alias)}.{quote(f.column)}" for f in fields),
        converters=tuple(converters),
    )


def columns(
    model: type[Model], alias: str, *, skip: Sequence[str] = (), only: Sequence[str] = ()
) -> Columns:
    """Return a model's columns (less the fields named in `skip`; or, given `only`, those
    fields alone, in the model's order) as selected under `alias`, for the database in use."""
    if only:
        skip = tuple(f.name for f in model._meta.concrete_fields if f.name not in only)
    return _columns(model, alias, tuple(skip), connection.vendor, connection.alias)


def table(model: type[Model], alias: str | None = None) -> str:
    """Return a model's table name, quoted for the database in use (with an alias, for a
    FROM or JOIN clause: the alias `columns` selected under)."""
    quote = connection.ops.quote_name
    name = quote(model._meta.db_table)
    return name if alias is None else f"{name} {quote(alias)}"


class _LoggedCursor(CursorDebugWrapper):
    """Django's wrapper of a cursor whose queries are logged (DEBUG, or a test counting them),
    for a server-binding cursor: the statement is logged with its parameters in place, as
    Django logs a client-bound one. Read back from psycopg, a prepared statement has no text."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return CursorWrapper.execute(self, sql, params)


def _cursor(conn: Any) -> Any:
    """Return a cursor of `conn` (this thread's connection) for these statements: on
    PostgreSQL one binding its parameters on the server (see the module's docstring), wrapped
    as Django wraps its own (errors as Django's, queries counted and logged as any other)."""
    if conn.vendor != "postgresql":
        return conn.cursor()
    conn.close_if_health_check_failed()
    conn.ensure_connection()
    conn.validate_thread_sharing()
    with conn.wrap_database_errors:
        raw = psycopg.Cursor(conn.connection)  # psycopg's own class: it binds on the server
    return _LoggedCursor(raw, conn) if conn.queries_logged else conn.make_cursor(raw)


def rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return every row a statement reads (or, with RETURNING, writes)."""
    with _cursor(_db()) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run a statement that returns no rows; return how many rows it changed."""
    with _cursor(_db()) as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def instances(cols: Columns, sql: str, params: Sequence[Any]) -> list[Any]:
    """Return the instances a statement selecting `cols.select` (alone) reads, in its order."""
    return [cols.instance(row) for row in rows(sql, params)]


def first(cols: Columns, sql: str, params: Sequence[Any]) -> Any | None:
    """Return the instance of the first row a statement like `instances`' reads, or None."""
    found = instances(cols, sql, params)
    return found[0] if found else None


def values(cols: Columns, row: Sequence[Any]) -> dict[str, Any]:
    """Return a row's values of `cols` as the ORM's .values() gives them (converted)."""
    return dict(zip(cols.attnames, cols.converted(row), strict=True))


def first_with(
    model: type[Model], relation: str, where: str, params: Sequence[Any], *, order: str = ""
) -> Any | None:
    """Return the first instance (in `order`, if given) of `model`, aliased `c`, that the
    condition finds, with the instance its foreign key `relation` names, aliased `p`, read in
    the same statement (as `select_related` would give it); None if none is found."""
    field = model._meta.get_field(relation)
    assert isinstance(field, ForeignKey)
    parent = field.related_model
    assert isinstance(parent, type) and issubclass(parent, Model)
    child_cols, parent_cols = columns(model, "c"), columns(parent, "p")
    quote = connection.ops.quote_name
    assert parent._meta.pk is not None
    found = rows(
        f"SELECT {child_cols.select}, {parent_cols.select} FROM {table(model, 'c')} "
        f"JOIN {table(parent, 'p')} ON p.{quote(parent._meta.pk.column)} = "
        f"c.{quote(field.column)} WHERE {where}"
        + (f" ORDER BY {order}" if order else "")
        + " LIMIT 1",
        params,
    )
    if not found:
        return None
    (row,) = found
    obj = child_cols.instance(row[: len(child_cols)])
    setattr(obj, relation, parent_cols.instance(row[len(child_cols) :]))
    return obj


@lru_cache(maxsize=64)
def _insert_sql(model: type[Model], vendor: str, conn_alias: str) -> tuple[str, tuple[Any, ...]]:
    quote = connection.ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    pk = model._meta.pk
    assert pk is not None
    sql = (
        f"INSERT INTO {table(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(pk.column)}"
    )
    return sql, fields


def insert(obj: M) -> M:
    """Store a new instance in one statement, as `Model.save()` would store it (each field's
    value prepared for the database, auto_now_add times set) and return it with its id; no
    signals are sent (none of these models has a save signal)."""
    if type(obj).save is not Model.save:
        raise TypeError(f"{type(obj).__name__} has a save() of its own: use it")
    sql, fields = _insert_sql(type(obj), connection.vendor, connection.alias)
    conn = _db()
    params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields]
    with _cursor(conn) as cursor:
        cursor.execute(sql, params)
        (obj.pk,) = cursor.fetchone()
    obj._state.adding = False
    obj._state.db = conn.alias
    return obj
