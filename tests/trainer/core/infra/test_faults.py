"""Faults (issue 9, findings 4 and 5): a database outage is a styled 503 logged once per outage
(and once when it ends), /healthz tells the truth, a read-only database still serves reads, and
a re-posted answer never shows a grade other than the stored one."""

import logging
import re

import pytest
from django.db import OperationalError, connection
from django.test import Client, RequestFactory

from engine.drills import DrillParams, make_drill
from tests.trainer import factories as f
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def database_down(execute, sql, params, many, context):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')


def read_only(execute, sql, params, many, context):
    if WRITES.match(sql):
        raise OperationalError("attempt to write a readonly database")
    return execute(sql, params, many, context)


@pytest.fixture
def lenient():
    return Client(raise_request_exception=False)


def test_healthz_is_ok_when_database_and_cache_answer(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.text == "ok"


def test_healthz_is_503_when_the_database_is_down(client):
    with connection.execute_wrapper(database_down):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert "database: down" in response.text


def test_healthz_is_200_saying_so_when_only_the_cache_is_down(client, monkeypatch):
    """The site works without its cache (sessions from the database): the load balancer must
    keep the server, and whoever reads the body sees what is wrong."""
    from django.core.cache import cache

    def broken(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(cache, "set", broken)

    response = client.get("/healthz")

    assert response.status_code == 200
    assert "cache: down" in response.text and "database: ok" in response.text


def test_an_outage_is_a_styled_503_page_with_no_session_error(lenient, caplog):
    lenient.force_login(f.user())

    with caplog.at_level(logging.ERROR), connection.execute_wrapper(database_down):
        response = lenient.get("/progress/")

    assert response.status_code == 503
    assert "Back in a moment" in response.text
    assert "site.css" in response.text  # the site's own layout, not a bare error
    assert response["Retry-After"]
    messages = [r.getMessage() + str(r.exc_info or "") for r in caplog.records]
    assert not any("Session" in m for m in messages), messages
    assert not any(
        r.name == "django.request" and "Internal Server Error" in r.getMessage()
        for r in caplog.records
    )


def test_an_outage_while_answering_is_a_503(lenient):
    lenient.force_login(f.user())
    page = lenient.get("/drills/checklist/5/?v=2")
    showing = re.search(r'name="showing" value="([^"]+)"', page.text)[1]
    drill = make_drill("checklist", 5, DrillParams())

    with connection.execute_wrapper(database_down):
        response = lenient.post(
            "/drills/checklist/5/?v=2", {"showing": showing, "option": f.right_option(drill)}
        )

    assert response.status_code == 503


def test_the_500_handler_turns_a_late_database_error_into_a_503():
    from trainer.core.web.errors import server_error

    request = RequestFactory().get("/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = server_error(request)

    assert response.status_code == 503
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(request).status_code == 500


def test_a_read_only_database_still_serves_reads(lenient):
    me = f.user()
    f.answer(me)
    lenient.force_login(me)

    with connection.execute_wrapper(read_only):
        pages = {
            url: lenient.get(url).status_code
            for url in ("/", "/drills/", "/drills/checklist/5/?v=2", "/progress/", "/learn/")
        }

    assert set(pages.values()) == {200}, pages


def test_a_write_to_a_read_only_database_is_a_clean_503(lenient):
    lenient.force_login(f.user())
    page = lenient.get("/drills/checklist/5/?v=2")
    showing = re.search(r'name="showing" value="([^"]+)"', page.text)[1]
    drill = make_drill("checklist", 5, DrillParams())

    with connection.execute_wrapper(read_only):
        response = lenient.post(
            "/drills/checklist/5/?v=2", {"showing": showing, "option": f.right_option(drill)}
        )

    assert response.status_code == 503


def test_reposting_a_showing_with_another_answer_shows_the_stored_grade(client):
    client.force_login(f.user())
    drill = make_drill("checklist", 5, DrillParams())
    page = client.get("/drills/checklist/5/?v=2")
    showing = re.search(r'name="showing" value="([^"]+)"', page.text)[1]

    first = client.post(
        "/drills/checklist/5/?v=2", {"showing": showing, "option": f.right_option(drill)}
    )
    second = client.post(
        "/drills/checklist/5/?v=2", {"showing": showing, "option": f.wrong_option(drill)}
    )

    assert "Right." in first.text
    assert Attempt.objects.count() == 1
    stored = Attempt.objects.get()
    assert stored.correct and stored.answer == f.right_option(drill)
    assert second.status_code == 200
    assert "Right." in second.text and "Not quite" not in second.text
    assert "your first answer is the one that counts" in second.text


# --- logged once per outage (security audit: 10,800 records, 21,500 tracebacks in 30 s) ------

OUTAGE_PAGES = ["/progress/", "/", "/drills/", "/learn/", "/healthz", "/settings/"]


def _outage_records(caplog):
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_database_outage_is_one_line_per_process_and_its_end_one_more(caplog, monkeypatch):
    from trainer.core.infra import outage

    monkeypatch.setattr(outage.database, "settle_seconds", 0)
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(f.user())  # its session is read by a middleware: fails outside views
    visitor = Client(raise_request_exception=False)  # fails in the views

    with caplog.at_level(logging.INFO), connection.execute_wrapper(database_down):
        signed_in_statuses = {
            signed_in.get(url).status_code for _ in range(5) for url in OUTAGE_PAGES
        }
        signed_in_statuses.add(signed_in.post("/settings/goal/", {"per_day": "12"}).status_code)
        visitor_statuses = {visitor.get(url).status_code for _ in range(5) for url in OUTAGE_PAGES}

    assert signed_in_statuses == {503}
    assert 503 in visitor_statuses and max(visitor_statuses - {503}) < 500
    records = _outage_records(caplog)
    assert [r.name for r in records] == ["trainer.outage"], [r.getMessage() for r in records]
    line = records[0].getMessage()
    assert line.startswith("The database is unavailable (OperationalError: connection to")
    assert "\n" not in line and records[0].exc_info is None
    assert not any(r.exc_info for r in caplog.records)

    caplog.clear()
    with caplog.at_level(logging.INFO):
        assert signed_in.get("/progress/").status_code == 200
        assert signed_in.get("/progress/").status_code == 200

    (back,) = _outage_records(caplog)
    assert back.name == "trainer.outage"
    assert back.getMessage().startswith("The database is back after ")
    assert re.search(r"\d\d failures were not logged", back.getMessage())


def test_the_next_outage_is_logged_again(caplog, monkeypatch):
    from trainer.core.infra import outage

    monkeypatch.setattr(outage.database, "settle_seconds", 0)
    visitor = Client(raise_request_exception=False)

    with caplog.at_level(logging.INFO):
        for _ in range(2):
            with connection.execute_wrapper(database_down):
                visitor.get("/learn/")
                visitor.get("/learn/")
            visitor.get("/learn/")

    messages = [r.getMessage() for r in _outage_records(caplog)]
    assert [m[:27] for m in messages] == [
        "The database is unavailable",
        "The database is back after ",
    ] * 2, messages
    assert "2 failures were not logged" in messages[1]


def test_a_flapping_dependency_logs_one_outage_until_it_stays_up():
    from trainer.core.infra.outage import Dependency

    now = [0.0]
    thing = Dependency(
        "cache", meanwhile="x", settle_seconds=5, retry_seconds=2, clock=lambda: now[0]
    )
    with_records = []
    handler = logging.Handler()
    handler.emit = with_records.append
    logger = logging.getLogger("trainer.outage")
    logger.addHandler(handler)
    try:
        thing.failed(ConnectionError("refused"))
        assert not thing.usable()
        now[0] = 1
        thing.answered()  # too soon after the failure: still down
        now[0] = 2
        assert thing.usable()  # time to try again
        thing.failed(ConnectionError("refused"))
        now[0] = 8
        thing.answered()
    finally:
        logger.removeHandler(handler)

    assert [r.levelname for r in with_records] == ["ERROR", "WARNING"]
    assert "back after 8 s; 2 failures were not logged" in with_records[1].getMessage()
    assert thing.usable() and not thing.is_down
