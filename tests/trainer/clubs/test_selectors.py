from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.utils import timezone

from engine.drills import DrillParams
from trainer.clubs import selectors
from trainer.clubs.models import ClubMembership
from trainer.core import preferences

from .. import factories as f
from . import factories as cf

pytestmark = pytest.mark.django_db


def _request(user):
    request = RequestFactory().get("/")
    request.user = user
    request.session = SessionStore()
    return request


# House rules -------------------------------------------------------------------------------


def test_house_rules_come_from_the_earliest_joined_club():
    member = f.user()
    early = cf.club(f.user(), "Early", convention="teach-yourself-1994", rule="contribution")
    late = cf.club(f.user(), "Late")
    cf.join(late, member)
    cf.join(early, member)
    ClubMembership.objects.filter(club=early).update(joined_at=timezone.now() - timedelta(days=3))

    assert selectors.house_rules_for(user=member) == {
        "convention": "teach-yourself-1994",
        "rule": "contribution",
    }


def test_no_club_no_house_rules():
    assert selectors.house_rules_for(user=f.user()) == {}
    assert selectors.house_rules_for(user=AnonymousUser()) == {}


def test_house_rules_cost_one_query_per_request(django_assert_num_queries):
    member = f.user()
    cf.join(cf.club(f.user(), rule="contribution"), member)
    request = _request(member)

    with django_assert_num_queries(1):
        first = preferences.house_rules(request)
        second = preferences.house_rules(request)

    assert first == second == {"convention": "parlett-2008", "rule": "contribution"}


def test_drill_defaults_use_house_rules_unless_the_member_chose():
    member = f.user()
    cf.join(cf.club(f.user(), convention="teach-yourself-1994", rule="contribution"), member)
    request = _request(member)

    assert preferences.drill_defaults(request) == {
        "convention": "teach-yourself-1994",
        "rule": "contribution",
    }

    preferences.save(request, convention="parlett-2008", rule=None, four_colour=False)
    assert preferences.drill_defaults(request) == {
        "convention": "parlett-2008",
        "rule": "contribution",
    }


def test_anonymous_visitors_have_no_house_rules(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert preferences.house_rules(_request(AnonymousUser())) == {}


# The path ----------------------------------------------------------------------------------


def test_a_new_member_starts_at_step_one():
    cf.load_step(1)
    cf.load_step(2)
    member = f.user()

    steps = selectors.path_for(user=member)

    assert [s.state for s in steps[:2]] == ["current", "locked"]
    assert steps[0].total == 10 and steps[0].right == 0
    assert not steps[2].available


def test_reaching_the_pass_mark_passes_the_step_and_opens_the_next():
    step = cf.load_step(1)
    cf.load_step(2)
    member = f.user()
    cf.pass_step(member, step, right=step.pass_mark - 1)
    assert selectors.path_for(user=member)[0].state == "current"

    cf.pass_step(member, step)

    steps = selectors.path_for(user=member)
    assert steps[0].passed and steps[0].right == step.pass_mark
    assert steps[1].state == "current"
    assert selectors.path_position(steps) == 1
    assert selectors.current_step(steps).step.number == 2


def test_the_latest_answer_to_a_drill_counts():
    step = cf.load_step(1)
    member = f.user()
    first = cf.entries(step)[0]
    now = timezone.now()

    cf.answer_entry(member, first, correct=True, now=now - timedelta(minutes=5))
    cf.answer_entry(member, first, correct=False, now=now)

    status = selectors.path_for(user=member)[0]
    assert (status.answered, status.right) == (1, 0)


def test_the_same_drill_with_other_settings_does_not_count():
    step = cf.load_step(1)
    member = f.user()
    entry = cf.entries(step)[0]
    f.answer(
        member,
        kind=entry.kind,
        seed=entry.seed,
        params=DrillParams.from_query({"items": "one_pair", "rule": "contribution"}),
    )

    assert selectors.path_for(user=member)[0].answered == 0


def test_next_drill_skips_right_answers_and_goes_round():
    step = cf.load_step(3)
    member = f.user()
    drills = cf.entries(step)
    cf.answer_entry(member, drills[0], correct=True)
    cf.answer_entry(member, drills[2], correct=False)
    statuses = selectors.step_drills(user=member, step=step)

    assert [s.status for s in statuses[:4]] == ["right", "new", "wrong", "new"]
    assert selectors.next_drill(drills=statuses).position == 2
    assert selectors.next_drill(drills=statuses, after=2).position == 3
    assert selectors.next_drill(drills=statuses, after=10).position == 2


def test_next_drill_is_none_when_every_drill_is_right():
    step = cf.load_step(1)
    member = f.user()
    cf.pass_step(member, step, right=10)

    assert selectors.next_drill(drills=selectors.step_drills(user=member, step=step)) is None


def test_members_path_reads_the_whole_club_in_four_queries(django_assert_num_queries):
    step = cf.load_step(1)
    organiser = f.user()
    club = cf.club(organiser)
    for n in range(6):
        member = f.user()
        cf.join(club, member)
        cf.pass_step(member, step, right=n * 2)

    with django_assert_num_queries(4):
        rows = selectors.members_path(club=club)

    assert len(rows) == 7
    assert [r.steps[0].right for r in rows] == [0, 0, 2, 4, 6, 8, 10]
    assert [r.passed_count for r in rows] == [0, 0, 0, 0, 0, 1, 1]
    assert rows[0].last_answer is None and rows[2].last_answer is not None


def test_members_path_shows_only_this_clubs_members():
    club, other = cf.club(f.user(), "One"), cf.club(f.user(), "Two")
    outsider = f.user()
    cf.join(other, outsider)

    rows = selectors.members_path(club=club)

    assert outsider.pk not in {r.membership.user_id for r in rows}
