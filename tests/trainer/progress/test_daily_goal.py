"""The daily review goal: a setting, "Today: X of 20 answers" on the progress page, today's
review run as a session (frame, goal, summary), and skills grouped by the lesson teaching them."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.utils import timezone

from engine.drills import KIND_TITLES, DrillParams
from tests.trainer import factories
from trainer.core.seeding import discover_loaders, load_file
from trainer.progress import selectors
from trainer.progress.models import ReviewGoal

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


@pytest.fixture
def lessons():
    discover_loaders()
    for path in sorted((settings.BASE_DIR / "seeds" / "lessons").glob("*.md")):
        load_file(path)


@pytest.fixture
def me(client):
    who = factories.user("me")
    client.force_login(who)
    return who


def _due(who, item: str, *, correct: bool = False, hours: int = 2):
    """A wrong answer ``hours`` before midnight: yesterday's, and due for review today."""
    factories.answer(
        who,
        seed=len(item),
        correct=correct,
        params=DrillParams(items=(item,)),
        now=selectors.start_of_day() - timedelta(hours=hours),
    )


# --- the setting ---------------------------------------------------------------------------


def test_the_goal_is_twenty_until_set(me):
    assert selectors.review_goal(user=me) == 20


def test_the_settings_page_sets_the_goal(client, me):
    assert 'name="per_day"' in client.get("/settings/").content.decode()
    response = client.post("/settings/goal/", {"per_day": "12"})
    assert response.status_code == 302
    assert ReviewGoal.objects.get(user=me).per_day == 12
    assert 'value="12"' in client.get("/settings/").content.decode()


@pytest.mark.parametrize("bad", ["0", "201", "-3", "lots", ""])
def test_a_goal_out_of_range_is_refused_with_a_reason(client, me, bad):
    response = client.post("/settings/goal/", {"per_day": bad})
    assert response.status_code == 400
    assert "Daily review goal" in response.content.decode()
    assert not ReviewGoal.objects.exists()


NOT_LOCAL = ["foo", "-5", "🎹", "settings", "https://evil.example/", "//evil.example/", "ja vas"]


@pytest.mark.parametrize("target", NOT_LOCAL)
def test_a_next_that_is_not_a_local_path_is_ignored_when_setting_the_goal(client, me, target):
    response = client.post("/settings/goal/", {"per_day": "12", "next": target})

    assert response.status_code == 302
    assert response["Location"] == "/settings/"
    assert ReviewGoal.objects.get(user=me).per_day == 12


@pytest.mark.parametrize("target", NOT_LOCAL)
def test_a_next_that_is_not_a_local_path_is_ignored_when_saving_settings(client, target):
    response = client.post("/settings/", {"four_colour": "on", "next": target})

    assert response.status_code == 302
    assert response["Location"] == "/settings/"


def test_a_local_next_is_followed_after_the_goal_is_saved(client, me):
    response = client.post("/settings/goal/", {"per_day": "12", "next": "/progress/"})

    assert response["Location"] == "/progress/"
    assert ReviewGoal.objects.get(user=me).per_day == 12


def test_setting_a_goal_needs_an_account(client):
    response = client.post("/settings/goal/", {"per_day": "5"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not ReviewGoal.objects.exists()


# --- the progress page ---------------------------------------------------------------------


def test_progress_shows_todays_answers_against_the_goal(client, me):
    ReviewGoal.objects.create(user=me, per_day=5)
    factories.answer(me, seed=1, correct=True)
    factories.answer(me, seed=2, correct=False)
    _due(me, "fours")  # yesterday's answer does not count today
    text = _text(client.get("/progress/").content.decode())
    assert "Today: 2 of 5 answers · 1 right" in text
    assert "3 more to meet your daily goal" in text


def test_progress_groups_skills_under_the_lesson_that_teaches_them(client, me, lessons):
    factories.answer(me, kind="read", seed=3, params=DrillParams(items=("fours",)))
    factories.answer(me, kind="checklist", seed=3, params=DrillParams(items=("fours",)))
    factories.answer(me, kind="score", seed=4, params=DrillParams(items=("nothing",)))
    html = client.get("/progress/").content.decode()
    groups = re.findall(r'<span class="lesson-group-title">([^<]+)</span>', html)
    # In the lessons' order: each skill under the lesson its feedback links to.
    assert [unescape(g) for g in groups] == [
        "The game and one deal",
        "The leader's checklist",
        "Strong signals",
    ]
    strong = html.split("Strong signals</span>", 1)[1].split("</details>", 1)[0]
    assert "Four of a kind" in strong and KIND_TITLES["read"] in _text(strong)
    assert 'href="/learn/strong-signals/"' in strong
    assert "Spot the checklist item" not in _text(strong)
    assert "Drill Nothing" not in html


def test_skills_no_lesson_teaches_come_last_when_lessons_are_not_loaded(client, me):
    factories.answer(me, kind="checklist", seed=3, params=DrillParams(items=("fours",)))
    html = client.get("/progress/").content.decode()
    assert re.findall(r'<span class="lesson-group-title">([^<]+)</span>', html) == ["Other skills"]


def test_many_skills_stay_folded_under_their_lessons(client, me, lessons):
    """Thirty-odd skills, most of them due (the demo student): one lesson open at most, no
    long table, the chart kept."""
    items = ["fours", "two_pair", "one_pair", "threes", "full_house", "five_flush"]
    for n, item in enumerate(items):
        for kind in ("checklist", "read", "reply"):
            factories.answer(
                me,
                kind=kind,
                seed=n + 1,
                correct=n % 2 == 0,
                params=DrillParams(items=(item,)),
                now=timezone.now() - timedelta(days=3),
            )
    factories.answer(me, seed=99)  # one today, for the chart's latest point
    html = client.get("/progress/").content.decode()
    assert len(re.findall(r'<li class="skill-card', html)) >= 18
    assert len(re.findall(r"<details class=\"lesson-group\" open", html)) <= 1
    assert '<table class="skills"' not in html
    assert "<svg" in html and "<polyline" in html


# --- today's review as a session -----------------------------------------------------------


def test_review_serves_a_due_skill_inside_the_days_frame(client, me):
    _due(me, "fours")
    response = client.get("/drills/review/")
    assert response.status_code == 302
    location = response["Location"]
    assert "review=1" in location and "next=%2Fdrills%2Freview%2F" in location
    html = client.get(location, follow=True).content.decode()
    frame = html.split("data-session>", 1)[1].split("</div>", 1)[0]
    assert "Today: 0 of 20 answers · 0 right" in _text(frame)
    assert 'href="/progress/"' in frame


def test_review_stops_at_the_goal_with_a_summary_of_what_was_missed(client, me):
    ReviewGoal.objects.create(user=me, per_day=2)
    _due(me, "fours")  # due, answered yesterday
    factories.answer(me, seed=11, correct=False, params=DrillParams(items=("two_pair",)))
    factories.answer(me, seed=12, correct=True, params=DrillParams(items=("threes",)))
    response = client.get("/drills/review/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-summary" in html and "Daily goal met" in html
    assert "Today: 2 answers, daily goal of 2 met · 1 right" in _text(html)
    replays = re.findall(r'href="(/drills/checklist/\d+/[^"]*)"', html)
    assert len(replays) == 1 and replays[0].startswith("/drills/checklist/11/")
    assert "Keep reviewing" in html
    more = client.get("/drills/review/?more=1")
    assert more.status_code == 302 and "review=1" in more["Location"]
    assert "more%3D1" in more["Location"]  # Next keeps going past the goal


def test_the_end_of_review_from_htmx_loads_the_whole_summary(client, me):
    ReviewGoal.objects.create(user=me, per_day=1)
    _due(me, "fours")
    factories.answer(me, seed=12, correct=True)
    response = client.get("/drills/review/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204  # not swapped into the drill page
    assert response["HX-Redirect"] == "/drills/review/"
    assert "data-summary" in client.get("/drills/review/").content.decode()
