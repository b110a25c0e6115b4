"""A lesson's "practise this" drills run as a practice set: ten drills with a frame ("Drill 3
of 10 · 2 right · pass mark 8", a way back) and a summary at the end, passed or not."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import resolve, reverse

from engine.drills import DrillParams, answer_words
from tests.trainer import factories as f
from trainer.core.drill_sessions import PracticeSet, practice_load, practice_sign
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

FRESH = PracticeSet(
    title="The leader's checklist: spot the checklist item",
    back_url="/learn/the-leaders-checklist/",
    back_label="Back to the lesson",
    kind="checklist",
    query="items=fours",
    back_title="The leader's checklist",
)


def _text(html: str) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def _frame(html: str) -> str:
    m = re.search(r'<div class="session-frame" data-session>(.*?)</div>', html, re.S)
    assert m is not None, "no session frame"
    return _text(m[1])


def _start(client) -> PracticeSet:
    """Open a fresh set's link; return the started set it redirects to."""
    response = client.get(reverse("drill-practise", args=[practice_sign(FRESH)]))
    assert response.status_code == 302
    token = response["Location"].split("/drills/practise/", 1)[1].split("/", 1)[0]
    started = practice_load(token)
    assert started is not None and started.started
    return started


def _answer_all(who, practice: PracticeSet, right: int) -> None:
    params = DrillParams.from_key(practice.query)
    for i, seed in enumerate(practice.seeds):
        f.answer(who, kind=practice.kind, seed=seed, params=params, correct=i < right)


def test_a_fresh_link_starts_ten_drills_with_the_learners_settings(client):
    client.force_login(f.user("learner"))
    started = _start(client)
    assert len(started.seeds) == 10
    assert started.query == DrillParams(items=("fours",)).key()
    response = client.get(reverse("drill-practise-next", args=[practice_sign(started)]))
    assert response.status_code == 302
    drill_url = response["Location"]
    assert drill_url.startswith(f"/drills/checklist/{started.seeds[0]}/?")
    html = client.get(drill_url).content.decode()
    frame = _frame(html)
    assert "Drill 1 of 10 · 0 right · pass mark 8" in frame
    assert "Back to the lesson" in frame and FRESH.title in frame
    assert 'href="/learn/the-leaders-checklist/"' in html


def test_next_goes_on_after_the_drill_just_played(client):
    who = f.user("learner")
    client.force_login(who)
    started = _start(client)
    next_url = reverse("drill-practise-next", args=[practice_sign(started)])
    location = client.get(next_url + "?after=4")["Location"]
    assert location.startswith(f"/drills/checklist/{started.seeds[4]}/?")
    assert "next=" in location and "after%3D5" in location


def test_a_set_ending_below_the_pass_mark_sums_up_what_was_missed(client):
    who = f.user("learner")
    client.force_login(who)
    started = _start(client)
    _answer_all(who, started, right=7)
    token = practice_sign(started)
    response = client.get(reverse("drill-practise-next", args=[token]) + "?after=10")
    assert response.status_code == 302
    assert _set_at(response["Location"]) == started
    html = client.get(response["Location"]).content.decode()
    assert "data-summary" in html
    assert 'data-verdict="not-passed"' in html
    assert "10 of 10 answered · 7 right first time · pass mark 8" in _text(html)
    missed = re.findall(
        r'<a href="(/drills/checklist/(\d+)/[^"]*)">Drill (\d+): Four of a kind</a>'
        r'\s*<span class="muted">— you answered ([^;<]+); not right yet</span>',
        html,
    )
    assert [int(seed) for _, seed, _, _ in missed] == list(started.seeds[7:])
    assert [int(n) for _, _, n, _ in missed] == [8, 9, 10]
    given = {a.seed: a.answer for a in Attempt.objects.filter(user=who)}
    assert [words for *_, words in missed] == [
        answer_words("checklist", given[seed]) for seed in started.seeds[7:]
    ]
    # The breadcrumbs name the lesson the set came from.
    assert '<a href="/learn/the-leaders-checklist/">The leader&#x27;s checklist</a>' in html
    replay = missed[0][0].replace("&amp;", "&")
    # A replay goes back to the summary, inside the same frame.
    assert _set_at(parse_qs(urlsplit(replay).query)["next"][0]) == started
    assert "Drill 10 of 10 · 7 right" in _frame(client.get(replay).content.decode())


def test_a_set_at_the_pass_mark_is_passed(client):
    who = f.user("learner")
    client.force_login(who)
    started = _start(client)
    _answer_all(who, started, right=8)
    html = client.get(reverse("drill-practise", args=[practice_sign(started)])).content.decode()
    assert 'data-verdict="passed"' in html
    assert "Practise a fresh set" in html


def test_the_end_of_a_set_from_htmx_loads_the_whole_summary_page(client):
    who = f.user("learner")
    client.force_login(who)
    started = _start(client)
    _answer_all(who, started, right=10)
    token = practice_sign(started)
    response = client.get(reverse("drill-practise-next", args=[token]), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert _set_at(response["HX-Redirect"]) == started


def test_a_damaged_link_is_refused_with_a_reason(client):
    client.force_login(f.user("learner"))
    token = practice_sign(FRESH)[:-3] + "xyz"
    response = client.get(reverse("drill-practise", args=[token]))
    assert response.status_code == 400
    assert "practice link is damaged" in response.content.decode()
    assert client.get(reverse("drill-practise-next", args=[token])).status_code == 400
    assert Attempt.objects.count() == 0


def test_a_visitor_gets_a_fresh_drill_and_no_session(client):
    response = client.get(reverse("drill-practise", args=[practice_sign(FRESH)]))
    assert response.status_code == 302
    assert response["Location"].startswith("/drills/checklist/?")
    started = FRESH.start(first_seed=100, key=DrillParams(items=("fours",)).key())
    response = client.get(reverse("drill-practise", args=[practice_sign(started)]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_another_learners_answers_do_not_count(client):
    other = f.user("other")
    client.force_login(f.user("learner"))
    started = _start(client)
    _answer_all(other, started, right=10)
    html = client.get(reverse("drill-practise", args=[practice_sign(started)])).content.decode()
    assert "0 of 10 answered" in _text(html)


def test_the_summary_asked_for_by_htmx_loads_as_a_whole_page(client):
    """A replayed drill's *Next* goes to the summary: not swapped into the drill area."""
    who = f.user("learner")
    client.force_login(who)
    started = _start(client)
    url = reverse("drill-practise", args=[practice_sign(started)])
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == url


@pytest.mark.parametrize("back", ["//evil.example/", "https://evil.example/", ""])
def test_a_set_whose_way_back_leaves_the_site_is_refused(client, back):
    from dataclasses import replace

    client.force_login(f.user("learner"))
    token = practice_sign(replace(FRESH, back_url=back))
    assert practice_load(token) is None
    assert client.get(reverse("drill-practise", args=[token])).status_code == 400


def _set_links(html: str) -> list[str]:
    return [unescape(u) for u in re.findall(r'href="([^"]+)" data-practice-set', html)]


def test_the_menu_offers_every_kind_as_a_set_of_ten_and_endless_as_a_choice(client):
    from engine.drills import KINDS

    client.force_login(f.user("menu-learner"))
    html = client.get(reverse("drill-menu")).content.decode()

    links = _set_links(html)
    assert len(links) == len(KINDS) and html.count("data-endless") == len(KINDS)
    for link, kind in zip(links, KINDS, strict=True):
        found = practice_load(link.split("/drills/practise/", 1)[1].split("/", 1)[0])
        assert found is not None and found.kind == kind and found.size == 10
        assert not found.started and found.back_url == reverse("drill-menu")
    # a visitor, who keeps no answers, gets the endless drills as before
    client.logout()
    assert _set_links(client.get(reverse("drill-menu")).content.decode()) == []


def test_a_set_starts_at_the_side_hand_near_the_learners_rating(client):
    from trainer.ratings.models import FamilyRating, LearnerRating

    learner = f.user("rated-learner")
    LearnerRating.objects.create(user=learner, kind="checklist", rating=1500, rd=80, answers=20)
    for hand, rating in ((1, 900), (2, 1350), (3, 2100), (4, 1900)):
        FamilyRating.objects.create(
            kind="checklist",
            skill="fours",
            side_hand=hand,
            convention="parlett-2008",
            rating=rating,
            rd=60,
            answers=30,
        )
    client.force_login(learner)

    started = _start(client)

    assert DrillParams.from_key(started.query).side_hand == 2


def _set_at(url: str) -> PracticeSet | None:
    """The practice set a summary address holds (its token is signed with the time, so two
    signings of one set differ a second apart)."""
    match = resolve(url)
    assert match.url_name == "drill-practise"
    return practice_load(match.kwargs["token"])
