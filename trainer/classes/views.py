"""Class pages. Every class or assignment is looked up in a queryset already filtered to the
signed-in user (teacher-only pages through ``classes_taught_by``), so another class's id is a
404. Writes are POST only, CSRF-protected, and go through one service each."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from engine.drills import KIND_TITLES
from engine.signals import DEFAULT_CONVENTION
from trainer.classes import ratelimit, selectors, services
from trainer.classes.answers import AnswerWords, describe
from trainer.classes.drill_sessions import AssignmentSession
from trainer.classes.forms import AssignmentForm, ClassroomForm, CoTeacherForm, JoinForm
from trainer.classes.models import ClassMembership, Classroom
from trainer.core import drill_sessions, playlog, preferences
from trainer.core.links import drill_url
from trainer.core.people import display_name
from trainer.core.web.client_ip import client_ip
from trainer.core.web.htmx import wants_partial
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.progress.models import Attempt
from trainer.ratings import selectors as ratings

Role = ClassMembership.Role
HISTORY_PAGE_SIZE = 25


def _messages_of(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _taught(request: AuthenticatedHttpRequest, pk: int) -> Classroom:
    return get_object_or_404(selectors.classes_taught_by(request.user), pk=pk)


def _client_ip(request: HttpRequest) -> str:
    # The real client behind TRUSTED_PROXY_COUNT proxies, so that one address's bad codes do
    # not block everyone who comes through the same proxy.
    return client_ip(request)


# --------------------------------------------------------------------------------------------
# Lists, creating and joining


@login_required
@require_http_methods(["GET"])
def class_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Classes the user teaches and classes they are in, with ways to create and join one."""
    taught = selectors.classes_taught_with_counts(request.user)
    studying = selectors.classes_of_student(request.user).order_by("archived_at", "name", "id")
    return render(
        request,
        "classes/class_list.html",
        {
            "taught": taught,
            "studying": studying,
            "join_form": JoinForm(),
            "open_assignments": selectors.open_assignments_for(student=request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def class_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.classroom_create(
                name=form.cleaned_data["name"], teacher=request.user
            )
        except ValidationError as exc:
            form.add_error("name", exc)
        else:
            messages.success(
                request,
                gettext("“%(name)s” is ready. Share its join code with your students.")
                % {"name": classroom.name},
            )
            return redirect(classroom)
    return render(request, "classes/class_form.html", {"form": form})


def _too_many_tries(request: HttpRequest, form: JoinForm | None = None) -> HttpResponse:
    limits = ratelimit.limits()
    return render(
        request,
        "classes/join.html",
        {
            "form": form or JoinForm(),
            "blocked": True,
            "window_minutes": limits.window_minutes,
        },
        status=429,
    )


def _join(
    request: AuthenticatedHttpRequest, code: str, form: JoinForm | None
) -> HttpResponse | None:
    """Join with ``code``; returns a redirect, or None after adding the error to ``form``."""
    try:
        membership, created = services.classroom_join(code=code, user=request.user)
    except ValidationError as exc:
        if exc.code == "unknown_code":
            ratelimit.join_failed(user_id=request.user.pk, ip=_client_ip(request))
        if form is None:
            messages.error(request, _messages_of(exc))
        else:
            form.add_error("code", exc)
        return None
    classroom = membership.classroom
    if created:
        messages.success(request, gettext("You have joined “%(name)s”.") % {"name": classroom.name})
    elif membership.role == Role.TEACHER:
        messages.info(request, gettext("You teach “%(name)s” already.") % {"name": classroom.name})
    else:
        messages.info(request, gettext("You are already in “%(name)s”.") % {"name": classroom.name})
    return redirect(classroom)


@login_required
@require_http_methods(["GET", "POST"])
def class_join(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Join a class by typing its code."""
    form = JoinForm(request.POST or None)
    if request.method == "POST":
        if ratelimit.join_blocked(user_id=request.user.pk, ip=_client_ip(request)):
            return _too_many_tries(request, form)
        if form.is_valid():
            done = _join(request, form.cleaned_data["code"], form)
            if done is not None:
                return done
    return render(request, "classes/join.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join_link(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """A join link: shows which class it is and asks to confirm (joining is a POST).

    Looking a code up counts as a try, so links cannot be used to test codes either.
    """
    ip = _client_ip(request)
    if ratelimit.join_blocked(user_id=request.user.pk, ip=ip):
        return _too_many_tries(request)
    classroom = selectors.classroom_by_code(code)
    if classroom is None:
        ratelimit.join_failed(user_id=request.user.pk, ip=ip)
        return render(request, "classes/join_link.html", {"classroom": None}, status=404)
    if request.method == "POST":
        done = _join(request, classroom.join_code, None)
        if done is not None:
            return done
    membership = selectors.membership_of(classroom=classroom, user=request.user)
    teachers = selectors.members_of(classroom, Role.TEACHER)
    return render(
        request,
        "classes/join_link.html",
        {
            "classroom": classroom,
            "membership": membership,
            "teachers": teachers,
        },
    )


# --------------------------------------------------------------------------------------------
# A class


@login_required
@require_http_methods(["GET"])
def class_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Teachers manage the class here; students see its assignments and their progress."""
    classroom = get_object_or_404(selectors.classes_of(request.user), pk=pk)
    membership = selectors.membership_of(classroom=classroom, user=request.user)
    if membership is None:  # pragma: no cover - classes_of found it
        raise Http404
    assignments = list(selectors.assignments_of(classroom))
    teachers = selectors.members_of(classroom, Role.TEACHER)
    if membership.role == Role.STUDENT:
        completions = selectors.completions_for_student(
            student=request.user, assignments=assignments
        )
        return render(
            request,
            "classes/class_student.html",
            {
                "classroom": classroom,
                "teachers": teachers,
                "rows": [(a, completions[a.pk]) for a in assignments],
            },
        )
    return render(
        request,
        "classes/class_teacher.html",
        {
            "classroom": classroom,
            "teachers": teachers,
            "assignments": assignments,
            "students": selectors.members_of(classroom, Role.STUDENT),
            "co_teacher_form": CoTeacherForm(),
            "join_url": request.build_absolute_uri(classroom.join_path),
        },
    )


@login_required
@require_http_methods(["GET"])
def dashboard(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Students × assignments, the class's weakest skills, links to each student's answers."""
    classroom = _taught(request, pk)
    return render(
        request,
        "classes/dashboard.html",
        {
            "classroom": classroom,
            "dashboard": selectors.dashboard_for(classroom=classroom),
            **_marks(),
        },
    )


def _marks() -> dict[str, int]:
    """The thresholds the dashboard and a student's page explain (their legends)."""
    return {
        "min_answers": selectors.WEAKEST_MIN_ANSWERS,
        "pass_mark": selectors.PASS_MARK,
        "warning_mark": selectors.PASS_MARK - selectors.WARNING_POINTS,
        "judged_answers": selectors.MIN_JUDGED_ANSWERS,
        "help_answers": selectors.NEEDS_HELP_MIN_ANSWERS,
        "due_soon_days": selectors.DUE_SOON_DAYS,
    }


@login_required
@require_http_methods(["GET"])
def export_csv(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The dashboard's students × assignments table as CSV, one row per student."""
    classroom = _taught(request, pk)
    data = selectors.dashboard_for(classroom=classroom, with_ratings=False)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(classroom.name) or 'class'}-progress.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv.writer(response).writerows(selectors.dashboard_table(data))
    return response


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET"])
def student_detail(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
    """One student's figures, recent mistakes and answers since joining (all, or mistakes
    only), as their teacher sees them: every figure from :func:`selectors.student_report`.

    htmx requests for another page or filter get only the ``history`` partial.
    """
    classroom = _taught(request, pk)
    membership = get_object_or_404(selectors.members_of(classroom, Role.STUDENT), user_id=user_id)
    mistakes = request.GET.get("show") == "mistakes"
    history = selectors.student_history(membership=membership, mistakes_only=mistakes)
    page = Paginator(history, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    ctx: dict[str, Any] = {
        "classroom": classroom,
        "membership": membership,
        "student": membership.user,
        "page": page,
        "rows": _history_rows(page.object_list),
        "mistakes": mistakes,
    }
    if wants_partial(request):
        return render(request, "classes/student_detail.html#history", ctx)
    report = selectors.student_report(classroom=classroom, membership=membership)
    convention = preferences.drill_defaults(request).get("convention", DEFAULT_CONVENTION.name)
    ctx.update(
        {
            "report": report,
            "levels": [(r, ratings.level_of(r.rating, convention)) for r in report.ratings],
            "recent_mistakes": _history_rows(report.mistakes),
            **_marks(),
        }
    )
    return render(request, "classes/student_detail.html", ctx)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    attempt: Attempt
    words: AnswerWords
    url: str
    kind_title: str


def _history_rows(attempts: Iterable[Attempt]) -> list[HistoryRow]:
    listed = list(attempts)
    deals = playlog.deal_urls(a.game_id for a in listed if a.game_id is not None)
    return [
        HistoryRow(a, describe(a), _drill_link(a, deals), KIND_TITLES.get(a.kind, a.kind))
        for a in listed
    ]


def _drill_link(attempt: Attempt, deals: dict[int, str]) -> str:
    """Where the answer was given: its drill's address — the convention and rule spelled out,
    as an assignment's drill links are, so the teacher's own settings cannot make it another
    drill — or, for a lead or read made at the table, its deal (``deals``: by game; a deal
    no longer kept has no link)."""
    if attempt.game_id is not None:
        return deals.get(attempt.game_id, "")
    address = attempt.address
    if address is None:  # in play, its deal gone; or an address the engine no longer reads
        return ""
    return drill_url(address, convention=address.params.convention, rule=address.params.rule)


def _teacher_action(
    request: AuthenticatedHttpRequest,
    pk: int,
    action: Callable[[Classroom], str | None],
    target: str = "classes:detail",
) -> HttpResponse:
    """Run one teacher-only write on class ``pk``, report the outcome, and go back."""
    classroom = _taught(request, pk)
    try:
        done = action(classroom)
    except ValidationError as exc:
        messages.error(request, _messages_of(exc))
    else:
        if done:
            messages.success(request, done)
    return redirect(target, pk=classroom.pk)


@login_required
@require_POST
def student_remove(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
    def remove(classroom: Classroom) -> str:
        membership = get_object_or_404(
            selectors.members_of(classroom, Role.STUDENT), user_id=user_id
        )
        services.student_remove(classroom=classroom, student=membership.user, by=request.user)
        return gettext("%(name)s is no longer in this class.") % {
            "name": display_name(membership.user)
        }

    return _teacher_action(request, pk, remove)


@login_required
@require_POST
def co_teacher_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def add(classroom: Classroom) -> str:
        form = CoTeacherForm(request.POST)
        if not form.is_valid():
            raise ValidationError(gettext("Type the username of the person to add."))
        membership = services.co_teacher_add(
            classroom=classroom, by=request.user, username=form.cleaned_data["username"]
        )
        return gettext("%(name)s now teaches this class with you.") % {
            "name": display_name(membership.user)
        }

    return _teacher_action(request, pk, add)


@login_required
@require_POST
def class_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def archive(classroom: Classroom) -> str:
        services.classroom_archive(classroom=classroom, by=request.user)
        return gettext("The class is archived: it is read-only until you restore it.")

    return _teacher_action(request, pk, archive)


@login_required
@require_POST
def class_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def restore(classroom: Classroom) -> str:
        services.classroom_restore(classroom=classroom, by=request.user)
        return gettext("The class is open again.")

    return _teacher_action(request, pk, restore)


@login_required
@require_POST
def join_code_rotate(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def rotate(classroom: Classroom) -> str:
        services.join_code_rotate(classroom=classroom, by=request.user)
        return gettext("The class has a new join code; the old code and link no longer work.")

    return _teacher_action(request, pk, rotate)


@login_required
@require_POST
def class_leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    classroom = get_object_or_404(selectors.classes_of(request.user), pk=pk)
    try:
        services.membership_leave(classroom=classroom, user=request.user)
    except ValidationError as exc:
        messages.error(request, _messages_of(exc))
        return redirect(classroom)
    messages.success(request, gettext("You have left “%(name)s”.") % {"name": classroom.name})
    return redirect("classes:list")


# --------------------------------------------------------------------------------------------
# Assignments


@login_required
@require_http_methods(["GET", "POST"])
def assignment_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Set the class drills: a curated set, or kinds × items × count built on the spot.

    A GET may pre-fill the form (``?kinds=read&items=fours``, ``?kinds=score&combos=flush``),
    as the dashboard's weakest skills do: the form keeps the values it knows and titles the
    assignment after them (see ``AssignmentForm.initial_from_query``).
    """
    classroom = _taught(request, pk)
    if classroom.is_archived:
        messages.error(
            request, gettext("This class is archived, so it cannot have new assignments.")
        )
        return redirect(classroom)
    if request.method == "POST":
        form = AssignmentForm(request.POST, classroom=classroom)
    else:
        form = AssignmentForm(
            initial=AssignmentForm.initial_from_query(request.GET), classroom=classroom
        )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        deals = form.play_deals()
        try:
            assignment = services.assignment_create(
                classroom=classroom,
                by=request.user,
                title=data["title"],
                due_on=data["due_on"],
                drill_set=data["drill_set"] if data["source"] == "set" else None,
                spec=form.spec(),
                play=services.PlaySpec(deals, data["convention"], data["rule"]) if deals else None,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, gettext("“%(title)s” is set.") % {"title": assignment.title})
            return redirect(assignment)
    return render(
        request,
        "classes/assignment_form.html",
        {
            "classroom": classroom,
            "form": form,
        },
    )


def _assignment(
    request: AuthenticatedHttpRequest, pk: int
) -> tuple[selectors.AssignmentWithTotal, ClassMembership]:
    assignment = selectors.assignment_with_total(request.user, pk)
    if assignment is None:
        raise Http404
    membership = selectors.membership_of(classroom=assignment.classroom, user=request.user)
    if membership is None:  # pragma: no cover - assignments_visible_to found it
        raise Http404
    return assignment, membership


@login_required
@require_http_methods(["GET"])
def assignment_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Students: the drills with their answers so far and a button to carry on. Teachers: the
    drills (to try) and every student's progress on this assignment."""
    assignment, membership = _assignment(request, pk)
    next_path = reverse("classes:assignment-next", args=[assignment.pk])
    if membership.role == Role.STUDENT and assignment.is_play:
        completion = selectors.completions_for_student(
            student=request.user, assignments=[assignment]
        )[assignment.pk]
        return render(
            request,
            "classes/assignment_play.html",
            {
                "assignment": assignment,
                "classroom": assignment.classroom,
                "completion": completion,
                "deals": selectors.assignment_rows(assignment=assignment, student=request.user),
            },
        )
    if membership.role == Role.STUDENT:
        work = selectors.assignment_work(
            assignment=assignment, student=request.user, next_path=next_path
        )
        return render(
            request,
            "classes/assignment_student.html",
            {
                "assignment": assignment,
                "classroom": assignment.classroom,
                "work": work,
                "statuses": work.statuses,
                "answered": work.answered,
                "right": work.right,
                "continue_url": next_path,
            },
        )
    return render(
        request,
        "classes/assignment_teacher.html",
        {
            "assignment": assignment,
            "classroom": assignment.classroom,
            "drills": selectors.assignment_drills(assignment),
            "rows": selectors.assignment_rows(assignment=assignment),
        },
    )


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET"])
def assignment_next(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Go on with an assignment: what its session (:class:`AssignmentSession`) says comes
    next — a student's next unanswered drill (after ``?after=<position>``), its table for a
    play assignment, or the assignment's page (which says so) when every drill is answered."""
    assignment, membership = _assignment(request, pk)
    try:
        after = max(0, int(request.GET.get("after", "0")))
    except ValueError:
        after = 0
    session = AssignmentSession(request, assignment, student=membership.role == Role.STUDENT)
    return drill_sessions.go_on(request, session, after)


@login_required
@require_POST
def assignment_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assignment = get_object_or_404(selectors.assignments_taught_by(request.user), pk=pk)
    classroom = assignment.classroom
    try:
        services.assignment_delete(assignment=assignment, by=request.user)
    except ValidationError as exc:
        messages.error(request, _messages_of(exc))
        return redirect(assignment)
    messages.success(
        request, gettext("“%(title)s” has been withdrawn.") % {"title": assignment.title}
    )
    return redirect(classroom)
