"""The home page: the marketing hero for visitors, "what's next" for each kind of learner."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf
from trainer.progress.models import SkillState

pytestmark = pytest.mark.django_db


def _continue(html: str) -> tuple[str, str, str]:
    """(kind, address, words) of the page's Continue button."""
    m = re.search(
        r'<a class="button button-large" href="([^"]+)" data-continue="(\w+)">'
        r"([^<]+)</a>",
        html,
    )
    assert m is not None, "no Continue button"
    return m[2], m[1], m[3]


def test_visitor_sees_the_hero_and_no_continue(client):
    html = client.get("/").text
    assert "Read your partner's signals at a glance." in html
    assert "data-continue" not in html


def test_new_learner_continues_with_a_fresh_drill(client):
    client.force_login(f.user("newbie"))
    html = client.get("/").text
    kind, url, _ = _continue(html)
    assert kind == "drill" and url.startswith("/drills/")
    assert "Read your partner's signals" not in html  # no marketing hero once signed in
    assert "0</strong> reviews due" in html
    assert re.search(r'data-goal="20">Today: 0 of 20 answers', html)


def test_home_counts_todays_answers_against_the_daily_goal(client):
    who = f.user("keen")
    for seed in range(3):
        f.answer(who, seed=seed, correct=seed != 1)
    client.force_login(who)
    html = client.get("/").text
    assert re.search(r'data-goal="20">Today: 3 of 20 answers', html)
    assert "goal met" not in html


def test_learner_on_the_path_continues_with_the_step_lesson(client):
    clf.load_step(1)
    client.force_login(f.user("solo"))
    kind, url, words = _continue(client.get("/").text)
    assert kind == "path"
    assert url == "/learn/the-game/?path=1"
    assert words == "Step 1: The game and one deal"


def test_learner_who_began_a_step_continues_with_its_drills(client):
    step = clf.load_step(1)
    who = f.user("solo")
    clf.pass_step(who, step, right=2)
    client.force_login(who)
    kind, url, _ = _continue(client.get("/").text)
    assert (kind, url) == ("path", "/start/1/next/")


def test_club_member_continues_on_the_club_path(client):
    step = clf.load_step(1)
    organiser, member = f.user("org"), f.user("member")
    club = clf.club(organiser)
    clf.join(club, member)
    client.force_login(member)
    kind, url, _ = _continue(client.get("/").text)
    assert (kind, url) == ("path", f"/learn/{step.lesson}/?club={club.slug}")


def test_due_reviews_come_before_the_path(client):
    clf.load_step(1)
    who = f.user("reviewer")
    f.answer(who, kind="checklist", seed=3, correct=False)
    f.answer(who, kind="checklist", seed=4, correct=True)
    SkillState.objects.filter(user=who).update(due=timezone.now() - timedelta(days=1))
    due = SkillState.objects.filter(user=who).count()
    client.force_login(who)
    html = client.get("/").text
    kind, url, words = _continue(html)
    assert (kind, url) == ("review", "/drills/review/")
    assert words.startswith(f"Review {due} due drill")
    assert "start review" in html
    assert "1</strong> day in a row" in html


def test_student_continues_with_the_assignment_due_soonest(client):
    room = cf.classroom()
    student = cf.student_in(room)
    cf.built(room, title="Later", due_on=timezone.localdate() + timedelta(days=9))
    soon = cf.built(
        room, title="Soon", due_on=timezone.localdate() + timedelta(days=2), base_seed=2000
    )
    f.answer(student, kind="checklist", seed=3, correct=False)
    SkillState.objects.filter(user=student).update(due=timezone.now() - timedelta(days=1))
    client.force_login(student)
    html = client.get("/").text
    kind, url, words = _continue(html)
    assert (kind, url) == ("assignment", f"/classes/assignments/{soon.pk}/next/")
    assert "Soon" in words
    assert "Later" in html  # every open assignment is listed, with its due date
    assert "1</strong> review due" in html
