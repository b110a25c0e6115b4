from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trainer.classes import factories as f
from trainer.classes import selectors, services

pytestmark = pytest.mark.django_db


def _completion(student, assignment):
    assignment = selectors.assignments_of(assignment.classroom).get(pk=assignment.pk)
    return selectors.completions_for_student(student=student, assignments=[assignment])[
        assignment.pk
    ]


def test_classes_taught_by_lists_only_classes_the_user_teaches():
    teacher = f.user()
    mine = f.classroom(teacher, name="Mine")
    other = f.classroom(name="Theirs")
    f.student_in(other, teacher)

    assert list(selectors.classes_taught_by(teacher)) == [mine]
    assert list(selectors.classes_of_student(teacher)) == [other]
    assert set(selectors.classes_of(teacher)) == {mine, other}


def test_assignments_visible_to_a_user_are_those_of_their_classes():
    room = f.classroom()
    student = f.student_in(room)
    mine = f.built(room)
    f.built(f.classroom())

    assert list(selectors.assignments_visible_to(student)) == [mine]


def test_answering_an_assignment_drill_counts_towards_it():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    first = assignment.drills.order_by("position").first()

    f.answer_drill(student, first, correct=True)

    completion = _completion(student, assignment)
    assert (completion.answered, completion.right, completion.total) == (1, 1, 2)
    assert completion.accuracy == 1.0


def test_only_the_first_answer_to_a_drill_decides_whether_it_was_right():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    drill = assignment.drills.first()

    f.answer_drill(student, drill, correct=False)
    f.answer_drill(student, drill, correct=True)

    completion = _completion(student, assignment)
    assert (completion.answered, completion.right) == (1, 0)


def test_answers_from_before_the_assignment_do_not_count():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    drill = assignment.drills.first()

    f.answer_drill(student, drill, now=assignment.created_at - timedelta(minutes=1))

    assert _completion(student, assignment).answered == 0


def test_the_same_seed_with_other_params_does_not_count():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    drill = assignment.drills.first()

    f.answer(student, kind=drill.kind, seed=drill.seed)  # no items: another drill

    assert _completion(student, assignment).answered == 0


def test_answers_of_someone_outside_the_class_do_not_count():
    room = f.classroom()
    assignment = f.built(room)
    outsider = f.user()
    f.answer_drill(outsider, assignment.drills.first())

    rows = selectors.assignment_completions(
        assignment=selectors.assignments_of(room).get(pk=assignment.pk)
    )

    assert rows == []


def test_drill_statuses_give_each_drill_with_the_first_answer():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    _first, second = assignment.drills.order_by("position")
    wrong = f.answer_drill(student, second, correct=False)
    f.answer_drill(student, second, correct=True)

    statuses = selectors.drill_statuses(
        assignment=assignment, student=student, next_path="/classes/assignments/1/next/"
    )

    assert [s.answered for s in statuses] == [False, True]
    assert statuses[1].first == wrong
    assert "next=%2Fclasses%2Fassignments%2F1%2Fnext%2F%3Fafter%3D1" in statuses[0].url


def test_drill_urls_spell_out_the_convention_and_rule():
    room = f.classroom()
    drill = f.built(room).drills.first()

    url = drill.url()

    assert url.startswith(f"/drills/checklist/{drill.seed}/?items=fours&")
    assert "convention=parlett-2008" in url
    assert "rule=classic" in url


def test_next_unanswered_goes_forward_and_wraps_round():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room, count=2)  # four drills
    drills = list(assignment.drills.order_by("position"))
    f.answer_drill(student, drills[2])

    statuses = selectors.drill_statuses(assignment=assignment, student=student)

    assert selectors.next_unanswered(statuses).drill == drills[0]
    assert selectors.next_unanswered(statuses, after=1).drill == drills[1]
    assert selectors.next_unanswered(statuses, after=2).drill == drills[3]
    assert selectors.next_unanswered(statuses, after=4).drill == drills[0]


def test_next_unanswered_is_none_when_all_are_answered():
    room = f.classroom()
    student = f.student_in(room)
    assignment = f.built(room)
    for d in assignment.drills.all():
        f.answer_drill(student, d)

    statuses = selectors.drill_statuses(assignment=assignment, student=student)

    assert selectors.next_unanswered(statuses) is None


def test_open_assignments_leave_out_finished_work_and_archived_classes():
    room = f.classroom()
    student = f.student_in(room)
    done = f.built(room, title="Done", count=1, items=("fours",))
    pending = f.built(
        room, title="Pending", base_seed=5000, due_on=timezone.localdate() + timedelta(days=1)
    )
    f.answer_drill(student, done.drills.get())
    archived = f.classroom(name="Old")
    f.student_in(archived, student)
    f.built(archived, title="Old work")
    services.classroom_archive(classroom=archived, by=f.teacher_of(archived))

    found = selectors.open_assignments_for(student=student)

    assert [o.assignment for o in found] == [pending]
    assert found[0].completion.total == 2


def test_open_assignments_of_a_teacher_are_empty():
    room = f.classroom()
    f.built(room)

    assert selectors.open_assignments_for(student=f.teacher_of(room)) == []


def test_dashboard_gives_students_by_assignments():
    room = f.classroom()
    ann, bob = f.student_in(room, f.user("ann")), f.student_in(room, f.user("bob"))
    first = f.built(room, title="First")
    second = f.built(room, title="Second", base_seed=9000, items=("threes",))
    d1, d2 = first.drills.order_by("position")
    f.answer_drill(ann, d1, correct=True)
    f.answer_drill(ann, d2, correct=False)
    f.answer_drill(bob, second.drills.get(), correct=True)

    board = selectors.dashboard_for(classroom=room)

    assert [a.title for a in board.assignments] == ["First", "Second"]
    assert [r.user.username for r in board.students] == ["ann", "bob"]
    ann_row, bob_row = board.students
    assert [(c.answered, c.right, c.total) for c in ann_row.completions] == [
        (1 + 1, 1, 2),
        (0, 0, 1),
    ]
    assert [(c.answered, c.total) for c in bob_row.completions] == [(0, 2), (1, 1)]
    assert bob_row.assignments_done == 1
    overall = ann_row.overall
    assert (overall.answered, overall.right, overall.total) == (2, 1, 3)


def test_dashboard_leaves_out_free_practice():
    room = f.classroom()
    student = f.student_in(room)
    f.built(room)
    f.answer(student, seed=4)

    board = selectors.dashboard_for(classroom=room)

    assert board.students[0].overall.answered == 0
    assert board.skills == []


def test_weakest_skills_rank_first_answers_lowest_accuracy_first():
    room = f.classroom()
    students = [f.student_in(room) for _ in range(3)]
    work = f.built(room, items=("fours", "threes", "one_pair"), count=2)
    drills = {d.drill_params.items[0]: [] for d in work.drills.all()}
    for d in work.drills.all():
        drills[d.drill_params.items[0]].append(d)
    for n, who in enumerate(students):
        for d in drills["fours"]:
            f.answer_drill(who, d, correct=n == 0)  # 2 of 6 right
        for d in drills["threes"]:
            f.answer_drill(who, d, correct=n != 0)  # 4 of 6 right
            f.answer_drill(who, d, correct=True)  # a replay does not count
        for d in drills["one_pair"]:
            f.answer_drill(who, d, correct=True)  # all right: not weak

    board = selectors.dashboard_for(classroom=room)

    assert [(s.skill, s.answers, s.right, s.students) for s in board.weakest] == [
        ("fours", 6, 2, 3),
        ("threes", 6, 4, 3),
    ]


def test_a_skill_needs_enough_answers_to_be_ranked():
    room = f.classroom()
    student = f.student_in(room)
    work = f.built(room, items=("fours",), count=2)
    for d in work.drills.all():
        f.answer_drill(student, d, correct=False)

    board = selectors.dashboard_for(classroom=room)

    assert [s.answers for s in board.skills] == [2]
    assert board.weakest == []


def test_student_history_holds_answers_since_joining_newest_first():
    room = f.classroom()
    student = f.user()
    f.answer(student, seed=1, now=timezone.now() - timedelta(days=1))
    f.student_in(room, student)
    older = f.answer(student, seed=2, correct=False)
    newer = f.answer(student, seed=3)
    membership = room.memberships.get(user=student)

    assert list(selectors.student_history(membership=membership)) == [newer, older]
    assert list(selectors.student_history(membership=membership, mistakes_only=True)) == [older]
    assert selectors.student_totals(membership=membership) == (2, 1)
