"""Writes retried when SQLite says the database is locked (issue 9, finding 1)."""

import pytest
from django.db import OperationalError, transaction

from trainer.core.infra import dbretry


def flaky(failures, error="database is locked"):
    calls = []

    @dbretry.retry_on_lock
    def write():
        calls.append(1)
        if len(calls) <= failures:
            raise OperationalError(error)
        return "done"

    return write, calls


@pytest.fixture(autouse=True)
def _no_sleep(monkeypatch):
    monkeypatch.setattr(dbretry.time, "sleep", lambda seconds: None)


def test_a_locked_write_is_run_again():
    write, calls = flaky(2)

    assert write() == "done"
    assert len(calls) == 3


def test_it_gives_up_after_a_few_tries():
    write, calls = flaky(99)

    with pytest.raises(OperationalError):
        write()
    assert len(calls) == dbretry.ATTEMPTS


def test_other_database_errors_are_not_retried():
    write, calls = flaky(1, error="no such table: trainer_attempt")

    with pytest.raises(OperationalError):
        write()
    assert len(calls) == 1


@pytest.mark.django_db
def test_inside_another_transaction_the_error_goes_to_its_owner():
    write, calls = flaky(1)

    with pytest.raises(OperationalError), transaction.atomic():
        write()
    assert len(calls) == 1


@pytest.mark.django_db
def test_the_attempt_service_is_retried_whole(monkeypatch):
    import uuid

    from engine.drills import DrillParams, make_drill, parse_answer
    from tests.trainer import factories as f
    from trainer.progress import services
    from trainer.progress.models import Attempt

    me = f.user()
    drill = make_drill("checklist", 5, DrillParams())
    answer = parse_answer(drill, {"option": f.right_option(drill)})
    real_create = Attempt.objects.create
    failures = []

    def locked_once(**kwargs):
        if not failures:
            failures.append(1)
            raise OperationalError("database is locked")
        return real_create(**kwargs)

    monkeypatch.setattr(Attempt.objects, "create", locked_once)
    # The test itself runs in a transaction; the service is the outermost block in a request.
    monkeypatch.setattr(dbretry, "connection", type("C", (), {"in_atomic_block": False})())

    recorded = services.attempt_record(
        user=me,
        drill=drill,
        answer=answer,
        showing=services.Showing(uuid.uuid4(), 0),
    )
    created = recorded.created

    assert created and failures == [1]
    assert Attempt.objects.filter(user=me).count() == 1
    assert me.skill_states.get().attempts == 1
