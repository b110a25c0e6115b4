import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.drills import DrillParams, make_drill, parse_answer
from tests.trainer import factories
from trainer.progress import services
from trainer.progress.models import Attempt, SkillState

pytestmark = pytest.mark.django_db


def _record(user, drill, option, token=None, now=None):
    ans = parse_answer(drill, {"option": option})
    recorded = services.attempt_record(
        user=user,
        drill=drill,
        answer=ans,
        showing=services.Showing(token or uuid.uuid4(), 0),
        now=now,
    )
    return recorded.attempt, recorded.created


def test_an_answer_is_recorded_with_its_drill_and_verdict():
    user = factories.user()
    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    attempt, created = _record(user, drill, "fours")
    assert created
    assert (attempt.kind, attempt.skill, attempt.seed, attempt.correct) == (
        "checklist",
        "fours",
        3,
        True,
    )
    assert attempt.params == "items=fours&v=2"


def test_posting_the_same_showing_twice_records_it_once():
    user = factories.user()
    drill = make_drill("checklist", 3)
    token = uuid.uuid4()
    first, _ = _record(user, drill, factories.right_option(drill), token)
    again, created = _record(user, drill, factories.wrong_option(drill), token)
    assert not created and again.pk == first.pk and again.correct
    assert Attempt.objects.count() == 1
    assert SkillState.objects.get().attempts == 1


def test_replaying_a_drill_later_is_a_new_attempt():
    user = factories.user()
    drill = make_drill("checklist", 3)
    _record(user, drill, factories.wrong_option(drill))
    _record(user, drill, factories.right_option(drill))
    assert Attempt.objects.filter(user=user).count() == 2


def test_skill_counters_and_recent_window():
    user = factories.user()
    for i in range(12):
        factories.answer(user, seed=1, correct=i % 3 != 0, params=DrillParams(items=("two_pair",)))
    state = SkillState.objects.get(user=user, kind="checklist", skill="two_pair")
    assert state.attempts == 12 and state.correct == 8
    assert len(state.recent) == 10
    assert state.recent_accuracy == pytest.approx(state.recent.count("1") / 10)


def test_a_wrong_answer_comes_back_sooner_than_a_right_one():
    now = timezone.now()
    wrong_user, right_user = factories.user(), factories.user()
    factories.answer(wrong_user, correct=False, now=now)
    factories.answer(right_user, correct=True, now=now)
    wrong = SkillState.objects.get(user=wrong_user)
    right = SkillState.objects.get(user=right_user)
    assert wrong.due < right.due
    assert wrong.due - now <= timedelta(hours=1)


def test_a_run_of_right_answers_pushes_the_review_days_away():
    user = factories.user()
    now = timezone.now()
    for day in range(4):
        state_now = now + timedelta(days=day * 3)
        factories.answer(user, correct=True, now=state_now)
    state = SkillState.objects.get(user=user)
    assert state.due - state.last_seen > timedelta(days=1)


def test_the_service_grades_the_answer_itself():
    user = factories.user()
    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    wrong = parse_answer(drill, {"option": factories.wrong_option(drill)})

    recorded = services.attempt_record(
        user=user,
        drill=drill,
        answer=wrong,
        showing=services.Showing(uuid.uuid4(), 0),
    )

    assert not recorded.grade.correct and not recorded.attempt.correct
    assert user.skill_states.get().correct == 0


def test_an_answer_that_does_not_fit_the_drill_is_refused():
    from engine.drills import Answer
    from engine.errors import ConcertoError

    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    with pytest.raises(ConcertoError):
        services.attempt_record(
            user=factories.user(),
            drill=drill,
            answer=Answer(option="not-an-option"),
            showing=services.Showing(uuid.uuid4(), 0),
        )
    assert not Attempt.objects.exists()


def test_a_visitors_answer_is_graded_and_not_kept():
    from django.contrib.auth.models import AnonymousUser

    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    right = parse_answer(drill, {"option": factories.right_option(drill)})
    recorded = services.attempt_record(
        user=AnonymousUser(),
        drill=drill,
        answer=right,
        showing=services.Showing(uuid.uuid4(), 0),
    )
    assert recorded.grade.correct and recorded.attempt is None
    assert not Attempt.objects.exists()
