"""Issue #20, items 2 and 8: a student's page counts one way — answers since the student
joined — in its header, its assignments table, its latest wrong answers (each with a link to
replay the drill it came from) and its history; and it shows the student's rating per kind
with its chart. The dashboard shows the ratings too."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.drills import DrillParams
from tests.trainer.classes import factories as f
from trainer.classes import selectors
from trainer.ratings.models import LearnerRating, RatingPoint

pytestmark = pytest.mark.django_db


def _stat(html: str, name: str) -> str:
    m = re.search(rf'data-stat="{name}">(.*?)</span><span class="stat-label">', html, re.S)
    assert m is not None, name
    return re.sub(r"<[^>]+>", "", m.group(1)).strip()


def _section(html: str, section_id: str) -> str:
    start = html.index(f'id="{section_id}"')
    return html[start : html.index("</section>", start)]


@pytest.fixture
def late_joiner():
    """Ben: answered the first drill of an assignment before he joined the class (his teacher
    must not see it), then the second drill and a practice drill after joining."""
    now = timezone.now()
    room = f.classroom()
    work = f.built(room, title="Week one", now=now - timedelta(days=5))
    first, second = work.drills.order_by("position")
    ben = f.user("ben")
    ben.first_name, ben.last_name = "Ben", "Okafor"
    ben.save()
    f.answer_drill(ben, first, correct=False, now=now - timedelta(days=4))
    f.student_in(room, ben, now=now - timedelta(days=2))
    f.answer_drill(ben, second, correct=True, now=now - timedelta(days=1))
    practice = f.answer(ben, seed=77, correct=False, now=now - timedelta(hours=1))
    return room, work, ben, practice


def test_header_table_mistakes_and_history_count_the_same_answers(client, late_joiner):
    room, work, ben, practice = late_joiner
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/students/{ben.pk}/").text

    assert _stat(html, "answers") == "2"  # the second drill and the practice drill
    assert _stat(html, "right").startswith("50%")
    assert _stat(html, "assignment-drills") == "1/2"  # not the answer from before joining
    row = re.search(rf'<tr data-assignment="{work.pk}">.*?</tr>', html, re.S).group(0)
    assert ">1/2<" in row
    assert "No answers since joining." not in html
    assert _section(html, "history").count('<td data-label="When">') == 2
    mistakes = _section(html, "recent-mistakes")
    assert re.findall(r'data-mistake="(\d+)"', mistakes) == [str(practice.pk)]


def test_the_selectors_agree_with_each_other(late_joiner):
    room, work, ben, _ = late_joiner
    membership = room.memberships.get(user=ben)

    report = selectors.student_report(classroom=room, membership=membership)
    board = selectors.dashboard_for(classroom=room)
    (row,) = board.students
    status = selectors.drill_statuses(assignment=work, student=ben)

    assert (report.answers, report.right) == (2, 1)
    assert report.drills.answered == row.overall.answered == 1
    assert [(a.pk, c.answered) for a, c in report.assignments] == [(work.pk, 1)]
    assert row.completions[0].answered == 1
    assert [s.answered for s in status] == [False, True]  # his own assignment page agrees
    assert report.answers >= report.drills.answered


def test_the_students_own_class_page_counts_the_same(client, late_joiner):
    room, _, ben, _ = late_joiner
    client.force_login(ben)

    assert "1 of 2 drills" in client.get(f"/classes/{room.pk}/").text


def test_wrong_answers_are_listed_newest_first_with_replay_links(client):
    now = timezone.now()
    room = f.classroom()
    student = f.student_in(room, now=now - timedelta(days=3))
    oldest = f.answer(student, seed=21, correct=False, now=now - timedelta(hours=3))
    f.answer(student, seed=22, correct=True, now=now - timedelta(hours=2))
    middle = f.answer(
        student,
        kind="read",
        seed=23,
        correct=False,
        params=DrillParams(convention="teach-yourself-1994", rule="contribution"),
        now=now - timedelta(hours=1),
    )
    newest = f.answer(
        student,
        seed=24,
        correct=False,
        params=DrillParams(items=("fours",)),
        now=now - timedelta(minutes=5),
    )
    client.force_login(f.teacher_of(room))

    mistakes = _section(
        client.get(f"/classes/{room.pk}/students/{student.pk}/").text, "recent-mistakes"
    )

    rows = re.findall(r'data-mistake="(\d+)".*?href="([^"]+)" data-replay', mistakes, re.S)
    assert [int(pk) for pk, _ in rows] == [newest.pk, middle.pk, oldest.pk]
    links = {int(pk): url.replace("&amp;", "&") for pk, url in rows}
    # The drill's own address, with the convention and rule it was answered under spelled out.
    assert links[newest.pk] == (
        f"/drills/checklist/24/?{newest.params}&convention=parlett-2008&rule=classic"
    )
    assert links[middle.pk].startswith(f"/drills/read/23/?{middle.params}")
    assert "convention=teach-yourself-1994" in links[middle.pk]
    assert "rule=contribution" in links[middle.pk]
    for url in links.values():  # each link opens that very drill
        page = client.get(url)
        assert page.status_code == 200
    assert "22" not in re.findall(r"#(\d+)", mistakes)  # the right answer is not a mistake


def test_only_the_latest_wrong_answers_are_listed(client):
    now = timezone.now()
    room = f.classroom()
    student = f.student_in(room, now=now - timedelta(days=1))
    made = [
        f.answer(student, seed=100 + n, correct=False, now=now - timedelta(minutes=60 - n))
        for n in range(selectors.MISTAKES_SHOWN + 2)
    ]
    client.force_login(f.teacher_of(room))

    mistakes = _section(
        client.get(f"/classes/{room.pk}/students/{student.pk}/").text, "recent-mistakes"
    )

    shown = [int(pk) for pk in re.findall(r'data-mistake="(\d+)"', mistakes)]
    assert shown == [a.pk for a in reversed(made)][: selectors.MISTAKES_SHOWN]
    assert "?show=mistakes" in mistakes  # and a way to all of them


def test_no_wrong_answers_says_so(client):
    room = f.classroom()
    student = f.student_in(room)
    f.answer(student, seed=3, correct=True)
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/students/{student.pk}/").text

    assert "No wrong answers since joining." in _section(html, "recent-mistakes")


# --- Ratings -------------------------------------------------------------------------------


def test_the_student_page_shows_each_rating_and_its_chart_since_joining(client):
    now = timezone.now()
    room = f.classroom()
    student = f.user("cleo")
    f.answer(student, seed=1, correct=True, now=now - timedelta(days=3))  # before joining
    f.student_in(room, student, now=now - timedelta(days=2))
    for seed in (2, 3, 4):
        f.answer(student, seed=seed, correct=seed != 3, now=now - timedelta(hours=seed))
    rating = LearnerRating.objects.get(user=student, kind="checklist")
    assert RatingPoint.objects.filter(user=student, kind="checklist").count() == 4
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/students/{student.pk}/").text

    level = html[html.index("data-ratings") :]
    item = re.search(r'data-rating-kind="checklist">.*?</li>', level, re.S).group(0)
    assert f"Rating {round(rating.rating)} ± {round(rating.rd)}" in item
    assert "early estimate from 4 answers" in item  # four answers leave it provisional
    assert '<figure class="rating-chart">' in item and "<svg" in item
    assert "cleo's Spot the checklist item rating since joining" in item
    numbers = item[item.index("<tbody>") : item.index("</tbody>")]
    assert numbers.count("<tr>") == 3  # the points since joining only


def test_the_dashboard_shows_each_students_ratings(client):
    room = f.classroom()
    rated = f.student_in(room, f.user("rated"))
    f.student_in(room, f.user("unrated"))
    f.answer(rated, seed=5, correct=True)
    f.answer(rated, kind="read", seed=6, correct=False)
    client.force_login(f.teacher_of(room))

    html = client.get(f"/classes/{room.pk}/dashboard/").text

    row = re.search(r'<tr>\s*<th scope="row"[^>]*><a[^>]*>rated</a>.*?</tr>', html, re.S).group(0)
    for kind in ("checklist", "read"):
        r = LearnerRating.objects.get(user=rated, kind=kind)
        figure = re.search(rf'data-rating-kind="{kind}">(.*?)</span></span>', row, re.S).group(1)
        assert f"<strong>{round(r.rating)}</strong>" in figure
        assert f"±{round(r.rd)}" in figure
    assert "Checklist drill" in row and "Read drill" in row
    unrated = re.search(r"<a[^>]*>unrated</a>.*?</tr>", html, re.S).group(0)
    assert "data-rating-kind" not in unrated


def test_a_class_without_ratings_has_no_level_column(client):
    room = f.classroom()
    f.student_in(room)
    client.force_login(f.teacher_of(room))

    assert "rating ± deviation" not in client.get(f"/classes/{room.pk}/dashboard/").text
