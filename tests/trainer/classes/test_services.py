from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.drills import DrillParams, make_drill
from tests.trainer.classes import factories as f
from trainer.classes import services
from trainer.classes.models import (
    JOIN_CODE_ALPHABET,
    Assignment,
    AssignmentDrill,
    ClassMembership,
    Classroom,
    format_join_code,
)
from trainer.classes.specs import BuiltSpec

pytestmark = pytest.mark.django_db
DUE = timezone.localdate() + timedelta(days=7)


def test_creating_a_class_makes_the_creator_its_teacher():
    teacher = f.user("tess")

    room = services.classroom_create(name="  Tuesday beginners ", teacher=teacher)

    assert room.name == "Tuesday beginners"
    assert ClassMembership.objects.get(classroom=room).role == "teacher"
    assert ClassMembership.objects.get(classroom=room).user == teacher


def test_a_class_needs_a_name():
    with pytest.raises(ValidationError):
        services.classroom_create(name="   ", teacher=f.user())


def test_join_codes_are_long_and_from_the_unambiguous_alphabet():
    room = f.classroom()

    assert len(room.join_code) >= 10
    assert set(room.join_code) <= set(JOIN_CODE_ALPHABET)
    assert not set("01ILO") & set(JOIN_CODE_ALPHABET)


def test_joining_ignores_case_dashes_and_spaces():
    room = f.classroom()
    student = f.user()
    typed = " " + format_join_code(room.join_code).lower().replace("-", " - ") + " "

    membership, created = services.classroom_join(code=typed, user=student)

    assert created
    assert membership.classroom == room
    assert membership.role == "student"


def test_joining_twice_changes_nothing():
    room = f.classroom()
    student = f.student_in(room)

    _, created = services.classroom_join(code=room.join_code, user=student)

    assert not created
    assert ClassMembership.objects.filter(classroom=room, user=student).count() == 1


def test_a_teacher_joining_their_own_class_stays_its_teacher():
    room = f.classroom()
    teacher = f.teacher_of(room)

    membership, created = services.classroom_join(code=room.join_code, user=teacher)

    assert not created
    assert membership.role == "teacher"


def test_an_unknown_code_is_refused_with_its_own_error_code():
    f.classroom()

    with pytest.raises(ValidationError) as exc:
        services.classroom_join(code="AAAA-BBBB-CC", user=f.user())

    assert exc.value.code == "unknown_code"


def test_an_archived_class_cannot_be_joined():
    room = f.classroom()
    services.classroom_archive(classroom=room, by=f.teacher_of(room))

    with pytest.raises(ValidationError) as exc:
        services.classroom_join(code=room.join_code, user=f.user())

    assert exc.value.code == "archived"


def test_a_teacher_removes_a_student():
    room = f.classroom()
    student = f.student_in(room)

    services.student_remove(classroom=room, student=student, by=f.teacher_of(room))

    assert not ClassMembership.objects.filter(classroom=room, user=student).exists()


def test_a_student_cannot_remove_another_student():
    room = f.classroom()
    first, second = f.student_in(room), f.student_in(room)

    with pytest.raises(PermissionDenied):
        services.student_remove(classroom=room, student=second, by=first)


def test_removing_a_teacher_as_a_student_is_refused():
    room = f.classroom()
    teacher = f.teacher_of(room)

    with pytest.raises(ValidationError):
        services.student_remove(classroom=room, student=teacher, by=teacher)


def test_a_teacher_adds_a_co_teacher_by_username():
    room = f.classroom()
    colleague = f.user("colleague")

    services.co_teacher_add(classroom=room, username="colleague", by=f.teacher_of(room))

    assert ClassMembership.objects.get(classroom=room, user=colleague).role == "teacher"


def test_a_co_teacher_must_have_an_account():
    room = f.classroom()

    with pytest.raises(ValidationError) as exc:
        services.co_teacher_add(classroom=room, username="nobody", by=f.teacher_of(room))

    assert exc.value.code == "unknown_user"


def test_a_student_of_the_class_is_not_made_a_teacher_silently():
    room = f.classroom()
    student = f.student_in(room, f.user("sam"))

    with pytest.raises(ValidationError) as exc:
        services.co_teacher_add(classroom=room, username="sam", by=f.teacher_of(room))

    assert exc.value.code == "is_student"
    assert ClassMembership.objects.get(classroom=room, user=student).role == "student"


def test_only_a_teacher_can_add_a_co_teacher():
    room = f.classroom()
    student = f.student_in(room)
    f.user("friend")

    with pytest.raises(PermissionDenied):
        services.co_teacher_add(classroom=room, username="friend", by=student)


def test_archiving_makes_the_class_read_only():
    room = f.classroom()
    teacher = f.teacher_of(room)
    services.classroom_archive(classroom=room, by=teacher)

    with pytest.raises(ValidationError):
        f.built(room)
    with pytest.raises(ValidationError):
        services.co_teacher_add(classroom=room, username=f.user().username, by=teacher)


def test_restoring_reopens_an_archived_class():
    room = f.classroom()
    teacher = f.teacher_of(room)
    services.classroom_archive(classroom=room, by=teacher)

    services.classroom_restore(classroom=room, by=teacher)

    assert not Classroom.objects.get(pk=room.pk).is_archived
    assert f.built(room).drills.count() == 2


def test_a_new_join_code_retires_the_old_one():
    room = f.classroom()
    old = room.join_code

    services.join_code_rotate(classroom=room, by=f.teacher_of(room))

    assert room.join_code != old
    with pytest.raises(ValidationError):
        services.classroom_join(code=old, user=f.user())


def test_a_student_can_leave_a_class():
    room = f.classroom()
    student = f.student_in(room)

    services.membership_leave(classroom=room, user=student)

    assert not ClassMembership.objects.filter(classroom=room, user=student).exists()


def test_the_last_teacher_cannot_leave():
    room = f.classroom()

    with pytest.raises(ValidationError) as exc:
        services.membership_leave(classroom=room, user=f.teacher_of(room))

    assert exc.value.code == "last_teacher"


def test_a_built_assignment_stores_its_spec_and_a_fixed_drill_list():
    room = f.classroom()

    assignment = f.built(
        room, kinds=("checklist", "score"), items=("fours", "two_pair"), count=2, base_seed=500
    )

    assert (assignment.kinds, assignment.items, assignment.count) == (
        "checklist,score",
        "fours,two_pair",
        2,
    )
    assert assignment.base_seed == 500
    drills = list(assignment.drills.values_list("position", "kind", "seed", "params"))
    assert len(drills) == 2 * 2 * 2
    assert drills[0] == (1, "checklist", 500, "items=fours&v=2")
    assert drills[1] == (2, "checklist", 501, "items=two_pair&v=2")
    assert drills[4] == (5, "score", 504, "items=fours&v=2")


def test_the_same_spec_and_base_seed_give_the_same_drills():
    spec = BuiltSpec(kinds=("read", "lead"), items=("threes",), count=3)

    assert spec.drills(base_seed=77) == spec.drills(base_seed=77)


def test_every_built_drill_can_be_made_by_the_engine():
    assignment = f.built(
        f.classroom(),
        kinds=("lead", "read", "checklist", "reply"),
        items=("fours", "one_pair"),
        count=2,
    )

    for d in assignment.drills.all():
        assert make_drill(d.kind, d.seed, d.drill_params).kind == d.kind


def test_a_spec_the_engine_cannot_build_is_refused_and_nothing_is_saved():
    room = f.classroom()

    with pytest.raises(ValidationError) as exc:
        f.built(room, kinds=("score",), items=("four_sf",))

    assert "straight flush" in exc.value.messages[0]
    assert not Assignment.objects.exists()


def test_an_oversized_spec_is_refused(settings):
    settings.CLASSES_ASSIGNMENT_MAX_DRILLS = 5

    with pytest.raises(ValidationError):
        f.built(f.classroom(), kinds=("checklist",), items=("fours", "threes"), count=3)


def test_no_items_means_drills_on_any_item():
    assignment = f.built(f.classroom(), items=(), count=3)

    assert list(assignment.drills.values_list("params", flat=True)) == ["v=2"] * 3


def test_a_drill_set_assignment_copies_the_sets_drills():
    ds = f.drill_set(entries=[("checklist", 5, "items=fours&v=2"), ("read", 9, "v=2")])
    room = f.classroom()

    assignment = services.assignment_create(
        classroom=room, by=f.teacher_of(room), title="Set", due_on=DUE, drill_set=ds
    )
    ds.entries.filter(position=1).update(seed=99)

    assert list(assignment.drills.values_list("kind", "seed", "params")) == [
        ("checklist", 5, "items=fours&v=2"),
        ("read", 9, "v=2"),
    ]
    assert assignment.source == "set"


def test_drill_set_params_are_made_canonical():
    ds = f.drill_set(entries=[("checklist", 5, "items=fours&convention=parlett-2008")])
    room = f.classroom()

    assignment = services.assignment_create(
        classroom=room, by=f.teacher_of(room), title="Set", due_on=DUE, drill_set=ds
    )

    params = assignment.drills.get().params
    assert params == DrillParams(items=("fours",)).key()


def test_only_teachers_set_assignments():
    room = f.classroom()
    student = f.student_in(room)

    with pytest.raises(PermissionDenied):
        services.assignment_create(
            classroom=room,
            by=student,
            title="Mine",
            due_on=DUE,
            spec=BuiltSpec(kinds=("checklist",)),
        )


def test_deleting_an_assignment_keeps_the_attempts():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    f.answer_drill(student, assignment.drills.first())

    services.assignment_delete(assignment=assignment, by=f.teacher_of(room))

    assert not AssignmentDrill.objects.exists()
    assert student.attempts.count() == 1


def test_the_database_refuses_a_second_membership():
    room = f.classroom()
    student = f.student_in(room)

    with pytest.raises(IntegrityError), transaction.atomic():
        ClassMembership.objects.create(classroom=room, user=student, role="teacher")


def test_the_database_refuses_a_short_join_code():
    with pytest.raises(IntegrityError), transaction.atomic():
        Classroom.objects.create(name="Weak", join_code="ABC")


def test_the_database_refuses_a_built_assignment_without_a_base_seed():
    room = f.classroom()

    with pytest.raises(IntegrityError), transaction.atomic():
        Assignment.objects.create(
            classroom=room, title="Broken", due_on=DUE, source="built", kinds="checklist", count=1
        )
