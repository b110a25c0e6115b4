"""Reads for classes. Each takes the user it reads for, or a class already fetched through one.

**How an attempt counts towards an assignment.** An :class:`~trainer.progress.models.Attempt` counts
when its user is (still) a student of the assignment's class, its ``(kind, seed, params)`` is
one of the assignment's drills, and it was answered at or after the assignment was set. A drill
is *answered* once any such attempt exists; it is *right* when the student's **first** such
answer was right (a drill replayed after seeing the answer does not raise the score). So
completion is answered / drills and accuracy is right / answered.

**A play assignment** ("play N deals") has no drills: a student's finished deals played for
it count (up to N, through ``core.playlog``), and the dashboard adds each student's signal
accuracy in play: the leads and quiz answers recorded with ``source="play"`` since joining.

**The class's weakest skills** pool those same first answers to assignment drills across the
class's students, by drill kind × skill. Only set work is ranked, so a student's private
practice stays out of the class figures, and the dashboard reads a few thousand matched rows
instead of every answer the class ever gave.

**A student's page** shows their teacher every answer given since the student joined the
class (assignment drills and free practice alike), paginated; never answers from before.

Class-wide figures come from a fixed handful of ``GROUP BY`` queries whatever the number of
students or answers; nothing here queries per student.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Case, Count, F, IntegerField, Model, Q, QuerySet, When

from engine.drills import KIND_TITLES, KINDS, skill_title, skills_for
from engine.signals import ITEMS
from trainer.classes.models import (
    Assignment,
    AssignmentDrill,
    ClassMembership,
    Classroom,
    normalize_join_code,
)
from trainer.core import playlog
from trainer.core.people import display_name
from trainer.progress.models import Attempt
from trainer.progress.selectors import play_figures

if TYPE_CHECKING:  # django-stubs' helper (a dev dependency): for annotations only
    from django_stubs_ext import WithAnnotations

    class _Total(TypedDict):
        total: int

    #: An assignment read with ``total`` (``annotate(total=_TOTAL)``).
    AssignmentWithTotal = WithAnnotations[Assignment, _Total]

Role = ClassMembership.Role
#: An assignment's size: its drills, or for a play assignment the deals to play.
_TOTAL = Case(
    When(source=Assignment.Source.PLAY, then=F("count")),
    default=Count("drills"),
    output_field=IntegerField(),
)
#: A skill needs this many answers across the class before it is ranked among the weakest.
WEAKEST_MIN_ANSWERS = 5
WEAKEST_SHOWN = 6
#: Kinds whose skills are checklist items (a drill of them can focus on ``items``); score
#: drills' skills are combinations, some named like items ("fours"), and take no items.
ITEM_KINDS = frozenset(str(k) for k in KINDS if set(map(str, skills_for(k))) <= set(ITEMS))


# --------------------------------------------------------------------------------------------
# Classes and assignments a user may see


def classes_taught_by(user: User) -> QuerySet[Classroom]:
    """Classes ``user`` teaches, archived ones included."""
    if not user.is_authenticated:
        return Classroom.objects.none()
    return Classroom.objects.filter(memberships__user_id=user.pk, memberships__role=Role.TEACHER)


def classes_of_student(user: User) -> QuerySet[Classroom]:
    """Classes ``user`` is a student in."""
    if not user.is_authenticated:
        return Classroom.objects.none()
    return Classroom.objects.filter(memberships__user_id=user.pk, memberships__role=Role.STUDENT)


def classes_taught_with_counts(user: User) -> QuerySet[Classroom]:
    """Classes ``user`` teaches, each with ``students`` and ``assignment_count``; open ones
    first, then by name."""
    # A fresh queryset for the counts: classes_taught_by's own join holds only the teacher.
    return (
        Classroom.objects.filter(pk__in=classes_taught_by(user).values("pk"))
        .annotate(
            students=Count("memberships", filter=Q(memberships__role=Role.STUDENT), distinct=True),
            assignment_count=Count("assignments", distinct=True),
        )
        .order_by("archived_at", "name", "id")
    )


def classroom_by_code(code: str) -> Classroom | None:
    """The class a join code (as typed: any case, spaces or dashes) opens, or None."""
    return Classroom.objects.filter(join_code=normalize_join_code(code)).first()


def classes_of(user: User) -> QuerySet[Classroom]:
    """Classes ``user`` belongs to in either role."""
    if not user.is_authenticated:
        return Classroom.objects.none()
    return Classroom.objects.filter(memberships__user_id=user.pk)


def membership_of(*, classroom: Classroom, user: User) -> ClassMembership | None:
    if not user.is_authenticated:
        return None
    return ClassMembership.objects.filter(classroom=classroom, user_id=user.pk).first()


def assignments_visible_to(user: User) -> QuerySet[Assignment]:
    """Assignments of every class ``user`` teaches or is a student in."""
    return Assignment.objects.filter(classroom__in=classes_of(user)).select_related("classroom")


def assignments_taught_by(user: User) -> QuerySet[Assignment]:
    """Assignments of the classes ``user`` teaches."""
    return Assignment.objects.filter(classroom__in=classes_taught_by(user))


def assignment_with_total(user: User, pk: int) -> AssignmentWithTotal | None:
    """Assignment ``pk`` if ``user`` may see it, with ``total`` (its number of drills)."""
    return assignments_visible_to(user).annotate(total=_TOTAL).filter(pk=pk).first()


def assignments_of(classroom: Classroom) -> QuerySet[AssignmentWithTotal]:
    """The class's assignments, soonest due first, each with ``total`` (its number of drills)."""
    return Assignment.objects.filter(classroom=classroom).annotate(total=_TOTAL)


def assignment_drills(assignment: Assignment) -> list[AssignmentDrill]:
    """The assignment's drills, in order."""
    return list(AssignmentDrill.objects.filter(assignment=assignment).order_by("position"))


def members_of(classroom: Classroom, role: str) -> QuerySet[ClassMembership]:
    return (
        ClassMembership.objects.filter(classroom=classroom, role=role)
        .select_related("user")
        .order_by("user__username")
    )


# --------------------------------------------------------------------------------------------
# Assignment progress


@dataclass(frozen=True, slots=True)
class Completion:
    """One student's progress on one assignment."""

    answered: int
    right: int
    total: int
    #: A play assignment: ``answered`` counts finished deals, and ``right`` is not kept.
    deals: bool = False

    @property
    def done(self) -> bool:
        return self.total > 0 and self.answered >= self.total

    @property
    def started(self) -> bool:
        return self.answered > 0

    @property
    def accuracy(self) -> float | None:
        if self.deals:
            return None
        return self.right / self.answered if self.answered else None

    @property
    def percent_done(self) -> int:
        return round(100 * self.answered / self.total) if self.total else 0


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _first_answers_sql(where: str) -> str:
    """Each student's first counted answer to each assignment drill, with its assignment,
    user, kind, skill and ``first_right`` (1 or 0). ``where`` filters ``a`` (the assignment)
    and ``m`` (the student's membership). Only quoted table names and fixed ``where``
    fragments from this module are interpolated; every value is a query parameter."""
    return f"""
        SELECT assignment_id, user_id, kind, skill, first_right
        FROM (
            SELECT d.assignment_id AS assignment_id, t.user_id AS user_id,
                   t.kind AS kind, t.skill AS skill,
                   CASE WHEN t.correct THEN 1 ELSE 0 END AS first_right,
                   ROW_NUMBER() OVER (
                       PARTITION BY d.id, t.user_id ORDER BY t.created_at, t.id
                   ) AS nth
            FROM {_table(AssignmentDrill)} d
            JOIN {_table(Assignment)} a ON a.id = d.assignment_id
            JOIN {_table(ClassMembership)} m
                 ON m.classroom_id = a.classroom_id AND m.role = %s
            JOIN {_table(Attempt)} t
                 ON t.seed = d.seed AND t.kind = d.kind AND t.params = d.params
                 AND t.user_id = m.user_id AND t.created_at >= a.created_at
            WHERE {where}
        ) ranked
        WHERE nth = 1
    """  # noqa: S608


def _rows(sql: str, params: list[int]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, [Role.STUDENT.value, *params])
        return cursor.fetchall()


def _first_answers(where: str, params: list[int]) -> dict[tuple[int, int], tuple[int, int]]:
    """``{(assignment_id, user_id): (answered, right)}`` by the counting rule above."""
    sql = f"""
        SELECT assignment_id, user_id, COUNT(*), SUM(first_right)
        FROM ({_first_answers_sql(where)}) firsts
        GROUP BY assignment_id, user_id
    """  # noqa: S608 (see _first_answers_sql)
    return {(a, u): (int(n), int(r or 0)) for a, u, n, r in _rows(sql, params)}


def _skill_figures(where: str, params: list[int]) -> list[SkillFigure]:
    """First answers to assignment drills by kind × skill, with how many students gave them."""
    sql = f"""
        SELECT kind, skill, COUNT(*), SUM(first_right), COUNT(DISTINCT user_id)
        FROM ({_first_answers_sql(where)}) firsts
        GROUP BY kind, skill
        ORDER BY kind, skill
    """  # noqa: S608 (see _first_answers_sql)
    return [
        SkillFigure(k, s, int(n), int(r or 0), int(who)) for k, s, n, r, who in _rows(sql, params)
    ]


def _play_completions(
    assignments: Iterable[Assignment],
) -> dict[tuple[int, int], int]:
    """``{(assignment_id, user_id): finished deals}`` for the play assignments among these."""
    return playlog.deals_played(a.pk for a in assignments if a.is_play)


def _completion(
    a: AssignmentWithTotal,
    user_id: int,
    drills: dict[tuple[int, int], tuple[int, int]],
    deals: dict[tuple[int, int], int],
) -> Completion:
    if a.is_play:
        return Completion(min(deals.get((a.pk, user_id), 0), a.total), 0, a.total, deals=True)
    return Completion(*drills.get((a.pk, user_id), (0, 0)), a.total)


def completions_for_student(
    *, student: User, assignments: Iterable[AssignmentWithTotal]
) -> dict[int, Completion]:
    """``{assignment_id: Completion}`` for one student; ``assignments`` need ``total``."""
    assignments = list(assignments)
    if not assignments or not student.is_authenticated:
        return {}
    ids = [a.pk for a in assignments]
    marks = ", ".join(["%s"] * len(ids))
    found = _first_answers(f"a.id IN ({marks}) AND m.user_id = %s", [*ids, student.pk])
    deals = _play_completions(assignments)
    return {a.pk: _completion(a, student.pk, found, deals) for a in assignments}


@dataclass(frozen=True)
class OpenAssignment:
    assignment: Assignment
    completion: Completion


def open_assignments_for(*, student: User) -> list[OpenAssignment]:
    """Unfinished assignments of the student's classes that are not archived, soonest due
    first (overdue ones too: late work is still worth doing). Two queries."""
    if not student.is_authenticated:
        return []
    assignments = list(
        Assignment.objects.filter(
            classroom__in=classes_of_student(student), classroom__archived_at__isnull=True
        )
        .select_related("classroom")
        .annotate(total=_TOTAL)
        .order_by("due_on", "created_at", "id")
    )
    completions = completions_for_student(student=student, assignments=assignments)
    return [OpenAssignment(a, completions[a.pk]) for a in assignments if not completions[a.pk].done]


@dataclass(frozen=True)
class DrillStatus:
    drill: AssignmentDrill
    #: The student's first counted answer, or None when not answered yet.
    first: Attempt | None
    url: str

    @property
    def answered(self) -> bool:
        return self.first is not None


def drill_statuses(
    *, assignment: Assignment, student: User, next_path: str | None = None
) -> list[DrillStatus]:
    """Each drill of the assignment with the student's first counted answer. Two queries."""
    drills = assignment_drills(assignment)
    firsts: dict[tuple[str, int, str], Attempt] = {}
    if drills and student.is_authenticated:
        attempts = Attempt.objects.filter(
            user_id=student.pk,
            created_at__gte=assignment.created_at,
            seed__in={d.seed for d in drills},
            kind__in={d.kind for d in drills},
        ).order_by("created_at", "id")
        for attempt in attempts:
            firsts.setdefault((attempt.kind, attempt.seed, attempt.params), attempt)
    out = []
    for d in drills:
        path = f"{next_path}?after={d.position}" if next_path else None
        out.append(DrillStatus(d, firsts.get((d.kind, d.seed, d.params)), d.url(path)))
    return out


def next_unanswered(statuses: list[DrillStatus], *, after: int = 0) -> DrillStatus | None:
    """The first unanswered drill after position ``after``, wrapping round to the start."""
    pending = [s for s in statuses if not s.answered]
    later = [s for s in pending if s.drill.position > after]
    candidates = later or pending
    return candidates[0] if candidates else None


# --------------------------------------------------------------------------------------------
# The class dashboard


@dataclass(frozen=True, slots=True)
class AssignmentWork:
    """A student's work on one assignment: each drill's status, and the counts shown."""

    assignment: Assignment
    statuses: list[DrillStatus]

    @property
    def answered(self) -> int:
        return sum(1 for s in self.statuses if s.answered)

    @property
    def right(self) -> int:
        """Drills whose first counted answer was right."""
        return sum(1 for s in self.statuses if s.first is not None and s.first.correct)

    @property
    def late(self) -> bool:
        """Past its due date with drills still unanswered."""
        return self.assignment.is_overdue and self.answered < len(self.statuses)


def assignment_work(
    *, assignment: Assignment, student: User, next_path: str | None = None
) -> AssignmentWork:
    """``student``'s work on ``assignment`` (see :func:`drill_statuses`). Two queries."""
    return AssignmentWork(
        assignment, drill_statuses(assignment=assignment, student=student, next_path=next_path)
    )


@dataclass(frozen=True)
class SkillFigure:
    kind: str
    skill: str
    answers: int
    right: int
    students: int

    @property
    def title(self) -> str:
        return skill_title(self.kind, self.skill)

    @property
    def kind_title(self) -> str:
        return KIND_TITLES.get(self.kind, self.kind)

    @property
    def practice_query(self) -> str:
        """The new-assignment form's query that sets practice on this skill: its kind, and the
        skill as the item to drill when the kind drills checklist items (score does not)."""
        query = {"kinds": self.kind}
        if self.kind in ITEM_KINDS:
            query["items"] = self.skill
        return urlencode(query)

    @property
    def accuracy(self) -> float:
        return self.right / self.answers if self.answers else 0.0


PlayFigures = playlog.PlayFigures


@dataclass(frozen=True)
class StudentRow:
    membership: ClassMembership
    completions: list[Completion]

    @property
    def user(self) -> User:
        return self.membership.user

    play: PlayFigures = field(default_factory=PlayFigures)

    @property
    def overall(self) -> Completion:
        """Every drill assignment of the class taken together (deals are counted apart)."""
        drills = [c for c in self.completions if not c.deals]
        return Completion(
            sum(c.answered for c in drills),
            sum(c.right for c in drills),
            sum(c.total for c in drills),
        )

    @property
    def assignments_done(self) -> int:
        return sum(c.done for c in self.completions)


@dataclass(frozen=True)
class Dashboard:
    classroom: Classroom
    assignments: list[AssignmentWithTotal]
    students: list[StudentRow]
    weakest: list[SkillFigure] = field(default_factory=list)
    skills: list[SkillFigure] = field(default_factory=list)

    @property
    def has_play(self) -> bool:
        """Whether the class has a "play N deals" assignment (the dashboard then shows each
        student's signal accuracy in play)."""
        return any(a.is_play for a in self.assignments)


def dashboard_for(*, classroom: Classroom) -> Dashboard:
    """Students × assignments and the class's skills on assignment drills.

    Four queries however large the class: assignments, students, one ``GROUP BY assignment,
    student`` for progress and one ``GROUP BY kind, skill`` for the skills; two more when the
    class has a play assignment (deals finished, and answers given in play, each grouped).
    The caller must have fetched ``classroom`` through :func:`classes_taught_by`.
    """
    assignments = list(assignments_of(classroom))
    memberships = list(members_of(classroom, Role.STUDENT))
    progress = _first_answers("a.classroom_id = %s", [classroom.pk])
    deals = _play_completions(assignments)
    skills = _skill_figures("a.classroom_id = %s", [classroom.pk])
    play = {}
    if any(a.is_play for a in assignments):  # answers given in play since each joined
        play = play_figures({m.user_id: m.joined_at for m in memberships})
    students = [
        StudentRow(
            m,
            [_completion(a, m.user_id, progress, deals) for a in assignments],
            play.get(m.user_id, PlayFigures()),  # none asked: no play assignment
        )
        for m in memberships
    ]
    return Dashboard(
        classroom, assignments, students, weakest=weakest_skills(skills), skills=skills
    )


def weakest_skills(skills: Iterable[SkillFigure], limit: int = WEAKEST_SHOWN) -> list[SkillFigure]:
    """Skills with enough answers and some wrong, lowest accuracy first (ties: most answers)."""
    ranked = [s for s in skills if s.answers >= WEAKEST_MIN_ANSWERS and s.right < s.answers]
    ranked.sort(key=lambda s: (s.accuracy, -s.answers, s.kind, s.skill))
    return ranked[:limit]


def assignment_completions(
    *, assignment: AssignmentWithTotal
) -> list[tuple[ClassMembership, Completion]]:
    """Every student of the class on one assignment (``assignment`` needs ``total``)."""
    progress = _first_answers("a.id = %s", [assignment.pk])
    deals = _play_completions([assignment])
    return [
        (m, _completion(assignment, m.user_id, progress, deals))
        for m in members_of(assignment.classroom, Role.STUDENT)
    ]


def assignment_rows(
    *, assignment: AssignmentWithTotal, student: User | None = None
) -> list[tuple[ClassMembership, Completion, list[playlog.DealLink]]]:
    """Every student (or only ``student``) on one assignment, with the deals each played for
    it when it is a play assignment (``assignment`` needs ``total``)."""
    links = playlog.deal_links(assignment.pk) if assignment.is_play else {}
    return [
        (m, c, links.get(m.user_id, []))
        for m, c in assignment_completions(assignment=assignment)
        if student is None or m.user_id == student.pk
    ]


# --------------------------------------------------------------------------------------------
# One student, as their teacher sees them


def student_history(
    *, membership: ClassMembership, mistakes_only: bool = False
) -> QuerySet[Attempt]:
    """The student's answers since joining the class, newest first."""
    attempts = Attempt.objects.filter(
        user_id=membership.user_id, created_at__gte=membership.joined_at
    )
    if mistakes_only:
        attempts = attempts.filter(correct=False)
    return attempts.order_by("-created_at", "-id")


def student_totals(*, membership: ClassMembership) -> tuple[int, int]:
    """``(answers, right)`` since joining."""
    row = student_history(membership=membership).aggregate(
        n=Count("id"), ok=Count("id", filter=Q(correct=True))
    )
    return row["n"], row["ok"]


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """Spreadsheet-safe: text that a spreadsheet would run as a formula is quoted."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def dashboard_table(data: Dashboard) -> list[list[object]]:
    """The dashboard's students × assignments as rows for a spreadsheet: a header, then one
    row per student (their display name and username, then per assignment the drills answered
    and right first time — or, for a play assignment, the deals finished — then the drill
    assignments overall, and, when the class plays, the signals led and read right in play)."""
    header: list[object] = ["student", "username", "joined"]
    for a in data.assignments:
        due = a.due_on.isoformat()
        if a.is_play:
            header.append(f"{a.title} (due {due}): deals finished of {a.total}")
        else:
            header += [
                f"{a.title} (due {due}): drills answered of {a.total}",
                f"{a.title}: right first time (%)",
            ]
    total = sum(a.total for a in data.assignments if not a.is_play)
    header += [
        f"all drill assignments: drills answered of {total}",
        "all drill assignments: right first time (%)",
    ]
    if data.has_play:
        header += ["in play: signals led and read", "in play: right (%)"]
    rows = [[_cell(h) for h in header]]
    for row in data.students:
        line: list[object] = [
            display_name(row.user),
            row.user.get_username(),
            row.membership.joined_at.date().isoformat(),
        ]
        for c in [*row.completions, row.overall]:
            line.append(c.answered)
            if not c.deals:
                line.append("" if c.accuracy is None else round(100 * c.accuracy))
        if data.has_play:
            accuracy = row.play.accuracy
            line += [row.play.answers, "" if accuracy is None else round(100 * accuracy)]
        rows.append([_cell(v) for v in line])
    return rows
