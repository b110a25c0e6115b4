"""The demo data (seeds/demo/) and seeding the whole seeds/ folder."""

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import override_settings

from engine.drills import DrillAddress, grade, make_drill_at
from trainer.classes.models import Assignment, ClassMembership, Classroom
from trainer.clubs import selectors
from trainer.clubs.models import Club
from trainer.drills.models import DrillSet, DrillSetEntry
from trainer.learn.models import Lesson
from trainer.progress.models import Attempt, SkillState
from trainer.progress.services import answer_checked

pytestmark = pytest.mark.django_db
DEMO_USERS = ["organiser", "teacher", "student1", "student2", "student3"]
#: Every lesson file is loaded: the seven of the onboarding path and the ones outside it.
LESSON_FILES = len(list((django_settings.BASE_DIR / "seeds" / "lessons").rglob("*.md")))


def _counts() -> dict[str, int]:
    models = [
        get_user_model(),
        Club,
        Classroom,
        ClassMembership,
        Assignment,
        Attempt,
        SkillState,
        DrillSet,
        DrillSetEntry,
        Lesson,
    ]
    return {m.__name__: m.objects.count() for m in models}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo data, seeded once for this module's tests (each test's own writes are rolled
    back) and removed after them."""
    with (
        django_db_blocker.unblock(),
        override_settings(TRAINER_DEMO_DATA=True),
    ):
        call_command("seed", verbosity=0)
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(autouse=True)
def _demo_settings(settings):
    settings.TRAINER_DEMO_DATA = True


def test_seeding_everything_twice_changes_nothing(demo):
    before = _counts()

    call_command("seed")

    assert _counts() == before
    assert before["Lesson"] == LESSON_FILES and before["DrillSet"] >= 12


def test_demo_users_sign_in_with_the_documented_password(demo):
    for username in DEMO_USERS:
        assert authenticate(username=username, password="concerto-demo") is not None


def test_demo_club_has_an_organiser_and_four_members(demo):
    club = Club.objects.get(slug="riverside")

    roles = dict(club.memberships.values_list("user__username", "role"))

    assert roles == {
        "organiser": "organiser",
        "teacher": "member",
        "student1": "member",
        "student2": "member",
        "student3": "member",
    }


def test_demo_class_has_its_teacher_students_and_assignment(demo):
    classroom = Classroom.objects.get(name="Tuesday beginners")

    roles = dict(classroom.memberships.values_list("user__username", "role"))

    assert roles == {
        "teacher": "teacher",
        "student1": "student",
        "student2": "student",
        "student3": "student",
    }
    slugs = set(classroom.assignments.values_list("drill_set__slug", flat=True))
    assert slugs == {"weak-signals", "contribution-scoring"}


def test_demo_members_stand_at_different_steps(demo):
    rows = selectors.members_path(club=Club.objects.get(slug="riverside"))

    positions = {r.membership.user.username: r.passed_count for r in rows}

    assert positions == {"organiser": 7, "teacher": 3, "student1": 2, "student2": 1, "student3": 0}


def test_every_demo_answer_is_graded_by_the_engine(demo):
    attempts = list(Attempt.objects.all())
    assert len(attempts) > 150
    for attempt in attempts:
        drill = make_drill_at(DrillAddress.of(attempt.kind, attempt.seed, attempt.params))
        answer = _parse(drill, attempt.answer)
        assert grade(drill, answer).correct == attempt.correct


def _parse(drill, text: str):
    return answer_checked(drill, text)


def test_the_demo_class_dashboard_shows_the_students_work(demo):
    from trainer.classes import selectors as class_selectors

    classroom = Classroom.objects.get(name="Tuesday beginners")
    dashboard = class_selectors.dashboard_for(classroom=classroom)
    answered = {
        row.membership.user.username: row.completions[0].answered for row in dashboard.students
    }
    assert answered["student1"] > 0 and answered["student2"] > 0


def test_demo_class_shows_a_weakest_skills_pattern(demo):
    from trainer.classes.selectors import dashboard_for

    dashboard = dashboard_for(classroom=Classroom.objects.get(name="Tuesday beginners"))
    weakest = {(s.kind, s.skill) for s in dashboard.weakest}
    assert {("score", "fours"), ("score", "straight_flush")} <= weakest


def test_demo_students_have_display_names(demo):
    from trainer.core.people import display_name

    assert display_name(get_user_model().objects.get(username="student1")) == "Ana B."
