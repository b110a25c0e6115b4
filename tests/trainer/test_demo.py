"""The demo data (seeds/demo/) and seeding the whole seeds/ folder."""

from urllib.parse import parse_qsl

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from engine.drills import DrillParams, grade, make_drill, parse_answer
from trainer.clubs import selectors
from trainer.models import (
    Assignment,
    Attempt,
    ClassMembership,
    Classroom,
    Club,
    DrillSet,
    DrillSetEntry,
    Lesson,
    SkillState,
)

pytestmark = pytest.mark.django_db
DEMO_USERS = ["organiser", "teacher", "student1", "student2", "student3"]
#: Every lesson file is loaded: the seven of the onboarding path and the ones outside it.
LESSON_FILES = len(list((django_settings.BASE_DIR / "seeds" / "lessons").glob("*.md")))


def _counts() -> dict[str, int]:
    models = [get_user_model(), Club, Classroom, ClassMembership, Assignment, Attempt,
              SkillState, DrillSet, DrillSetEntry, Lesson]
    return {m.__name__: m.objects.count() for m in models}


@pytest.fixture
def demo(settings):
    settings.TRAINER_DEMO_DATA = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("seed")


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

    assert roles == {"organiser": "organiser", "teacher": "member", "student1": "member",
                     "student2": "member", "student3": "member"}


def test_demo_class_has_its_teacher_students_and_assignment(demo):
    classroom = Classroom.objects.get(name="Tuesday beginners")

    roles = dict(classroom.memberships.values_list("user__username", "role"))

    assert roles == {"teacher": "teacher", "student1": "student", "student2": "student",
                     "student3": "student"}
    assert classroom.assignments.get().drill_set.slug == "weak-signals"


def test_demo_members_stand_at_different_steps(demo):
    rows = selectors.members_path(club=Club.objects.get(slug="riverside"))

    positions = {r.membership.user.username: r.passed_count for r in rows}

    assert positions == {"organiser": 7, "teacher": 3, "student1": 2, "student2": 1,
                         "student3": 0}


def test_every_demo_answer_is_graded_by_the_engine(demo):
    attempts = list(Attempt.objects.all())
    assert len(attempts) > 150
    for attempt in attempts:
        drill = make_drill(attempt.kind, attempt.seed, _params(attempt.params))
        answer = _parse(drill, attempt.answer)
        assert grade(drill, answer).correct == attempt.correct


def test_no_demo_data_on_a_real_site(settings):
    settings.TRAINER_DEMO_DATA = False

    call_command("seed")

    assert not get_user_model().objects.filter(username__in=DEMO_USERS).exists()
    assert Lesson.objects.count() == LESSON_FILES


def _params(text: str):
    return DrillParams.from_query(dict(parse_qsl(text)))


def _parse(drill, text: str):
    if drill.kind == "lead":
        c1, c2 = text.split()
        return parse_answer(drill, {"c1": c1, "c2": c2})
    return parse_answer(drill, {"option": text})


@pytest.mark.django_db
def test_the_demo_class_dashboard_shows_the_students_work(settings):
    from trainer.classes import selectors as class_selectors
    from trainer.models import Classroom

    settings.TRAINER_DEMO_DATA = True
    call_command("seed", verbosity=0)
    classroom = Classroom.objects.get(name="Tuesday beginners")
    dashboard = class_selectors.dashboard_for(classroom=classroom)
    answered = {row.membership.user.username: row.completions[0].answered
                for row in dashboard.students}
    assert answered["student1"] > 0 and answered["student2"] > 0
