"""Querysets of one fixed shape whose SQL is built once per database connection.

Building a queryset's SQL (the select list, the joins, ``select_related``, ``FOR UPDATE``)
costs Django far more than running it: about 0.8 ms of CPU for a table read with its game
and locked, against a tenth of that to execute it and build the two instances. On a path
that runs for every move at a live table that is most of the move. :class:`Compiled` builds
the SQL the first time, with stand-in values for the parameters, and afterwards only binds
the new values and builds the instances as Django's own iterator does (the same converters,
``from_db`` and ``select_related`` population), so the rows and objects are the queryset's.
The plans live on the connection (connections are per thread), so a thread's plans and its
connection are freed together.

Only for querysets whose shape never changes between calls (the same filters and options,
only the values differ); the values are named and must be integers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models import query as _query

M = TypeVar("M", bound=Model)

#: Django's own builder of the ``select_related`` populators (as its model iterator uses; the
#: stubs describe a later Django's signature).
_related_populators: Callable[[Any, Any, str], list[Any]] = _query.get_related_populators  # type: ignore[assignment]

#: Stand-ins for the named values while the SQL is built (found again among its parameters).
_STAND_IN = -7_300_000_000_000
#: Where a database connection (Django's per-thread wrapper) keeps its plans.
_PLANS = "_concerto_compiled_plans"


@dataclass(frozen=True)
class _Plan:
    sql: str
    #: Each parameter: the name of a value to bind, or a constant of the queryset.
    params: tuple[tuple[str | None, Any], ...]
    compiler: Any
    model: type[Model]
    init_list: tuple[str, ...]
    start: int
    end: int
    populators: tuple[Any, ...]


class Compiled(Generic[M]):
    """``Compiled(lambda pk: Model.objects.filter(pk=pk), "pk")``, then ``compiled(pk=3)``:
    the queryset's model instances, a list."""

    def __init__(self, build: Callable[..., QuerySet[M]], *names: str) -> None:
        self._build = build
        self._names = names

    def _plan(self, alias: str) -> _Plan:
        stand_ins = {name: _STAND_IN - i for i, name in enumerate(self._names)}
        names = {value: name for name, value in stand_ins.items()}
        compiler = self._build(**stand_ins).query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        bound = tuple(
            (names[p], None) if isinstance(p, int) and p in names else (None, p) for p in params
        )
        if sorted(n for n, _ in bound if n is not None) != sorted(self._names):
            raise ValueError(f"each of {self._names} must appear once in the query's parameters")
        if compiler.has_extra_select or compiler.annotation_col_map:
            raise ValueError("extra columns and annotations are not supported")
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Plan(
            sql=sql,
            params=bound,
            compiler=compiler,
            model=klass_info["model"],
            init_list=tuple(f[0].target.attname for f in select[start:end]),
            start=start,
            end=end,
            populators=tuple(_related_populators(klass_info, select, alias)),
        )

    def plan_for(self, connection: Any) -> _Plan | None:
        """The plan built on ``connection`` (a connection wrapper), if any yet."""
        plans: dict[Compiled[Any], _Plan] = connection.__dict__.get(_PLANS, {})
        return plans.get(self)

    def __call__(self, *, using: str = DEFAULT_DB_ALIAS, **values: int) -> list[M]:
        connection = connections[using]
        # Kept on the connection itself (the plan's compiler refers to it): they go together
        # when the thread that owns the connection ends (an ASGI server's request threads).
        plans: dict[Compiled[Any], _Plan] = connection.__dict__.setdefault(_PLANS, {})
        plan = plans.get(self)
        if plan is None:
            plan = plans[self] = self._plan(using)
        params = [values[name] if name is not None else const for name, const in plan.params]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        found: list[M] = []
        for row in plan.compiler.results_iter(results=[rows]):
            obj = plan.model.from_db(using, list(plan.init_list), row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            found.append(obj)  # type: ignore[arg-type]
        return found
