import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trainer.classes import factories as f
from trainer.classes import services
from trainer.classes.models import Assignment, ClassMembership, Classroom

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher_client(client):
    def login(room):
        client.force_login(f.teacher_of(room))
        return client

    return login


# --- Listing, creating, joining ----------------------------------------------------------------


def test_classes_page_needs_an_account(client):
    response = client.get("/classes/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_classes_page_lists_taught_and_joined_classes(client):
    me = f.user()
    f.classroom(me, name="I teach this")
    f.student_in(f.classroom(name="I learn here"), me)
    client.force_login(me)

    response = client.get("/classes/")

    assert response.status_code == 200
    assert "I teach this" in response.text
    assert "I learn here" in response.text


def test_classes_page_counts_each_classes_students(client):
    me = f.user()
    room = f.classroom(me)
    f.student_in(room)
    f.student_in(room)
    f.built(room)
    client.force_login(me)

    response = client.get("/classes/")

    assert "2 students · 1 assignment" in response.text


def test_header_links_to_classes(client):
    response = client.get("/")

    assert 'href="/classes/"' in response.text


def test_create_a_class(client):
    me = f.user()
    client.force_login(me)

    response = client.post("/classes/new/", {"name": "Thursday club"})

    room = Classroom.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/classes/{room.pk}/"
    assert room.memberships.get().user == me


def test_create_form_shows_errors(client):
    client.force_login(f.user())

    response = client.post("/classes/new/", {"name": ""})

    assert response.status_code == 200
    assert "errorlist" in response.text
    assert not Classroom.objects.exists()


def test_join_with_a_typed_code(client):
    room = f.classroom(name="Open class")
    me = f.user()
    client.force_login(me)

    response = client.post("/classes/join/", {"code": room.join_code_display.lower()}, follow=True)

    assert ClassMembership.objects.get(classroom=room, user=me).role == "student"
    assert "You have joined “Open class”." in response.text


def test_join_with_a_wrong_code_shows_an_error(client):
    f.classroom()
    client.force_login(f.user())

    response = client.post("/classes/join/", {"code": "ZZZZ-ZZZZ-ZZ"})

    assert response.status_code == 200
    assert "No class has that join code" in response.text


def test_join_link_asks_before_joining(client):
    room = f.classroom(name="Linked class")
    me = f.user()
    client.force_login(me)

    page = client.get(room.join_path)
    assert page.status_code == 200
    assert "Join Linked class" in page.text
    assert not ClassMembership.objects.filter(user=me).exists()

    client.post(room.join_path)
    assert ClassMembership.objects.filter(classroom=room, user=me).exists()


def test_join_link_of_an_unknown_code_is_not_found(client):
    client.force_login(f.user())

    response = client.get("/classes/join/AAAA-AAAA-AA/")

    assert response.status_code == 404
    assert "does not work" in response.text


def test_join_link_for_an_anonymous_visitor_goes_to_login_and_back(client):
    room = f.classroom()

    response = client.get(room.join_path)

    assert response.status_code == 302
    assert "next=/classes/join/" in response["Location"]


def test_archived_class_join_link_says_it_is_closed(client):
    room = f.classroom()
    services.classroom_archive(classroom=room, by=f.teacher_of(room))
    client.force_login(f.user())

    response = client.get(room.join_path)

    assert "archived" in response.text
    assert "<form" not in response.text.split("<main")[1].split("</main>")[0]


# --- A class ---------------------------------------------------------------------------------


def test_teacher_overview_shows_code_link_students_and_assignments(client, teacher_client):
    room = f.classroom()
    f.student_in(room, f.user("stu"))
    f.built(room, title="Week one")

    response = teacher_client(room).get(f"/classes/{room.pk}/")

    assert response.status_code == 200
    assert room.join_code_display in response.text
    assert f"http://testserver/classes/join/{room.join_code_display}/" in response.text
    assert "stu" in response.text
    assert "Week one" in response.text


def test_student_class_page_shows_assignments_with_progress(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room, title="Week one")
    f.answer_drill(me, assignment.drills.first())
    client.force_login(me)

    response = client.get(f"/classes/{room.pk}/")

    assert response.status_code == 200
    assert "Week one" in response.text
    assert "1 of 2 drills" in response.text
    assert room.join_code not in response.text


def test_teacher_removes_a_student(teacher_client):
    room = f.classroom()
    student = f.student_in(room)

    response = teacher_client(room).post(f"/classes/{room.pk}/students/{student.pk}/remove/")

    assert response.status_code == 302
    assert not ClassMembership.objects.filter(classroom=room, user=student).exists()


def test_teacher_adds_a_co_teacher(teacher_client):
    room = f.classroom()
    colleague = f.user("colleague")

    response = teacher_client(room).post(
        f"/classes/{room.pk}/teachers/add/", {"username": "colleague"}, follow=True
    )

    assert ClassMembership.objects.get(classroom=room, user=colleague).role == "teacher"
    assert "colleague now teaches this class" in response.text


def test_adding_an_unknown_co_teacher_explains(teacher_client):
    room = f.classroom()

    response = teacher_client(room).post(
        f"/classes/{room.pk}/teachers/add/", {"username": "ghost"}, follow=True
    )

    assert "There is no account called “ghost”." in response.text


def test_a_co_teacher_sees_the_dashboard(client):
    room = f.classroom()
    colleague = f.user("colleague")
    services.co_teacher_add(classroom=room, username="colleague", by=f.teacher_of(room))
    client.force_login(colleague)

    assert client.get(f"/classes/{room.pk}/dashboard/").status_code == 200


def test_archive_and_restore(teacher_client):
    room = f.classroom()
    c = teacher_client(room)

    c.post(f"/classes/{room.pk}/archive/")
    assert Classroom.objects.get(pk=room.pk).is_archived
    page = c.get(f"/classes/{room.pk}/")
    assert "read-only" in page.text
    assert "New assignment" not in page.text

    c.post(f"/classes/{room.pk}/restore/")
    assert not Classroom.objects.get(pk=room.pk).is_archived


def test_archived_class_refuses_the_assignment_form(teacher_client):
    room = f.classroom()
    services.classroom_archive(classroom=room, by=f.teacher_of(room))

    client = teacher_client(room)
    url = f"/classes/{room.pk}/assignments/new/"

    shown = client.get(url, follow=True)
    posted = client.post(url, _built_form())

    # The form is not shown: back to the class page, which says why; a post writes nothing.
    assert shown.redirect_chain == [(f"/classes/{room.pk}/", 302)]
    assert "cannot have new assignments" in shown.text
    assert 'name="title"' not in shown.text
    assert posted.status_code == 302 and posted["Location"] == f"/classes/{room.pk}/"
    assert not Assignment.objects.exists()


def test_new_join_code(teacher_client):
    room = f.classroom()
    old = room.join_code

    teacher_client(room).post(f"/classes/{room.pk}/join-code/")

    assert Classroom.objects.get(pk=room.pk).join_code != old


def test_a_student_leaves(client):
    room = f.classroom()
    me = f.student_in(room)
    client.force_login(me)

    response = client.post(f"/classes/{room.pk}/leave/")

    assert response["Location"] == "/classes/"
    assert not ClassMembership.objects.filter(classroom=room, user=me).exists()


# --- Assignments ---------------------------------------------------------------------------


def _built_form(**extra):
    data = {
        "title": "Spot them",
        "due_on": (timezone.localdate() + timedelta(days=3)).isoformat(),
        "source": "built",
        "kinds": ["checklist"],
        "items": ["fours", "threes"],
        "count": "2",
        "convention": "parlett-2008",
        "rule": "classic",
    }
    data.update(extra)
    return data


def test_assignment_form_renders(teacher_client):
    room = f.classroom()

    response = teacher_client(room).get(f"/classes/{room.pk}/assignments/new/")

    assert response.status_code == 200
    assert "Spot the checklist item" in response.text
    assert "Four to a straight flush" in response.text


def test_assignment_form_can_be_prefilled(teacher_client):
    room = f.classroom()

    response = teacher_client(room).get(
        f"/classes/{room.pk}/assignments/new/?kinds=read&items=fours"
    )

    assert 'value="read" id="id_kinds_3" checked' in response.text


def test_build_an_assignment(teacher_client):
    room = f.classroom()

    response = teacher_client(room).post(f"/classes/{room.pk}/assignments/new/", _built_form())

    assignment = Assignment.objects.get()
    assert response["Location"] == f"/classes/assignments/{assignment.pk}/"
    assert assignment.drills.count() == 4
    assert assignment.source == "built"


def test_assignment_from_a_curated_set(teacher_client):
    room = f.classroom()
    ds = f.drill_set()

    teacher_client(room).post(
        f"/classes/{room.pk}/assignments/new/",
        _built_form(source="set", drill_set=str(ds.pk), kinds=[]),
    )

    assignment = Assignment.objects.get()
    assert assignment.drill_set == ds
    assert assignment.drills.count() == 2


def test_a_drill_the_engine_cannot_build_is_a_form_error(teacher_client):
    room = f.classroom()

    response = teacher_client(room).post(
        f"/classes/{room.pk}/assignments/new/", _built_form(kinds=["score"], items=["four_sf"])
    )

    assert response.status_code == 200
    assert "There are no drills for" in response.text
    assert not Assignment.objects.exists()


def test_built_assignment_needs_a_kind(teacher_client):
    room = f.classroom()

    response = teacher_client(room).post(
        f"/classes/{room.pk}/assignments/new/", _built_form(kinds=[])
    )

    assert "Tick at least one kind of drill." in response.text


def test_due_date_cannot_be_in_the_past(teacher_client):
    room = f.classroom()
    yesterday = (timezone.localdate() - timedelta(days=1)).isoformat()

    response = teacher_client(room).post(
        f"/classes/{room.pk}/assignments/new/", _built_form(due_on=yesterday)
    )

    assert "Choose today or a later day." in response.text


def test_student_assignment_page_lists_drills_with_links_chained_to_next(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room)
    client.force_login(me)

    response = client.get(f"/classes/assignments/{assignment.pk}/")

    assert response.status_code == 200
    first = assignment.drills.order_by("position").first()
    assert f"/drills/checklist/{first.seed}/?items=fours" in response.text
    assert f"next=%2Fclasses%2Fassignments%2F{assignment.pk}%2Fnext%2F" in response.text
    assert ">Start<" in response.text


def test_teacher_assignment_page_shows_each_students_progress(teacher_client):
    room = f.classroom()
    student = f.student_in(room, f.user("pupil"))
    assignment = f.built(room)
    f.answer_drill(student, assignment.drills.first())

    response = teacher_client(room).get(f"/classes/assignments/{assignment.pk}/")

    assert "pupil" in response.text
    assert "1/2" in response.text


def test_next_goes_to_the_first_unanswered_drill(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room)
    first, second = assignment.drills.order_by("position")
    f.answer_drill(me, first)
    client.force_login(me)

    response = client.get(f"/classes/assignments/{assignment.pk}/next/")

    assert response.status_code == 302
    assert response["Location"] == second.url(f"/classes/assignments/{assignment.pk}/next/?after=2")


def test_next_returns_to_the_assignment_when_done(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room)
    for d in assignment.drills.all():
        f.answer_drill(me, d)
    client.force_login(me)

    response = client.get(f"/classes/assignments/{assignment.pk}/next/")
    htmx = client.get(f"/classes/assignments/{assignment.pk}/next/", headers={"HX-Request": "true"})

    assert response["Location"] == f"/classes/assignments/{assignment.pk}/"
    assert htmx["HX-Redirect"] == f"/classes/assignments/{assignment.pk}/"


def test_the_drill_pages_next_button_follows_the_assignment(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room)
    client.force_login(me)
    first = assignment.drills.order_by("position").first()
    next_path = f"/classes/assignments/{assignment.pk}/next/?after=1"

    response = client.get(first.url(next_path))

    assert response.status_code == 200
    assert f'href="{next_path}"' in response.text


def test_withdraw_an_assignment(teacher_client):
    room = f.classroom()
    assignment = f.built(room)

    response = teacher_client(room).post(f"/classes/assignments/{assignment.pk}/delete/")

    assert response["Location"] == f"/classes/{room.pk}/"
    assert not Assignment.objects.exists()


# --- Dashboard, CSV, a student's answers --------------------------------------------------


def test_dashboard_shows_students_assignments_and_weak_skills(teacher_client):
    room = f.classroom()
    student = f.student_in(room, f.user("pupil"))
    assignment = f.built(room, title="Week one")
    for d in assignment.drills.all():
        f.answer_drill(student, d, correct=False)
    for d in f.built(
        room, title="Week two", items=("fours",), count=4, base_seed=3000
    ).drills.all():
        f.answer_drill(student, d, correct=False)

    response = teacher_client(room).get(f"/classes/{room.pk}/dashboard/")

    assert response.status_code == 200
    assert "pupil" in response.text
    assert "Week one" in response.text
    assert "2/2" in response.text
    assert "Weakest skills" in response.text
    assert "Four of a kind" in response.text


def test_dashboard_of_an_empty_class(teacher_client):
    room = f.classroom()

    response = teacher_client(room).get(f"/classes/{room.pk}/dashboard/")

    assert "No students yet" in response.text


def test_csv_export(teacher_client):
    room = f.classroom(name="Thursday club")
    pupil = f.user("pupil")
    pupil.first_name, pupil.last_name = "Ana", "berg"
    pupil.save()
    student = f.student_in(room, pupil)
    assignment = f.built(room, title="Week one")
    first, second = assignment.drills.order_by("position")
    f.answer_drill(student, first, correct=True)
    f.answer_drill(student, second, correct=False)

    response = teacher_client(room).get(f"/classes/{room.pk}/export.csv")

    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="thursday-club-progress.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["student", "username", "joined"]
    assert rows[0][3].startswith("Week one (due ")
    assert rows[0][5] == "all drill assignments: drills answered of 2"
    assert len(rows[0]) == 7  # no play columns in a class without play
    assert rows[1][:2] == ["Ana B.", "pupil"]
    assert rows[1][3:] == ["2", "50", "2", "50"]


def test_csv_quotes_text_a_spreadsheet_would_run(teacher_client):
    room = f.classroom()
    f.built(room, title="=HYPERLINK(1)")

    response = teacher_client(room).get(f"/classes/{room.pk}/export.csv")

    header = next(csv.reader(io.StringIO(response.content.decode())))
    assert header[3].startswith("'=HYPERLINK")


def test_student_page_shows_what_the_student_answered(teacher_client):
    room = f.classroom()
    student = f.student_in(room, f.user("pupil"))
    assignment = f.built(room)
    attempt = f.answer_drill(student, assignment.drills.first(), correct=False)

    response = teacher_client(room).get(f"/classes/{room.pk}/students/{student.pk}/")

    assert response.status_code == 200
    assert "Spot the checklist item" in response.text
    assert f"/drills/checklist/{attempt.seed}/?items=fours" in response.text
    assert "Wrong" in response.text
    assert "Four of a kind" in response.text  # the right answer, in words


def test_student_page_filters_mistakes_with_an_htmx_partial(teacher_client):
    room = f.classroom()
    student = f.student_in(room)
    f.answer(student, seed=1, correct=True)
    f.answer(student, seed=2, correct=False)

    response = teacher_client(room).get(
        f"/classes/{room.pk}/students/{student.pk}/",
        {"show": "mistakes"},
        headers={"HX-Request": "true"},
    )

    assert response.text.lstrip().startswith('<section id="history"')
    assert response.text.count("<tr>") == 2  # header + one mistake
    assert "<html" not in response.text


def test_home_page_lists_a_students_open_assignments_first(client):
    room = f.classroom()
    me = f.student_in(room)
    assignment = f.built(room, title="Homework one")
    client.force_login(me)

    response = client.get("/")

    assert "Your assignments" in response.text
    assert "Homework one" in response.text
    assert f'href="/classes/assignments/{assignment.pk}/next/"' in response.text
    # The Continue button (the page's h1 panel) leads to it; the list follows.
    assert response.text.index('data-continue="assignment"') < response.text.index(
        "Your assignments"
    )


def test_home_page_without_assignments_has_no_assignment_section(client):
    client.force_login(f.user())

    assert "Your assignments" not in client.get("/").text


def test_admin_lists_classes_and_assignments(admin_client):
    room = f.classroom(name="Admin view")
    assignment = f.built(room)

    assert "Admin view" in admin_client.get("/admin/classes/classroom/").text
    assert admin_client.get(f"/admin/classes/classroom/{room.pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/classes/assignment/{assignment.pk}/change/").status_code == 200


def test_admin_addresses_from_before_the_app_split_redirect(admin_client):
    room = f.classroom(name="Old bookmark")
    response = admin_client.get(f"/admin/trainer/classroom/{room.pk}/change/?x=1")
    assert response.status_code == 301
    assert response["Location"] == f"/admin/classes/classroom/{room.pk}/change/?x=1"
    assert admin_client.get("/admin/trainer/nothing/").status_code == 404


def test_dashboard_shows_students_by_display_name(client):
    room = f.classroom()
    student = f.student_in(room)
    student.first_name, student.last_name = "Cleo", "Dunn"
    student.save()
    client.force_login(f.teacher_of(room))
    html = client.get(f"/classes/{room.pk}/dashboard/").text
    assert "Cleo D." in html
