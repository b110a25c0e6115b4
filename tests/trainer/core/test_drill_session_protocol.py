"""One DrillSession protocol: every feature's "go on" address opens its own session (a path
step, an assignment, today's review, a practice set), nobody opens another learner's, and a
session's end is a whole page."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf
from trainer.classes.drill_sessions import AssignmentSession
from trainer.clubs.drill_sessions import StepSession
from trainer.core.drill_sessions import Next, PracticeSet, go_on, session_for
from trainer.drills.drill_sessions import PracticeSession, summary_url
from trainer.progress.drill_sessions import ReviewSession

pytestmark = pytest.mark.django_db


def _request(user, path: str = "/"):
    request = RequestFactory().get(path)
    request.user = user
    request.session = {}
    return request


def test_each_features_go_on_address_opens_its_own_session():
    clf.load_step(1)
    room = cf.classroom()
    student = cf.student_in(room)
    assignment = cf.built(room, title="Homework", count=1)
    practice = PracticeSet("Set", "/learn/", "Back", "read").start(first_seed=5, key="v=2")
    practice_next = summary_url(practice)
    request = _request(student)
    found = {
        "/start/1/next/?after=2": StepSession,
        f"/classes/assignments/{assignment.pk}/next/": AssignmentSession,
        reverse("review"): ReviewSession,
        practice_next: PracticeSession,
    }
    for url, kind in found.items():
        session = session_for(request, url)
        assert isinstance(session, kind), url
        assert isinstance(session.next_drill(None), Next)
        assert session.frame(None).total >= 1
        assert session.summary_url().startswith("/")


def test_no_session_for_a_visitor_a_foreign_address_or_another_class_assignment():
    room = cf.classroom()
    assignment = cf.built(room, title="Homework", count=1)
    outsider = f.user("outsider")
    from django.contrib.auth.models import AnonymousUser

    assert session_for(_request(AnonymousUser()), reverse("review")) is None
    assert session_for(_request(outsider), "/no/such/page/") is None
    assert session_for(_request(outsider), "https://example.com/start/1/next/") is None
    assert session_for(_request(outsider), f"/classes/assignments/{assignment.pk}/next/") is None


def test_an_ended_session_is_a_whole_page_with_its_line():
    class Over:
        def next_drill(self, after):
            return Next("/done/", ended=True, message="All done.", passed=True)

    request = _request(f.user("ender"), "/go/")
    request.META["HTTP_HX_REQUEST"] = "true"
    request.htmx = HtmxDetails(request)
    from django.contrib.messages.storage.fallback import FallbackStorage

    request._messages = FallbackStorage(request)
    response = go_on(request, Over(), 3)  # type: ignore[arg-type]
    assert response.status_code == 204 and response["HX-Redirect"] == "/done/"
    assert [str(m) for m in request._messages] == ["All done."]
