"""A query that a socket runs on every frame, its SQL built by Django's ORM once per
thread and database instead of once per call.

Building and compiling a queryset costs far more CPU than its round trip (the seat's
rights: several subqueries and joins). The queryset is built once from stand-in values
(`Stand`), compiled, and each stand-in's place among the parameters noted; a call binds
its own values in those places and runs the very same SQL, and reads its rows as the
ORM would (its converters; model instances as `ModelIterable` makes them).
"""

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.sql import UpdateQuery


@dataclass(frozen=True)
class Stand:
    """A value no call passes (an unlikely negative id, text or instant): where the
    compiled parameters hold it, a call's own value goes."""

    value: Any


#: Stand-ins for ids, a text and an instant (each argument of a query its own).
STAND_ID = Stand(-982_451_653)
STAND_OTHER_ID = Stand(-982_451_654)
STAND_THIRD_ID = Stand(-982_451_655)
STAND_TEXT = Stand("\x00stand-in\x00")
STAND_OTHER_TEXT = Stand("\x00other stand-in\x00")
STAND_NOW = Stand(datetime(1901, 2, 3, 4, 5, 6, 789, tzinfo=UTC))


class _Bound:
    """One thread's compilation on one database: the SQL, where each argument goes in
    its parameters, and what the ORM needs to read its rows."""

    def __init__(
        self, build: Callable[..., QuerySet | UpdateQuery], stands: tuple[Stand, ...], alias: str
    ):
        self.stands = stands
        built = build(*(s.value for s in stands))
        query = built if isinstance(built, UpdateQuery) else built.query
        if isinstance(query, UpdateQuery) and query.get_related_updates():
            raise ValueError("an update of one table only")
        self.connection = connections[alias]
        self.compiler = query.get_compiler(using=alias)
        self.sql, params = self.compiler.as_sql()
        assert query.model is not None
        self.model: type[Model] = query.model
        self.alias = alias
        adapt = self.connection.ops.adapt_datetimefield_value
        #: Per parameter: (argument index, whether an instant adapted as a datetime
        #: column's value is) or the constant itself.
        self.slots: list[tuple[int, bool] | tuple[None, Any]] = []
        found = set()
        for value in params:
            slot: tuple[int, bool] | tuple[None, Any] = (None, value)
            for i, stand in enumerate(stands):
                if type(value) is type(stand.value) and value == stand.value:
                    slot = (i, False)
                elif isinstance(stand.value, datetime) and value == adapt(stand.value):
                    slot = (i, True)
                else:
                    continue
                found.add(i)
                break
            self.slots.append(slot)
        if found != set(range(len(stands))):
            raise ValueError("a stand-in is not among the compiled query's parameters")

    def params(self, args: tuple[Any, ...]) -> list[Any]:
        if None in args:
            # The SQL was compiled for values: the ORM would have written `IS NULL` for
            # None, and `= NULL` here would match nothing, silently.
            raise ValueError(f"a compiled query's argument {args.index(None)} is None")
        adapt = self.connection.ops.adapt_datetimefield_value
        bound = []
        for index, value in self.slots:
            if index is None:
                bound.append(value)
            else:
                bound.append(adapt(args[index]) if value else args[index])
        return bound

    def execute(self, args: tuple[Any, ...]) -> int:
        """Runs an update; the number of rows it changed."""
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, self.params(args))
            return cursor.rowcount

    def rows(self, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows, their values converted as the ORM converts them."""
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, self.params(args))
            fetched = cursor.fetchall()
        return list(self.compiler.results_iter(results=[fetched], tuple_expected=True))

    def instances(self, args: tuple[Any, ...]) -> list[Model]:
        """The rows as model instances with their annotations, as `ModelIterable` makes
        them (deferred fields stay deferred)."""
        return self.made(self.rows(args))

    def made(self, rows: list[tuple[Any, ...]]) -> list[Model]:
        select = self.compiler.select
        fields = self.compiler.klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        made = []
        for row in rows:
            instance = self.model.from_db(self.alias, names, row[start:end])
            for name, position in self.compiler.annotation_col_map.items():
                setattr(instance, name, row[position])
            made.append(instance)
        return made

    def each_sql(self, calls: Sequence[tuple[Any, ...]]) -> tuple[str, list[Any]]:
        """One statement for many calls (PostgreSQL): the calls' arguments as the rows of
        `unnest` over one array per argument, and the compiled query run for each of them
        (`LATERAL`), where each argument's stand-in was; each row led by its call's
        number (from 1)."""
        if self.connection.vendor != "postgresql":
            raise NotImplementedError("one statement for many calls needs PostgreSQL")
        for args in calls:
            self.params(args)  # refuses None, as one call does
        slots = iter(self.slots)
        inner: list[Any] = []

        def argument(placeholder: re.Match) -> str:
            if placeholder.group() == "%%":
                return "%%"
            index, value = next(slots)
            if index is None:
                inner.append(value)
                return "%s"
            return f'"arguments"."a{index}"'

        sql = re.sub(r"%%|%s", argument, self.sql)
        arrays = ", ".join(f"%s::{_ARRAY_TYPES[type(s.value)]}[]" for s in self.stands)
        columns = ", ".join(f"a{i}" for i in range(len(self.stands)))
        each = [[args[i] for args in calls] for i in range(len(self.stands))]
        return (
            f'SELECT "arguments"."call", "called".* FROM unnest({arrays}) WITH ORDINALITY'
            f' AS "arguments"({columns}, "call") CROSS JOIN LATERAL ({sql}) AS "called"',
            [*each, *inner],
        )

    def rows_for_each(self, calls: Sequence[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
        """Each call's rows (as `rows` reads them), read in one statement (`each_sql`)."""
        sql, params = self.each_sql(calls)
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        found: list[list[tuple[Any, ...]]] = [[] for _ in calls]
        converted = self.compiler.results_iter(
            results=[[row[1:] for row in fetched]], tuple_expected=True
        )
        for row, values in zip(fetched, converted, strict=True):
            found[row[0] - 1].append(values)
        return found


#: The PostgreSQL type of an array of each kind of stand-in's values (`each_sql`).
_ARRAY_TYPES = {int: "bigint", str: "text", datetime: "timestamptz"}


def update_query(queryset: QuerySet, **values: Any) -> UpdateQuery:
    """The query `queryset.update(**values)` runs (as `QuerySet.update` makes it), unrun."""
    query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
    query.add_update_values(values)
    query.clear_select_clause()
    return query


class CompiledQuery:
    """`build(*arguments)`'s queryset (or update: `update_query`), compiled once per
    thread and database; each argument is given a stand-in (`stands`) that the compiled
    parameters must hold."""

    def __init__(self, build: Callable[..., QuerySet | UpdateQuery], *stands: Stand) -> None:
        if len({(type(s.value), s.value) for s in stands}) != len(stands):
            raise ValueError("each argument needs a stand-in of its own")
        self.build = build
        self.stands = stands
        self._local = threading.local()

    def bound(self, alias: str = DEFAULT_DB_ALIAS) -> _Bound:
        cache: dict[str, _Bound] = self._local.__dict__.setdefault("by_alias", {})
        if alias not in cache:
            cache[alias] = _Bound(self.build, self.stands, alias)
        return cache[alias]

    def sql_with_params(self, *args: Any) -> tuple[str, list[Any]]:
        """The SQL and its parameters for `args` (as `query.sql_with_params()`)."""
        bound = self.bound()
        return bound.sql, bound.params(args)

    def named_sql_with_params(self, prefix: str, *args: Any) -> tuple[str, dict[str, Any]]:
        """The SQL and its parameters for `args`, the parameters named (`%(<prefix><n>)s`),
        so that the query can sit in a statement of named parameters (one_trip.py)."""
        sql, params = self.sql_with_params(*args)
        values = iter(params)
        named: dict[str, Any] = {}

        def name(placeholder: re.Match) -> str:
            if placeholder.group() == "%%":
                return "%%"
            key = f"{prefix}{len(named)}"
            named[key] = next(values)
            return f"%({key})s"

        return re.sub(r"%%|%s", name, sql), named

    def rows(self, *args: Any) -> list[tuple[Any, ...]]:
        return self.bound().rows(args)

    def execute(self, *args: Any) -> int:
        """Runs the update; the number of rows it changed."""
        return self.bound().execute(args)

    def first(self, *args: Any) -> Model | None:
        """The first model instance (of a query of at most one row), or None."""
        found = self.bound().instances(args)
        return found[0] if found else None

    def first_for_each(self, calls: Sequence[tuple[Any, ...]]) -> list[Model | None]:
        """`first(*args)` of each of `calls`, read in one statement (PostgreSQL only)."""
        bound = self.bound()
        return [
            found[0] if found else None
            for found in (bound.made(rows) for rows in bound.rows_for_each(calls))
        ]
