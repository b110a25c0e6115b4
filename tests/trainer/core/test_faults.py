"""Faults (issue 9, findings 4 and 5): a database outage is a styled 503 with one log line,
/healthz tells the truth, a read-only database still serves reads, and a re-posted answer never
shows a grade other than the stored one."""

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
    assert "database" in response.text


def test_healthz_is_503_when_the_cache_is_down(client, monkeypatch):
    from django.core.cache import cache

    def broken(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(cache, "set", broken)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert "cache" in response.text and "database" not in response.text


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
    from trainer.core.errors import server_error

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
