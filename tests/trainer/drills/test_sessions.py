"""Drills played in a session show a frame: "Drill 3 of 10 · 2 right · pass mark 8", a way back."""

import re

import pytest

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf

pytestmark = pytest.mark.django_db


def _frame(html: str) -> str:
    m = re.search(r'<div class="session-frame" data-session>(.*?)</div>', html, re.S)
    assert m is not None, "no session frame"
    return " ".join(re.sub(r"<[^>]+>", " ", m[1]).split())


def test_path_step_drill_shows_its_place_in_the_step(client):
    step = clf.load_step(1)
    who = f.user("solo")
    clf.pass_step(who, step, right=2)
    client.force_login(who)
    drill_url = client.get("/start/1/next/")["Location"]
    frame = _frame(client.get(drill_url).text)
    served = int(drill_url.split("/")[3])
    number = next(i for i, e in enumerate(clf.entries(step), 1) if e.seed == served)
    assert f"Drill {number} of 10 · 2 answered · 2 right · pass mark 8" in frame
    assert "Back to step 1" in frame
    assert 'href="/start/1/"' in client.get(drill_url).text


def test_assignment_drill_shows_its_place_in_the_assignment(client):
    room = cf.classroom()
    student = cf.student_in(room)
    assignment = cf.built(room, title="Homework", count=2)
    client.force_login(student)
    drill_url = client.get(f"/classes/assignments/{assignment.pk}/next/")["Location"]
    html = client.get(drill_url).text
    frame = _frame(html)
    total = assignment.drills.count()
    assert f"Drill 1 of {total} · 0 right" in frame
    assert "Back to the assignment" in frame
    assert "pass mark" not in frame


def test_review_drill_shows_what_is_still_due(client):
    who = f.user("reviewer")
    client.force_login(who)
    html = client.get("/drills/checklist/5/?v=2&review=1").text
    assert "still due" in _frame(html)


def test_a_drill_on_its_own_has_no_frame(client):
    client.force_login(f.user("free"))
    assert "data-session" not in client.get("/drills/checklist/5/?v=2").text


def test_a_foreign_next_shows_no_frame(client):
    client.force_login(f.user("free"))
    html = client.get("/drills/checklist/5/?v=2&next=/classes/assignments/999/next/").text
    assert "data-session" not in html


def test_a_path_step_drill_served_out_of_order_is_named_by_its_own_number(client):
    """Drills 1, 2 and 5 answered: the step serves drill 3, and the frame says so ("Drill 3",
    not the fourth answer's number)."""
    step = clf.load_step(1)
    who = f.user("gap")
    entries = clf.entries(step)
    for entry in (entries[0], entries[1], entries[4]):
        clf.answer_entry(who, entry, correct=True)
    client.force_login(who)
    served = client.get("/start/1/next/")["Location"]
    assert served.startswith(f"/drills/{entries[2].kind}/{entries[2].seed}/")
    frame = _frame(client.get(served).text)
    assert "Drill 3 of 10 · 3 answered · 3 right" in frame
