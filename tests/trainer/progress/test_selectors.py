from datetime import timedelta

import pytest
from django.utils import timezone

from engine.drills import DrillParams
from tests.trainer import factories
from trainer.progress import selectors
from trainer.progress.models import SOURCE_PLAY

pytestmark = pytest.mark.django_db


def test_progress_reads_only_the_given_users_data():
    me, other = factories.user(), factories.user()
    factories.answer(me, correct=True)
    for _ in range(3):
        factories.answer(other, correct=False)
    progress = selectors.progress_for(user=me)
    assert progress.total_attempts == 1 and progress.total_correct == 1
    assert all(a.user_id == me.pk for a in progress.failed)


def test_weakest_skills_rank_worst_recent_accuracy_first():
    me = factories.user()
    for ok in (True, True, True):
        factories.answer(me, correct=ok, params=DrillParams(items=("fours",)))
    for ok in (False, False, True):
        factories.answer(me, correct=ok, params=DrillParams(items=("two_pair",)))
    for ok in (False, True, True):
        factories.answer(me, correct=ok, params=DrillParams(items=("one_pair",)))
    weakest = selectors.progress_for(user=me).weakest
    assert [r.skill for r in weakest] == ["two_pair", "one_pair"]


def test_failed_drills_drop_once_answered_right_and_list_each_drill_once():
    me = factories.user()
    start = timezone.now() - timedelta(minutes=10)
    factories.answer(me, seed=1, correct=False, now=start)
    factories.answer(me, seed=1, correct=False, now=start + timedelta(minutes=1))
    factories.answer(me, seed=2, correct=False, now=start + timedelta(minutes=2))
    factories.answer(me, seed=2, correct=True, now=start + timedelta(minutes=3))
    failed = selectors.failed_drills(user=me)
    assert [a.seed for a in failed] == [1]


def test_failed_drills_leave_out_answers_made_in_play():
    me = factories.user()
    wrong = factories.answer(me, seed=5, correct=False)
    wrong.source = SOURCE_PLAY
    wrong.save(update_fields=["source"])
    factories.answer(me, seed=6, correct=False)
    assert [a.seed for a in selectors.failed_drills(user=me)] == [6]


def test_streak_counts_consecutive_days_up_to_today():
    me = factories.user()
    now = timezone.now()
    for days_ago in (0, 1, 2, 4):
        factories.answer(me, seed=days_ago, now=now - timedelta(days=days_ago))
    assert selectors.streak_days(user=me, today=timezone.localdate(now)) == 3


def test_streak_is_zero_after_a_missed_day():
    me = factories.user()
    now = timezone.now()
    factories.answer(me, now=now - timedelta(days=3))
    assert selectors.streak_days(user=me, today=timezone.localdate(now)) == 0


def test_accuracy_by_day_groups_answers():
    me = factories.user()
    now = timezone.now()
    factories.answer(me, seed=1, correct=True, now=now)
    factories.answer(me, seed=2, correct=False, now=now)
    days = selectors.accuracy_by_day(user=me, now=now)
    assert len(days) == 1 and days[0].attempts == 2 and days[0].accuracy == 0.5


def test_due_skills_come_most_overdue_first():
    me = factories.user()
    now = timezone.now()
    factories.answer(
        me, correct=False, now=now - timedelta(days=2), params=DrillParams(items=("fours",))
    )
    factories.answer(
        me, correct=False, now=now - timedelta(days=1), params=DrillParams(items=("two_pair",))
    )
    assert [s.skill for s in selectors.due_skills(user=me)] == ["fours", "two_pair"]


def test_play_figures_count_each_users_answers_in_play_from_a_moment_on():
    """The one play-figures selector: the play page asks for a learner's all-time figures,
    a class dashboard for each student's since joining."""
    import uuid

    from trainer.core.playlog import PlayFigures
    from trainer.play.models import Game
    from trainer.progress.services import Graded, attempt_store

    me, other = factories.user(), factories.user()
    now = timezone.now()

    def played(who, kind: str, correct: bool, at) -> None:
        game = Game.objects.create(owner=who, setup={})
        attempt_store(
            user=who,
            token=uuid.uuid4(),
            graded=Graded(kind, "fours", "x", correct, game_id=game.pk),
            now=at,
        )

    played(me, "lead", True, now - timedelta(days=2))
    played(me, "lead", False, now)
    played(me, "read", True, now)
    played(other, "read", False, now)
    factories.answer(me, correct=True)  # a drill answer, not one given in play
    every = selectors.play_figures({me.pk: None, other.pk: None})
    assert every == {me.pk: PlayFigures(2, 1, 1, 1), other.pk: PlayFigures(0, 0, 1, 0)}
    recent = selectors.play_figures({me.pk: now - timedelta(days=1), other.pk: now})
    assert recent == {me.pk: PlayFigures(1, 0, 1, 1), other.pk: PlayFigures(0, 0, 1, 0)}
    later = now + timedelta(minutes=1)
    assert selectors.play_figures({me.pk: later}) == {me.pk: PlayFigures()}
    assert selectors.play_figures({}) == {}
    assert PlayFigures().answers == 0 and PlayFigures().accuracy is None
