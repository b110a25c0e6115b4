import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.drills import DrillParams
from tests.trainer import factories

pytestmark = pytest.mark.django_db


def test_progress_needs_an_account(client):
    response = client.get("/progress/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_progress_shows_skills_weakest_chart_and_failed_drills(client):
    me = factories.user()
    client.force_login(me)
    for ok in (False, False, True):
        factories.answer(me, seed=7, correct=ok, params=DrillParams(items=("two_pair",)))
    factories.answer(me, seed=8, correct=False, params=DrillParams(items=("two_pair",)))
    html = client.get("/progress/").content.decode()
    assert "Two pair" in html
    assert "/drills/checklist/?items=two_pair" in html  # one-click drill on the weak skill
    assert "<svg" in html and "<polyline" in html
    assert "/drills/checklist/8/?items=two_pair" in html  # the failed drill to replay


def test_progress_never_shows_another_learners_answers(client):
    me, other = factories.user(), factories.user()
    factories.answer(other, seed=99, correct=False, params=DrillParams(items=("fours",)))
    client.force_login(me)
    html = client.get("/progress/").content.decode()
    assert "drill 99" not in html and "Fours" not in html


def test_progress_query_count_is_fixed_as_attempts_grow(client):
    me = factories.user()
    client.force_login(me)
    factories.answer(me, seed=1, correct=False)

    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/progress/").status_code == 200
        return len(ctx.captured_queries)

    before = count()
    for seed in range(2, 40):
        factories.answer(
            me,
            seed=seed,
            correct=seed % 3 == 0,
            params=DrillParams(items=("fours",) if seed % 2 else ("two_pair",)),
        )
    assert count() == before


def test_settings_choose_a_four_colour_deck(client):
    client.post("/settings/", {"convention": "", "rule": "", "four_colour": "on"})
    assert 'class="four-colour' in client.get("/drills/").content.decode()


def test_settings_refuse_an_unknown_convention(client):
    assert client.post("/settings/", {"convention": "nope"}).status_code == 400


def test_saving_settings_says_so_with_what_drills_now_use(client):
    response = client.post(
        "/settings/", {"convention": "teach-yourself-1994", "rule": "contribution"}, follow=True
    )
    text = response.content.decode()
    assert 'class="messages" role="status"' in text
    assert "Settings saved. Drills now use" in text
    assert "1994" in text.split("Settings saved.", 1)[1].split("</li>", 1)[0]
