"""Issue #20, items 3 and 4: each accuracy on the dashboard is marked against the pass mark
(colour, a symbol and words, and a legend), not by how much is done; and a "needs help" list
names who is behind on work due soon or overdue, or below the pass mark in a skill, and why."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from tests.trainer.classes import factories as f
from trainer.classes import selectors, services
from trainer.classes.selectors import Band, Why, accuracy_band
from trainer.classes.specs import BuiltSpec

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 12, tzinfo=UTC)  # a Monday, noon


# --- Marks against the pass mark --------------------------------------------------------------


@pytest.mark.parametrize(
    ("right", "answers", "band"),
    [
        (8, 10, Band.GOOD),  # at the pass mark
        (199, 250, Band.GOOD),  # 79.6%, shown as 80%
        (10, 10, Band.GOOD),
        (13, 20, Band.WARNING),  # 65%: 15 points below
        (7, 10, Band.WARNING),
        (16, 25, Band.POOR),  # 64%
        (3, 7, Band.POOR),  # 43% — the report's example
        (0, 5, Band.POOR),
        (4, 4, Band.NEUTRAL),  # too few to judge, even all right
        (0, 0, Band.NEUTRAL),
    ],
)
def test_accuracy_is_judged_against_the_pass_mark(right, answers, band):
    assert selectors.PASS_MARK == 80 and selectors.WARNING_POINTS == 15
    assert selectors.MIN_JUDGED_ANSWERS == 5
    assert accuracy_band(right, answers) is band


def _cell(html: str, name: str, column: int = 0) -> str:
    row = re.search(rf'<th scope="row"[^>]*><a[^>]*>{name}</a></th>(.*?)</tr>', html, re.S)
    assert row is not None, name
    return re.findall(r"<td.*?</td>", row.group(1), re.S)[column]


def test_cells_are_coloured_by_accuracy_not_by_how_much_is_done(client):
    room = f.classroom()
    work = f.built(room, items=("fours",), count=10, title="Ten fours")
    drills = list(work.drills.order_by("position"))
    plan = {"ann": (7, 3), "bob": (10, 7), "cy": (10, 10), "dee": (2, 1)}  # answered, right
    for name, (answered, right) in plan.items():
        who = f.student_in(room, f.user(name))
        for n, d in enumerate(drills[:answered]):
            f.answer_drill(who, d, correct=n < right)
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/dashboard/").text

    ann = _cell(html, "ann")  # 7 of 10 done, 43% right: poor, whatever the progress
    assert 'data-band="poor"' in ann and "band-poor" in ann
    assert "✗" in ann and "(well below the pass mark)" in ann and "43%" in ann
    bob = _cell(html, "bob")  # all done, 70%: a warning, not "done" green
    assert 'data-band="warning"' in bob and "!" in bob and "(just below the pass mark)" in bob
    assert "cell-done" not in html
    cy = _cell(html, "cy")
    assert 'data-band="good"' in cy and "✓" in cy and "(at or above the pass mark)" in cy
    dee = _cell(html, "dee")  # 2 answers: shown, not judged
    assert 'data-band="neutral"' in dee
    assert "(too few answers to judge)" in dee and "✗" not in dee and "✓" not in dee
    assert 'data-band="poor"' in _cell(html, "ann", 1)  # the overall column too
    legend = html[html.index('class="band-legend"') :]
    legend = legend[: legend.index("</ul>")]
    for words in ("80% or more", "65% up to the pass mark", "under 65%", "fewer than 5 answers"):
        assert words in legend


def test_the_weakest_skills_are_marked_too(client):
    room = f.classroom()
    who = f.student_in(room)
    for d in f.built(room, items=("fours",), count=6).drills.all():
        f.answer_drill(who, d, correct=False)
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/dashboard/").text

    weakest = html[html.index('id="weakest-title"') :]
    assert 'data-band="poor"' in weakest and "0%" in weakest


# --- Needs help: work due soon or overdue ---------------------------------------------------


@pytest.fixture
def homework():
    """Four drills due a week after START; ann answered 1, bob 2 (half), cy all 4, dee none."""
    with time_machine.travel(START, tick=False):
        room = f.classroom()
        work = f.built(room, title="Homework", due_on=date(2026, 3, 9), count=2)
        drills = list(work.drills.order_by("position"))
        people = {}
        for name, answered in (("ann", 1), ("bob", 2), ("cy", 4), ("dee", 0)):
            who = f.student_in(room, f.user(name))
            people[name] = who
            for d in drills[:answered]:
                f.answer_drill(who, d, correct=True)
    return room, work, people


def _help(room) -> dict[str, list[str]]:
    board = selectors.dashboard_for(classroom=room)
    return {e.user.username: [r.why for r in e.reasons] for e in board.needs_help}


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(2026, 3, 1), {}),  # due in 8 days
        (date(2026, 3, 2), {"ann": [Why.DUE_SOON], "dee": [Why.DUE_SOON]}),  # in 7 days
        (date(2026, 3, 6), {"ann": [Why.DUE_SOON], "dee": [Why.DUE_SOON]}),  # in 3 days
        (date(2026, 3, 9), {"ann": [Why.DUE_SOON], "dee": [Why.DUE_SOON]}),  # due today
        (
            date(2026, 3, 10),  # a day late: anyone not done
            {"ann": [Why.OVERDUE], "bob": [Why.OVERDUE], "dee": [Why.OVERDUE]},
        ),
    ],
)
def test_behind_on_work_due_within_a_week_or_overdue(homework, day, expected):
    room, _, _ = homework
    assert selectors.DUE_SOON_DAYS == 7
    with time_machine.travel(datetime.combine(day, START.timetz()), tick=False):
        assert _help(room) == expected


def test_the_list_says_why_and_links_to_each_student(client, homework):
    room, work, people = homework
    with time_machine.travel(datetime(2026, 3, 7, 12, tzinfo=UTC), tick=False):
        client.force_login(f.teacher_of(room))
        html = client.get(f"/classes/{room.pk}/dashboard/").text

    section = html[html.index("data-needs-help") : html.index('id="progress-title"')]
    entries = re.findall(
        r'<li class="help-entry" data-student="(\d+)">(.*?)</ul>\s*</li>', section, re.S
    )
    assert [int(pk) for pk, _ in entries] == [people["ann"].pk, people["dee"].pk]
    ann = entries[0][1]
    assert f'href="/classes/{room.pk}/students/{people["ann"].pk}/"' in ann
    assert "Behind" in ann
    assert "“Homework”: 1 of 4 drills answered, due in 2 days" in ann
    assert "Students with work due within 7 days" in section
    # One click to act on it: the assignment itself.
    assert (
        f'<a class="help-action" href="/classes/assignments/{work.pk}/">Open the assignment' in ann
    )


def test_overdue_work_comes_first_and_says_how_late(client, homework):
    room, work, _ = homework
    with time_machine.travel(START + timedelta(days=1), tick=False):
        late = services.assignment_create(
            classroom=room,
            by=f.teacher_of(room),
            title="Due tomorrow",
            due_on=date(2026, 3, 4),
            spec=BuiltSpec(kinds=("checklist",), items=("threes",), count=1),
        )
    with time_machine.travel(datetime(2026, 3, 6, 12, tzinfo=UTC), tick=False):
        board = selectors.dashboard_for(classroom=room)
        client.force_login(f.teacher_of(room))
        html = client.get(f"/classes/{room.pk}/dashboard/").text

    assert [e.user.username for e in board.needs_help] == ["ann", "bob", "cy", "dee"]
    ann = board.needs_help[0]
    assert [(r.why, r.assignment.pk) for r in ann.reasons] == [
        (Why.OVERDUE, late.pk),
        (Why.DUE_SOON, work.pk),
    ]
    assert "“Due tomorrow”: 0 of 1 drill answered (2 days overdue)" in html


def test_an_archived_class_lists_no_late_work(homework):
    room, _, _ = homework
    with time_machine.travel(datetime(2026, 3, 20, 12, tzinfo=UTC), tick=False):
        services.classroom_archive(classroom=room, by=f.teacher_of(room))
        room.refresh_from_db()
        assert _help(room) == {}


# --- Needs help: below the pass mark in a skill ---------------------------------------------


def test_below_the_pass_mark_over_enough_first_answers(client):
    room = f.classroom()
    work = f.built(
        room, items=("fours",), count=10, due_on=timezone.localdate() + timedelta(days=30)
    )
    drills = list(work.drills.order_by("position"))
    plan = {
        "ann": (8, 6),  # 75% over 8: needs help
        "bob": (7, 0),  # all wrong but only 7 answers: not yet
        "cy": (8, 7),  # 88%
        "dee": (10, 8),  # 80%: the pass mark
    }
    people = {}
    for name, (answered, right) in plan.items():
        people[name] = who = f.student_in(room, f.user(name))
        for n, d in enumerate(drills[:answered]):
            f.answer_drill(who, d, correct=n < right)
            f.answer_drill(who, d, correct=True)  # a replay does not count
    assert selectors.NEEDS_HELP_MIN_ANSWERS == 8

    # bob's 7 answers are too few to judge the skill, but his cell is marked ✗ (0 of 7): the
    # list says so, as the table does.
    assert _help(room) == {"ann": [Why.SKILL], "bob": [Why.POOR_WORK]}
    client.force_login(f.teacher_of(room))
    html = client.get(f"/classes/{room.pk}/dashboard/").text
    section = html[html.index("data-needs-help") : html.index('id="progress-title"')]
    assert "Below the pass mark" in section
    assert "Spot the checklist item · Four of a kind: 6 of 8 right first time (75%)" in section
    assert f'href="/classes/{room.pk}/students/{people["ann"].pk}/"' in section
    assert f'href="/classes/{room.pk}/assignments/new/?kinds=checklist&amp;items=fours"' in section
    assert f"“{work.title}”: 0 of 7 right first time (0%)" in section
    mistakes = f'href="/classes/{room.pk}/students/{people["bob"].pk}/?show=mistakes#history"'
    assert mistakes in section


def test_nobody_behind_says_so(client):
    room = f.classroom()
    f.student_in(room)
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/dashboard/").text

    assert "Nobody needs help right now." in html


def test_the_list_holds_only_this_classs_students_and_work(client):
    a, b = f.classroom(name="Class A"), f.classroom(name="Class B")
    shared = f.user("shared")
    f.student_in(a, shared)
    f.student_in(b, shared)
    f.student_in(b, f.user("onlyb"))
    f.built(b, title="B work due today", due_on=timezone.localdate())
    client.force_login(f.teacher_of(a))

    html = client.get(f"/classes/{a.pk}/dashboard/").text

    assert "Nobody needs help right now." in html
    assert "B work" not in html and "onlyb" not in html
    assert [e.user.username for e in selectors.dashboard_for(classroom=b).needs_help] == [
        "onlyb",
        "shared",
    ]


# --- Who may open the dashboard --------------------------------------------------------------


def test_another_teacher_gets_404_for_the_dashboard_and_student_pages(client):
    room = f.classroom()
    student = f.student_in(room)
    other = f.user("other_teacher")
    f.student_in(f.classroom(other), student)  # teaches the same student, in another class
    client.force_login(other)

    assert client.get(f"/classes/{room.pk}/dashboard/").status_code == 404
    assert client.get(f"/classes/{room.pk}/students/{student.pk}/").status_code == 404
    assert client.get(f"/classes/{room.pk}/export.csv").status_code == 404


def test_a_student_cannot_open_the_dashboard_or_a_classmates_page(client):
    room = f.classroom()
    me, classmate = f.student_in(room), f.student_in(room)
    client.force_login(me)

    assert client.get(f"/classes/{room.pk}/dashboard/").status_code == 404
    assert client.get(f"/classes/{room.pk}/students/{classmate.pk}/").status_code == 404
    assert client.get(f"/classes/{room.pk}/students/{me.pk}/").status_code == 404


def test_below_the_pass_mark_in_a_kind_whose_skills_each_have_too_few_answers(client):
    """Twelve answers spread over three skills of one kind: no skill has enough to judge, the
    kind (12 answers, 50%) has, and the reason offers practice on the whole kind."""
    room = f.classroom()
    work = f.built(
        room,
        items=("fours", "full_house", "threes"),
        count=4,  # of each
        due_on=timezone.localdate() + timedelta(days=30),
    )
    ann = f.student_in(room, f.user("ann"))
    for n, d in enumerate(work.drills.order_by("position")):
        f.answer_drill(ann, d, correct=n % 2 == 0)
    board = selectors.dashboard_for(classroom=room)
    skills = board.students[0].skills
    assert skills and all(s.answers < selectors.NEEDS_HELP_MIN_ANSWERS for s in skills)
    assert sum(s.answers for s in skills) >= selectors.NEEDS_HELP_MIN_ANSWERS
    reasons = [r for e in board.needs_help for r in e.reasons]
    kind = [r for r in reasons if r.why == Why.KIND]
    assert len(kind) == 1 and kind[0].skill is not None
    assert kind[0].skill.kind == "checklist" and kind[0].skill.skill == ""
    client.force_login(f.teacher_of(room))
    html = client.get(f"/classes/{room.pk}/dashboard/").text
    section = html[html.index("data-needs-help") : html.index('id="progress-title"')]
    assert f'href="/classes/{room.pk}/assignments/new/?kinds=checklist"' in section


def test_the_list_agrees_with_the_marks_in_the_table(client):
    """Whoever has a cell marked poor (✗) in the table is on the list, for that assignment; and
    whoever is on the list has a reason shown."""
    import random

    room = f.classroom()
    due = timezone.localdate() + timedelta(days=30)
    works = [f.built(room, title=f"Set {n}", count=4, due_on=due) for n in range(2)]
    rng = random.Random(7)
    for n in range(6):
        who = f.student_in(room, f.user(f"s{n}"))
        rate = rng.random()
        for work in works:
            for d in list(work.drills.order_by("position"))[: rng.randint(0, 8)]:
                f.answer_drill(who, d, correct=rng.random() < rate)
    client.force_login(f.teacher_of(room))
    html = client.get(f"/classes/{room.pk}/dashboard/").text
    board = selectors.dashboard_for(classroom=room)

    marked = {
        (row.user.pk, a.pk)
        for row in board.students
        for a, c in zip(board.assignments, row.completions, strict=True)
        if c.band == Band.POOR
    }
    listed = {
        (e.user.pk, r.assignment.pk)
        for e in board.needs_help
        for r in e.reasons
        if r.why == Why.POOR_WORK and r.assignment is not None
    }
    assert marked and listed == marked
    assert html.count('class="help-entry"') == len(board.needs_help) > 0
    assert "Nobody needs help right now." not in html
