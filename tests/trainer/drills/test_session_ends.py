"""Every session ends on a summary, passed or not: a path step whose drills are all answered
below the pass mark, and an assignment whose drills are all answered."""

import re

import pytest

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf

pytestmark = pytest.mark.django_db


def test_a_step_answered_below_the_pass_mark_ends_on_its_summary(client):
    step = clf.load_step(1)
    who = f.user("solo")
    entries = clf.entries(step)
    for i, entry in enumerate(entries):
        clf.answer_entry(who, entry, correct=i < step.pass_mark - 1)
    client.force_login(who)
    response = client.get(f"/start/1/next/?after={entries[-1].position}")
    assert response.status_code == 302 and response["Location"] == "/start/1/"
    html = client.get("/start/1/").content.decode()
    assert f"pass mark {step.pass_mark}" in html
    assert "Play the drills marked ✗ again to pass" in html
    wrong = re.findall(r'<li class="step-drill step-drill-wrong">.*?<a href="([^"]+)"', html, re.S)
    assert len(wrong) == len(entries) - step.pass_mark + 1
    # From the summary, the step goes on with a missed drill.
    again = client.get("/start/1/next/")
    assert again.status_code == 302 and again["Location"].startswith("/drills/")


def test_a_step_still_being_played_goes_on_to_the_next_unanswered_drill(client):
    step = clf.load_step(1)
    who = f.user("solo")
    entries = clf.entries(step)
    clf.answer_entry(who, entries[0], correct=False)
    client.force_login(who)
    response = client.get(f"/start/1/next/?after={entries[0].position}")
    assert response["Location"].startswith("/drills/")


def test_an_assignment_with_every_drill_answered_ends_on_its_summary(client):
    room = cf.classroom()
    student = cf.student_in(room)
    assignment = cf.built(room, title="Homework")  # one drill of each item: two
    first, second = assignment.drills.order_by("position")
    cf.answer_drill(student, first, correct=True)
    cf.answer_drill(student, second, correct=False)
    client.force_login(student)
    response = client.get(f"/classes/assignments/{assignment.pk}/next/?after=2")
    assert response.status_code == 302
    assert response["Location"] == assignment.get_absolute_url()
    html = client.get(response["Location"]).content.decode()
    assert "All done" in html
    missed = re.findall(r'<li class="drill-row is-wrong">.*?<a href="([^"]+)"', html, re.S)
    assert len(missed) == 1 and missed[0].startswith("/drills/")
