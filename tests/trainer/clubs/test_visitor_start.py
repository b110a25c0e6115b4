"""*Start here* for visitors: the path shown without an account, step 1 playable with the
answers kept in the session (bounded, the first answer to a showing counts, nothing written to
the database), and adopted — graded again by the engine, once — when the visitor signs up or
logs in on the same browser. Steps 2 to 7 stay behind an account."""

from __future__ import annotations

import random
import re
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from engine.drills import DrillAddress, make_drill, make_drill_at
from tests.trainer import factories as f
from tests.trainer.clubs import factories as cf
from trainer.drills.curation import right_answer, wrong_answer
from trainer.progress import services
from trainer.progress.models import Attempt, SkillState
from trainer.ratings.models import FamilyRating, LearnerRating, RatingPoint

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-unusual-passphrase-42"
KEPT = services.VISITOR_ANSWERS_KEY
SIGNUP = "/accounts/signup/?next=/start/"


@pytest.fixture
def step1():
    step = cf.load_step(1)
    cf.load_step(2)
    return step


def _showing(html: str) -> str:
    found = re.search(r'name="showing" value="([^"]+)"', html)
    assert found is not None, "no answer form"
    return found[1]


def _drill_of(entry):
    return make_drill(entry.kind, entry.seed, entry.drill_params)


def _drill_page(client: Client, entry) -> tuple[str, str]:
    """The drill page of a step-1 entry as the path links it (its URL and HTML)."""
    step_html = client.get("/start/1/").text
    url = re.findall(r'<a href="(/drills/[^"]+)">Drill \d+</a>', step_html)[entry.position - 1]
    url = url.replace("&amp;", "&")
    response = client.get(url)
    assert response.status_code == 200
    return url, response.text


def _answer(client: Client, entry, *, correct: bool, showing: str | None = None) -> str:
    """Answer one step-1 drill (all multiple choice) on its page; the feedback's HTML."""
    url, html = _drill_page(client, entry)
    drill = _drill_of(entry)
    answer = right_answer(drill) if correct else wrong_answer(drill, random.Random(1))
    response = client.post(url, {"showing": showing or _showing(html), "option": str(answer)})
    assert response.status_code == 200
    return response.text


def _kept(client: Client) -> list[dict]:
    return list(client.session.get(KEPT, []))


def _nothing_stored() -> bool:
    return not (
        Attempt.objects.exists()
        or SkillState.objects.exists()
        or LearnerRating.objects.exists()
        or FamilyRating.objects.exists()
        or RatingPoint.objects.exists()
    )


def _sign_up(client: Client, username: str = "newcomer"):
    response = client.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD, "next": "/start/"},
    )
    assert response.status_code == 302 and response["Location"] == "/start/"
    return get_user_model().objects.get(username=username)


def _session_with(client: Client, entries: list) -> None:
    session = client.session
    session[KEPT] = entries
    session.save()


# --------------------------------------------------------------------------------------------
# The path, shown to a visitor


def test_a_visitor_sees_the_seven_steps_with_step_one_open(client, step1):
    response = client.get("/start/")
    assert response.status_code == 200
    html = response.text
    assert html.count('class="path-step ') == 7
    assert "path-step path-step-current" in html  # step 1
    assert html.count("path-step path-step-locked") == 6
    # step 1: its page, its lesson, its drills
    assert 'href="/start/1/"' in html
    assert 'href="/learn/the-game/?path=1"' in html
    assert 'href="/start/1/next/">Play the drills</a>' in html
    # steps 2–7: their titles and goals, no page of their own, each unlocked by signing up
    assert "Step 2: Scoring and left-overs" in html
    assert "Score a finished hand and a side&#x27;s six left-over cards." in html
    assert "Step 7: Replying" in html
    for number in range(2, 8):
        assert f'data-signup-step="{number}"' in html
        assert f'href="/start/{number}/' not in html
    assert html.count(f'<a href="{SIGNUP}">Sign up to unlock</a>') == 6
    assert f'href="{SIGNUP}" data-signup' in html
    assert 'href="/accounts/login/?next=/start/"' in html


def test_a_visitor_does_not_see_another_users_answers(client, step1):
    cf.pass_step(f.user("someone"), step1)
    html = client.get("/start/").text
    assert "0 of 10 right · pass mark 8" in html
    assert "path-step-passed" not in html
    step_html = client.get("/start/1/").text
    assert "step-drill-right" not in step_html and step_html.count("step-drill-new") == 10


@pytest.mark.parametrize("number", [2, 3, 4, 5, 6, 7])
def test_steps_two_to_seven_send_a_visitor_to_sign_up(client, step1, number):
    for url in (f"/start/{number}/", f"/start/{number}/next/", f"/start/{number}/next/?after=1"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == SIGNUP
    page = client.get(f"/start/{number}/next/", follow=True).text
    assert f"Step {number} opens with a free account." in page
    # the drill page's Next (htmx) is sent to the sign-up page as a whole page
    response = client.get(f"/start/{number}/next/", headers={"HX-Request": "true"})
    assert response.status_code == 204 and response["HX-Redirect"] == SIGNUP


def test_a_step_that_does_not_exist_is_404_and_a_clubs_path_needs_a_login(client, step1):
    assert client.get("/start/9/").status_code == 404
    assert client.get("/start/9/next/").status_code == 404
    response = client.get("/clubs/riverside/path/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/clubs/riverside/path/")
    assert client.get("/clubs/riverside/path/1/next/")["Location"].startswith("/accounts/login/")


def test_a_visitor_who_passed_step_one_still_needs_an_account_for_step_two(client, step1):
    for entry in cf.entries(step1)[:8]:
        _answer(client, entry, correct=True)
    html = client.get("/start/").text
    assert "path-step path-step-passed" in html
    assert "path-step path-step-current" not in html  # step 2 is not open to a visitor
    assert client.get("/start/2/")["Location"] == SIGNUP
    step = client.get("/start/1/").text
    assert f'<a class="button" href="{SIGNUP}" data-next-step>Sign up to unlock step 2</a>' in step
    # passed with two drills left: the session goes on to them, then ends on the step's page
    entries = cf.entries(step1)
    assert client.get("/start/1/next/")["Location"].startswith(
        f"/drills/{entries[8].kind}/{entries[8].seed}/"
    )
    for entry in entries[8:]:
        _answer(client, entry, correct=False)
    assert client.get("/start/1/next/")["Location"] == "/start/1/"
    summary = client.get("/start/1/").text
    assert "8 right of 10 answered: passed." in summary and "to count them" not in summary


# --------------------------------------------------------------------------------------------
# Step 1, played without an account


def test_step_one_serves_its_drills_to_a_visitor_and_comes_back_to_the_path(client, step1):
    entries = cf.entries(step1)
    response = client.get("/start/1/next/")
    assert response.status_code == 302
    first = urlsplit(response["Location"])
    assert first.path == f"/drills/{entries[0].kind}/{entries[0].seed}/"
    assert "next=%2Fstart%2F1%2Fnext%2F%3Fafter%3D1" in first.query
    html = client.get(response["Location"]).text
    assert 'name="showing"' in html
    # the step's page offers every drill, the pass mark, and says where the answers go
    step = client.get("/start/1/").text
    assert step.count('<a href="/drills/score/') == 10
    assert "0 of 10 right · pass mark 8" in step
    assert f'href="{SIGNUP}"' in step and "data-visitor" in step


def test_a_visitors_answers_show_on_the_step_and_the_path(client, step1):
    entries = cf.entries(step1)
    assert "Right." in _answer(client, entries[0], correct=True)
    assert "Not quite" in _answer(client, entries[1], correct=False)
    _answer(client, entries[2], correct=True)
    step = client.get("/start/1/").text
    assert "2 of 10 right · pass mark 8" in step
    marks = re.findall(r'class="step-drill step-drill-(\w+)"', step)
    assert marks == ["right", "wrong", "right"] + ["new"] * 7
    assert "2 right, 3 answered" in step
    assert "2 of 10 right · pass mark 8" in client.get("/start/").text
    # going on with the step skips the drills answered right and comes back to the wrong one
    after_third = client.get("/start/1/next/?after=3")["Location"]
    assert urlsplit(after_third).path == f"/drills/score/{entries[3].seed}/"
    # the step's frame, for a visitor a line above the drill served next
    served = client.get("/start/1/next/?after=3", follow=True).text
    assert "Step 1 · Drill 4 of 10 · 2 right · pass mark 8" in served
    # a later right answer to the same drill counts (the latest answer counts)
    _answer(client, entries[1], correct=True)
    marks = re.findall(r'class="step-drill step-drill-(\w+)"', client.get("/start/1/").text)
    assert marks[:3] == ["right", "right", "right"]
    assert _nothing_stored()


def test_a_visitors_answers_are_kept_in_the_session_only(client, step1):
    entries = cf.entries(step1)
    _answer(client, entries[0], correct=True)
    _answer(client, entries[1], correct=False)
    kept = _kept(client)
    assert [k["d"] for k in kept] == [
        str(_drill_of(entries[0]).address),
        str(_drill_of(entries[1]).address),
    ]
    assert [k["a"] for k in kept] == [
        str(right_answer(_drill_of(entries[0]))),
        str(wrong_answer(_drill_of(entries[1]), random.Random(1))),
    ]
    assert all(uuid.UUID(k["t"]) for k in kept)
    assert _nothing_stored()


def test_every_drill_a_visitor_answers_is_kept_not_only_the_paths(client):
    drill = make_drill("checklist", 4)
    html = client.get("/drills/checklist/4/?v=2").text
    response = client.post(
        "/drills/checklist/4/?v=2", {"showing": _showing(html), "option": f.right_option(drill)}
    )
    assert response.status_code == 200 and "Right." in response.text
    assert [k["d"] for k in _kept(client)] == [str(drill.address)]
    assert _nothing_stored()


def test_only_the_first_answer_to_a_showing_is_kept(client, step1):
    entry = cf.entries(step1)[0]
    drill = _drill_of(entry)
    url, html = _drill_page(client, entry)
    showing = _showing(html)
    wrong = str(wrong_answer(drill, random.Random(1)))
    first = client.post(url, {"showing": showing, "option": wrong})
    assert "Not quite" in first.text
    again = client.post(url, {"showing": showing, "option": str(right_answer(drill))})
    assert again.status_code == 200
    assert "your first answer is the one that counts" in again.text
    assert "Not quite" in again.text  # the first answer, and its grade, are shown
    assert [k["a"] for k in _kept(client)] == [wrong]
    assert "0 of 10 right" in client.get("/start/1/").text


def test_the_kept_answers_are_bounded_to_the_latest():
    drill = make_drill("checklist", 4)
    answer = right_answer(drill)
    session = SessionStore()
    tokens = [uuid.uuid4() for _ in range(services.VISITOR_ANSWERS_MAX + 5)]
    for token in tokens:
        recorded = services.visitor_answer_keep(
            session, drill=drill, answer=answer, showing=services.Showing(token, 0)
        )
        assert recorded.created and recorded.grade.correct and recorded.attempt is None
    kept = session[KEPT]
    assert len(kept) == services.VISITOR_ANSWERS_MAX == 200
    assert [k["t"] for k in kept] == [t.hex for t in tokens[5:]]  # the oldest dropped
    assert len(services.visitor_answers_kept(session)) == 200


def test_a_second_post_of_a_showing_gets_the_first_answer_back():
    drill = make_drill("checklist", 4)
    session = SessionStore()
    showing = services.Showing(uuid.uuid4(), 0)
    wrong = wrong_answer(drill, random.Random(1))
    services.visitor_answer_keep(session, drill=drill, answer=wrong, showing=showing)
    again = services.visitor_answer_keep(
        session, drill=drill, answer=right_answer(drill), showing=showing
    )
    assert not again.created and again.answer == wrong and not again.grade.correct
    assert len(session[KEPT]) == 1


# --------------------------------------------------------------------------------------------
# Signing up (or logging in) keeps the answers


def test_signing_up_records_the_kept_answers_once_with_their_grades_and_ratings(client, step1):
    entries = cf.entries(step1)
    for entry in entries[:3]:
        _answer(client, entry, correct=True)
    _answer(client, entries[3], correct=False)
    kept = _kept(client)
    user = _sign_up(client)

    attempts = list(Attempt.objects.filter(user=user).order_by("created_at", "id"))
    assert [a.token.hex for a in attempts] == [k["t"] for k in kept]
    assert [a.correct for a in attempts] == [True, True, True, False]
    assert [(a.kind, a.seed, a.params) for a in attempts] == [
        (e.kind, e.seed, e.params) for e in entries[:4]
    ]
    for attempt, k in zip(attempts, kept, strict=True):  # at the time each was given
        assert abs(attempt.created_at.timestamp() * 1000 - k["at"]) < 1
        assert attempt.answer == k["a"] and attempt.time_taken_ms == k["ms"]
    # counted on the skills' schedules, and the ratings moved as first answers move them
    assert sum(SkillState.objects.filter(user=user).values_list("attempts", flat=True)) == 4
    learner = LearnerRating.objects.get(user=user, kind="score")
    assert learner.answers == 4 and learner.rating != 1500
    assert RatingPoint.objects.filter(user=user).count() == 4
    assert sum(FamilyRating.objects.values_list("answers", flat=True)) == 4
    # the session no longer keeps them, and the path counts them
    assert KEPT not in client.session
    path = client.get("/start/").text
    assert "3 of 10 right · pass mark 8" in path
    assert "The answers you gave while signed out are kept with your account" in path
    # logging in again (same browser) adds nothing
    client.logout()
    response = client.post("/accounts/login/", {"username": "newcomer", "password": PASSWORD})
    assert response.status_code == 302
    assert Attempt.objects.filter(user=user).count() == 4
    assert LearnerRating.objects.get(user=user, kind="score").answers == 4
    assert "signed out are kept" not in client.get("/start/").text


def test_answers_kept_again_are_not_recorded_twice(client, step1):
    entries = cf.entries(step1)
    _answer(client, entries[0], correct=True)
    _answer(client, entries[1], correct=True)
    kept = _kept(client)
    user = _sign_up(client)
    rating = LearnerRating.objects.get(user=user, kind="score").rating
    client.logout()
    _session_with(client, kept)  # the same answers back in a session (a stale copy)
    response = client.post("/accounts/login/", {"username": "newcomer", "password": PASSWORD})
    assert response.status_code == 302
    assert Attempt.objects.filter(user=user).count() == 2
    assert RatingPoint.objects.filter(user=user).count() == 2
    assert LearnerRating.objects.get(user=user, kind="score").rating == rating
    assert KEPT not in client.session


def test_passing_step_one_as_a_visitor_passes_it_after_signing_up(client, step1):
    for entry in cf.entries(step1)[:8]:
        _answer(client, entry, correct=True)
    _sign_up(client)
    html = client.get("/start/").text
    assert "path-step path-step-passed" in html
    assert "path-step path-step-current" in html  # step 2, open now
    assert 'href="/start/2/next/"' in html
    assert "data-signup-step" not in html


def test_logging_in_on_the_same_browser_keeps_the_answers(client, step1):
    user = get_user_model().objects.create_user(username="ada", password=PASSWORD)
    cf.answer_entry(user, cf.entries(step1)[0], correct=False)  # answered before, signed in
    _answer(client, cf.entries(step1)[0], correct=True)
    _answer(client, cf.entries(step1)[1], correct=True)
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert Attempt.objects.filter(user=user).count() == 3
    marks = re.findall(r'class="step-drill step-drill-(\w+)"', client.get("/start/1/").text)
    assert marks[:3] == ["right", "right", "new"]  # the visitor's answer is the latest


def test_adoption_keeps_the_original_time():
    user = f.user("later")
    drill = make_drill("checklist", 4)
    then = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
    session = SessionStore()
    services.visitor_answer_keep(
        session,
        drill=drill,
        answer=right_answer(drill),
        showing=services.Showing(uuid.uuid4(), int(then.timestamp() * 1000) - 4000),
        now=then,
    )
    assert services.visitor_session_adopt(user=user, session=session) == 1
    attempt = Attempt.objects.get(user=user)
    assert attempt.created_at == then and attempt.time_taken_ms == 4000 and attempt.correct
    assert RatingPoint.objects.get(user=user).at == then
    assert SkillState.objects.get(user=user).last_seen == then
    assert KEPT not in session
    assert services.visitor_session_adopt(user=user, session=session) == 0


# --------------------------------------------------------------------------------------------
# Damaged or tampered kept answers


def _entry(address: str, answer: str, **extra) -> dict:
    return {
        "t": uuid.uuid4().hex,
        "d": address,
        "a": answer,
        "c": True,
        "at": int((datetime.now(UTC) - timedelta(minutes=5)).timestamp() * 1000),
        "ms": 3000,
        **extra,
    }


def _key(address: str, *, right: bool) -> str:
    drill = make_drill_at(DrillAddress.parse(address))
    return str(right_answer(drill) if right else wrong_answer(drill, random.Random(1)))


def test_a_tampered_session_is_graded_again_or_dropped_at_adoption(client, step1):
    entry = cf.entries(step1)[0]
    good = str(_drill_of(entry).address)
    other = "checklist/4?v=2"
    huge = f"score/{2**64}?items=one_pair&v=2"
    wrong_marked_right = _entry(good, _key(good, right=False), c=True)
    right_marked_wrong = _entry(other, _key(other, right=True), c=False)
    tampered = [
        wrong_marked_right,
        right_marked_wrong,
        _entry("nosuch/1?v=2", "1"),  # unknown kind
        _entry("score/-1?v=2", "1"),  # bad seed
        _entry("score/abc?v=2", "1"),
        _entry(huge, _key(huge, right=True)),  # a seed larger than an attempt can keep
        _entry("score/10001?items=one_pair", "1"),  # retired generator (no v)
        _entry(good, "99"),  # not one of the drill's options
        _entry(good, "1", t="not-a-token"),
        _entry(good, "1", at="yesterday"),
        _entry(good, "1", at=10**20),
        {"d": good, "a": "1"},  # no token, no time
        "score/10001?v=2",
        None,
        [1, 2, 3],
    ]
    _session_with(client, tampered)
    # the visitor's pages read the same session without failing
    assert client.get("/start/").status_code == 200
    step = client.get("/start/1/").text
    assert re.findall(r'class="step-drill step-drill-(\w+)"', step)[0] == "wrong"
    user = _sign_up(client)
    attempts = {a.token.hex: a for a in Attempt.objects.filter(user=user)}
    assert set(attempts) == {wrong_marked_right["t"], right_marked_wrong["t"]}
    assert attempts[wrong_marked_right["t"]].correct is False  # the engine's grade, not "c"
    assert attempts[right_marked_wrong["t"]].correct is True
    assert KEPT not in client.session


@pytest.mark.parametrize("value", ["a string", {"t": "x"}, 42, None])
def test_a_session_value_that_is_not_a_list_is_ignored(client, step1, value):
    _session_with(client, value)
    assert client.get("/start/").status_code == 200
    user = _sign_up(client)
    assert not Attempt.objects.filter(user=user).exists()
    assert KEPT not in client.session


# --------------------------------------------------------------------------------------------
# The home page


def test_the_home_page_offers_the_guided_start_to_visitors_first(client):
    html = client.get("/").text
    hero = html.split('<section class="hero">', 1)[1].split("</section>", 1)[0]
    actions = re.findall(r'<a class="button([^"]*)" href="([^"]+)"', hero)
    assert actions[0] == (" button-large", "/start/")  # the primary action
    assert 'href="/start/" data-start>Start here</a>' in html
    assert "Seven steps from the rules to fluent signals." in html
    assert [h for _, h in actions[1:3]] == ["/drills/", "/learn/"]
    client.force_login(f.user("member"))
    assert "data-start" not in client.get("/").text
