"""A queryset compiled once per connection returns what the queryset itself returns."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models.sql.compiler import SQLCompiler

from engine.seats import SEATS, Seat
from tests.trainer.play.test_live import SETTINGS
from trainer.core.compiled import Compiled
from trainer.play import live
from trainer.play.models import LiveSeat, LiveTable

pytestmark = pytest.mark.django_db

#: The compiled reads a move makes (the live tables' own).
TABLE_WITH_GAME, SEATS_WITH_PEOPLE = live._TABLE_WITH_GAME, live._SEATS_WITH_PEOPLE


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _dealt(south: str, north: str) -> LiveTable:
    users = get_user_model().objects
    s, n = users.create_user(south), users.create_user(north)
    table = live.live_table_open(host=s, settings=SETTINGS, seat=Seat.S, opponents_link=False)
    live.live_seat_take(pk=table.pk, user=n, seat=Seat.N, allowed=SEATS)
    return live.live_begin(pk=table.pk, by=s)


def test_the_rows_and_related_rows_are_the_querysets():
    first, second = _dealt("ana", "bo"), _dealt("cy", "di")
    waiting = live.live_table_open(
        host=get_user_model().objects.create_user("eve"),
        settings=SETTINGS,
        seat=Seat.S,
        opponents_link=False,
    )
    with transaction.atomic():
        for table in (first, second, waiting):
            orm = list(
                LiveTable.objects.select_for_update()
                .select_related("game")
                .filter(pk=table.pk, game__isnull=False)
            )
            fast = TABLE_WITH_GAME(pk=table.pk)
            assert [_fields(t) for t in fast] == [_fields(t) for t in orm]
            assert [_fields(t.game) for t in fast] == [_fields(t.game) for t in orm]
            # The related rows came with the query (not read again when used).
            assert all(LiveTable._meta.get_field("game").is_cached(t) for t in fast)
            if fast:
                assert isinstance(fast[0].game.setup, dict)  # (JSON read back, not text)
                assert fast[0].game.created_at.tzinfo is not None

            orm_seats = sorted(table.seats.select_related("user"), key=lambda s: s.seat)
            fast_seats = sorted(SEATS_WITH_PEOPLE(table=table.pk), key=lambda s: s.seat)
            assert [_fields(s) for s in fast_seats] == [_fields(s) for s in orm_seats]
            assert all(LiveSeat._meta.get_field("user").is_cached(s) for s in fast_seats)
            assert [_fields(s.user) for s in fast_seats] == [_fields(s.user) for s in orm_seats]
    assert TABLE_WITH_GAME(pk=waiting.pk) == []  # (no game: the inner join finds nothing)
    assert TABLE_WITH_GAME(pk=10**9) == []


def test_the_sql_is_built_once_per_connection_and_each_call_runs_it():
    tables = [_dealt(f"s{i}", f"n{i}") for i in range(3)]
    compiled = Compiled(lambda pk: LiveTable.objects.filter(pk=pk), "pk")
    built = mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql)
    with built as as_sql:
        found = [compiled(pk=t.pk)[0].pk for t in tables * 2]
    assert found == [t.pk for t in tables * 2]
    assert as_sql.call_count == 1


def test_a_lock_is_in_the_sql_where_the_database_has_locks():
    table = _dealt("ana", "bo")
    with transaction.atomic():
        TABLE_WITH_GAME(pk=table.pk)
    plan = TABLE_WITH_GAME.plan_for(connections[DEFAULT_DB_ALIAS])
    assert plan is not None
    sql = plan.sql
    assert ("FOR UPDATE" in sql) == connection.features.has_select_for_update


def test_a_value_missing_from_the_query_is_refused():
    compiled = Compiled(lambda pk, other: LiveTable.objects.filter(pk=pk), "pk", "other")
    with pytest.raises(ValueError, match="must appear once"):
        compiled(pk=1, other=2)


@pytest.mark.django_db(transaction=True)  # (the other threads read what this one wrote)
def test_a_threads_plans_go_with_its_connection():
    """Connections are per thread (an ASGI server serves each request in a thread of its
    own): when the thread ends, its connection and the plans built on it are freed, not
    kept alive by the plans."""
    import gc
    import threading
    import weakref

    table = _dealt("ana", "bo")
    left: list[weakref.ref[Any]] = []

    def read() -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        try:
            SEATS_WITH_PEOPLE(table=table.pk)
            assert SEATS_WITH_PEOPLE.plan_for(connection) is not None
            left.append(weakref.ref(connection))
        finally:
            connection.close()

    for _ in range(3):
        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
    gc.collect()
    assert len(left) == 3 and all(ref() is None for ref in left)
