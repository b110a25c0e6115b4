"""Who may see and change what: each boundary is one test. A guessed id gives 404, not data."""

from collections import Counter
from datetime import UTC, datetime

import pytest
from django.test import Client

from tests.trainer.classes import factories as f
from trainer.classes import ratelimit
from trainer.classes.models import (
    JOIN_CODE_ALPHABET,
    Assignment,
    ClassMembership,
    Classroom,
    new_join_code,
)

pytestmark = pytest.mark.django_db

TEACHER_PAGES = [
    "/classes/{pk}/dashboard/",
    "/classes/{pk}/export.csv",
    "/classes/{pk}/assignments/new/",
]
TEACHER_POSTS = [
    "/classes/{pk}/archive/",
    "/classes/{pk}/restore/",
    "/classes/{pk}/join-code/",
    "/classes/{pk}/teachers/add/",
]


@pytest.fixture
def two_classes():
    """Class A (teacher ta, students sa and shared) and class B (teacher tb, student sb;
    ``shared`` is in both)."""
    ta, tb = f.user("ta"), f.user("tb")
    a, b = f.classroom(ta, name="Class A"), f.classroom(tb, name="Class B")
    sa, sb, shared = f.student_in(a, f.user("sa")), f.student_in(b, f.user("sb")), f.user("sh")
    f.student_in(a, shared)
    f.student_in(b, shared)
    return {
        "a": a,
        "b": b,
        "ta": ta,
        "tb": tb,
        "sa": sa,
        "sb": sb,
        "shared": shared,
        "work_a": f.built(a, title="A work"),
        "work_b": f.built(b, title="B work", base_seed=7000),
    }


def _as(client, who):
    client.force_login(who)
    return client


@pytest.mark.parametrize("path", ["/classes/{pk}/", *TEACHER_PAGES])
def test_a_student_cannot_open_a_class_they_are_not_in(client, two_classes, path):
    response = _as(client, two_classes["sa"]).get(path.format(pk=two_classes["b"].pk))

    assert response.status_code == 404


@pytest.mark.parametrize("path", TEACHER_PAGES)
def test_a_student_cannot_open_the_teacher_pages_of_their_own_class(client, two_classes, path):
    response = _as(client, two_classes["sa"]).get(path.format(pk=two_classes["a"].pk))

    assert response.status_code == 404


@pytest.mark.parametrize("path", ["/classes/{pk}/", *TEACHER_PAGES])
def test_a_teacher_cannot_open_another_teachers_class(client, two_classes, path):
    response = _as(client, two_classes["ta"]).get(path.format(pk=two_classes["b"].pk))

    assert response.status_code == 404


@pytest.mark.parametrize("path", TEACHER_POSTS)
def test_a_teacher_cannot_change_another_teachers_class(client, two_classes, path):
    b = two_classes["b"]
    code = b.join_code

    response = _as(client, two_classes["ta"]).post(path.format(pk=b.pk), {"username": "ta"})

    assert response.status_code == 404
    b.refresh_from_db()
    assert (b.join_code, b.is_archived) == (code, False)
    assert not ClassMembership.objects.filter(classroom=b, user=two_classes["ta"]).exists()


@pytest.mark.parametrize("path", TEACHER_POSTS)
def test_a_student_cannot_change_their_own_class(client, two_classes, path):
    a = two_classes["a"]

    response = _as(client, two_classes["sa"]).post(path.format(pk=a.pk), {"username": "sa"})

    assert response.status_code == 404
    assert ClassMembership.objects.get(classroom=a, user=two_classes["sa"]).role == "student"


def test_a_student_cannot_remove_a_classmate(client, two_classes):
    a = two_classes["a"]

    response = _as(client, two_classes["sa"]).post(
        f"/classes/{a.pk}/students/{two_classes['shared'].pk}/remove/"
    )

    assert response.status_code == 404
    assert ClassMembership.objects.filter(classroom=a, user=two_classes["shared"]).exists()


def test_a_teacher_cannot_remove_a_student_of_another_class(client, two_classes):
    response = _as(client, two_classes["ta"]).post(
        f"/classes/{two_classes['a'].pk}/students/{two_classes['sb'].pk}/remove/"
    )

    assert response.status_code == 404
    assert ClassMembership.objects.filter(user=two_classes["sb"]).exists()


def test_a_teacher_sees_a_student_only_through_their_own_class(client, two_classes):
    c = _as(client, two_classes["ta"])
    shared = two_classes["shared"]

    assert c.get(f"/classes/{two_classes['a'].pk}/students/{shared.pk}/").status_code == 200
    assert c.get(f"/classes/{two_classes['b'].pk}/students/{shared.pk}/").status_code == 404
    assert (
        c.get(f"/classes/{two_classes['a'].pk}/students/{two_classes['sb'].pk}/").status_code == 404
    )


def test_a_teacher_cannot_open_a_co_teacher_as_a_student(client, two_classes):
    a = two_classes["a"]

    response = _as(client, two_classes["ta"]).get(
        f"/classes/{a.pk}/students/{two_classes['ta'].pk}/"
    )

    assert response.status_code == 404


def test_a_student_cannot_see_a_classmates_answers(client, two_classes):
    a = two_classes["a"]

    response = _as(client, two_classes["sa"]).get(
        f"/classes/{a.pk}/students/{two_classes['shared'].pk}/"
    )

    assert response.status_code == 404


def test_a_student_never_sees_a_classmates_name_or_progress(client, two_classes):
    a = two_classes["a"]
    f.answer_drill(two_classes["shared"], two_classes["work_a"].drills.first())
    c = _as(client, two_classes["sa"])

    for path in (
        f"/classes/{a.pk}/",
        f"/classes/assignments/{two_classes['work_a'].pk}/",
        "/",
        "/classes/",
    ):
        assert "sh</" not in c.get(path).text
        assert ">sh<" not in c.get(path).text


def test_the_teachers_dashboard_leaves_out_other_classes_students(client, two_classes):
    response = _as(client, two_classes["ta"]).get(f"/classes/{two_classes['a'].pk}/dashboard/")

    assert ">sa<" in response.text
    assert ">sb<" not in response.text
    assert "B work" not in response.text


def test_a_teacher_does_not_see_answers_from_before_the_student_joined(client):
    from datetime import timedelta

    from django.utils import timezone

    room = f.classroom()
    student = f.user()
    f.answer(student, seed=11, now=timezone.now() - timedelta(days=3))
    f.student_in(room, student)
    client.force_login(f.teacher_of(room))

    response = client.get(f"/classes/{room.pk}/students/{student.pk}/")

    assert "#11<" not in response.text
    assert "No answers since joining." in response.text


@pytest.mark.parametrize("suffix", ["", "next/"])
def test_guessing_an_assignment_id_gives_404(client, two_classes, suffix):
    c = _as(client, two_classes["sa"])

    response = c.get(f"/classes/assignments/{two_classes['work_b'].pk}/{suffix}")

    assert response.status_code == 404


def test_a_teacher_cannot_withdraw_another_classes_assignment(client, two_classes):
    work_b = two_classes["work_b"]

    response = _as(client, two_classes["ta"]).post(f"/classes/assignments/{work_b.pk}/delete/")

    assert response.status_code == 404
    assert Assignment.objects.filter(pk=work_b.pk).exists()


def test_a_student_cannot_withdraw_an_assignment(client, two_classes):
    work_a = two_classes["work_a"]

    response = _as(client, two_classes["sa"]).post(f"/classes/assignments/{work_a.pk}/delete/")

    assert response.status_code == 404
    assert Assignment.objects.filter(pk=work_a.pk).exists()


def test_ids_that_do_not_exist_give_404(client, two_classes):
    c = _as(client, two_classes["ta"])

    for path in (
        "/classes/999999/",
        "/classes/999999/dashboard/",
        "/classes/assignments/999999/",
        "/classes/999999/export.csv",
    ):
        assert c.get(path).status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/classes/{pk}/archive/",
        "/classes/{pk}/restore/",
        "/classes/{pk}/join-code/",
        "/classes/{pk}/teachers/add/",
        "/classes/{pk}/leave/",
        "/classes/{pk}/students/{uid}/remove/",
        "/classes/assignments/{aid}/delete/",
    ],
)
def test_writes_refuse_get(client, two_classes, path):
    a = two_classes["a"]
    url = path.format(pk=a.pk, uid=two_classes["sa"].pk, aid=two_classes["work_a"].pk)

    response = _as(client, two_classes["ta"]).get(url)

    assert response.status_code == 405
    assert ClassMembership.objects.filter(classroom=a, user=two_classes["sa"]).exists()


def test_writes_need_a_csrf_token(two_classes):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(two_classes["ta"])
    a = two_classes["a"]

    refused = [
        strict.post("/classes/new/", {"name": "Forged"}),
        strict.post(f"/classes/{a.pk}/archive/"),
        strict.post(f"/classes/{a.pk}/students/{two_classes['sa'].pk}/remove/"),
        strict.post("/classes/join/", {"code": two_classes["b"].join_code}),
    ]

    assert [r.status_code for r in refused] == [403, 403, 403, 403]
    assert not Classroom.objects.filter(name="Forged").exists()
    assert not Classroom.objects.get(pk=a.pk).is_archived
    assert ClassMembership.objects.filter(classroom=a, user=two_classes["sa"]).exists()


def test_forms_carry_a_csrf_token(client, two_classes):
    response = _as(client, two_classes["ta"]).get(f"/classes/{two_classes['a'].pk}/")

    assert response.text.count('name="csrfmiddlewaretoken"') >= 4


def test_anonymous_visitors_are_sent_to_log_in(client, two_classes):
    a = two_classes["a"]

    for path in (
        "/classes/",
        f"/classes/{a.pk}/",
        f"/classes/{a.pk}/dashboard/",
        f"/classes/{a.pk}/export.csv",
        f"/classes/assignments/{two_classes['work_a'].pk}/",
    ):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


# --- Join codes ----------------------------------------------------------------------------


def test_join_codes_are_random_and_long():
    codes = {new_join_code() for _ in range(2000)}

    assert len(codes) == 2000
    assert all(len(c) >= 10 and set(c) <= set(JOIN_CODE_ALPHABET) for c in codes)
    # Every letter of the alphabet is drawn, in every place, about equally often: the codes
    # use the whole space (31 letters in at least 10 places), not a corner of it.
    letters = Counter("".join(codes))
    expected = sum(letters.values()) / len(JOIN_CODE_ALPHABET)
    assert set(letters) == set(JOIN_CODE_ALPHABET)
    assert all(0.7 * expected < n < 1.3 * expected for n in letters.values()), letters
    for place in range(10):
        assert len({c[place] for c in codes}) == len(JOIN_CODE_ALPHABET)


def test_the_join_code_length_is_a_setting(settings):
    settings.CLASSES_JOIN_CODE_LENGTH = 14

    assert len(new_join_code()) == 14


def test_failed_joins_are_rate_limited_per_user(client, settings):
    settings.CLASSES_JOIN_MAX_FAILURES = 3
    room = f.classroom()
    me = f.user()
    client.force_login(me)

    tries = [client.post("/classes/join/", {"code": f"WRONG{n:05d}"}).status_code for n in range(3)]
    blocked = client.post("/classes/join/", {"code": room.join_code})

    assert tries == [200, 200, 200]
    assert blocked.status_code == 429
    assert "Too many codes" in blocked.text
    assert not ClassMembership.objects.filter(user=me).exists()


def test_the_limit_counts_join_links_too(client, settings):
    settings.CLASSES_JOIN_MAX_FAILURES = 2
    client.force_login(f.user())

    statuses = [client.get(f"/classes/join/WRONG{n:05d}/").status_code for n in range(3)]

    assert statuses == [404, 404, 429]


def test_the_rate_limit_is_also_per_address(client, settings):
    settings.CLASSES_JOIN_MAX_FAILURES_PER_IP = 2
    for n in range(2):
        client.force_login(f.user())
        client.post("/classes/join/", {"code": f"WRONG{n:05d}"}, REMOTE_ADDR="10.0.0.7")
    client.force_login(f.user())

    from_there = client.post("/classes/join/", {"code": "WRONG99999"}, REMOTE_ADDR="10.0.0.7")
    elsewhere = client.post("/classes/join/", {"code": "WRONG99999"}, REMOTE_ADDR="10.0.0.8")

    assert from_there.status_code == 429
    assert elsewhere.status_code == 200


def test_the_rate_limit_window_closes(settings, time_machine):
    # The clock is moved, not waited on: the window closes on the limiter's own clock.
    time_machine.move_to(datetime(2026, 12, 1, 12, tzinfo=UTC), tick=False)
    settings.CLASSES_JOIN_MAX_FAILURES = 1
    settings.CLASSES_JOIN_WINDOW_SECONDS = 60
    ratelimit.join_failed(user_id=1, ip="10.1.1.1")
    assert ratelimit.join_blocked(user_id=1, ip="10.1.1.1")

    time_machine.shift(59)
    assert ratelimit.join_blocked(user_id=1, ip="10.1.1.1")
    time_machine.shift(2)

    assert not ratelimit.join_blocked(user_id=1, ip="10.1.1.1")


def test_the_window_is_the_setting(settings, time_machine):
    time_machine.move_to(datetime(2026, 12, 1, 12, tzinfo=UTC), tick=False)
    settings.CLASSES_JOIN_MAX_FAILURES = 1
    settings.CLASSES_JOIN_WINDOW_SECONDS = 240
    ratelimit.join_failed(user_id=1, ip="10.1.1.1")

    time_machine.shift(120)  # longer than a one-minute window, shorter than this one

    assert ratelimit.join_blocked(user_id=1, ip="10.1.1.1")


def test_right_codes_do_not_count_against_the_limit(client, settings):
    settings.CLASSES_JOIN_MAX_FAILURES = 1
    rooms = [f.classroom() for _ in range(3)]
    client.force_login(f.user())

    statuses = [client.post("/classes/join/", {"code": r.join_code}).status_code for r in rooms]

    assert statuses == [302, 302, 302]
