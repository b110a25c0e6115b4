"""Reads for classes. Each takes the user it reads for, or a class already fetched through one.

**How an attempt counts towards an assignment.** An :class:`~trainer.progress.models.Attempt` counts
when its user is (still) a student of the assignment's class, its ``(kind, seed, params)`` is
one of the assignment's drills, and it was answered at or after the assignment was set and
after the student joined the class (a teacher never sees an answer from before: see below). A
drill is *answered* once any such attempt exists; it is *right* when the student's **first** such
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
class (assignment drills and free practice alike), paginated; never answers from before. Its
figures — answers, assignment progress, recent mistakes — come from one selector,
:func:`student_report`, under that one rule, so they always agree.

**Colours and "needs help".** An accuracy is judged against :data:`PASS_MARK` once it rests on
:data:`MIN_JUDGED_ANSWERS` answers (:func:`accuracy_band`); the dashboard's "needs help" list
names students below the pass mark in a skill over :data:`NEEDS_HELP_MIN_ANSWERS` first
answers, or behind on an assignment due within :data:`DUE_SOON_DAYS` days or overdue
(:func:`needs_help`).

Class-wide figures come from a fixed handful of ``GROUP BY`` queries whatever the number of
students or answers; nothing here queries per student.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Case, Count, F, IntegerField, Model, Q, QuerySet, When
from django.utils import timezone

from engine.drills import KIND_TITLES, KINDS, SCORE_SKILLS, skill_title
from engine.signals import ITEMS
from trainer.classes.models import (
    Assignment,
    AssignmentDrill,
    ClassMembership,
    Classroom,
    normalize_join_code,
)
from trainer.core import playlog
from trainer.core.game.kinds import name_template
from trainer.core.people import display_name
from trainer.progress.models import Attempt
from trainer.progress.selectors import play_figures
from trainer.ratings import selectors as ratings
from trainer.ratings.selectors import Point, Rating

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
#: Score drills' combinations that are no checklist item: the assignment form's ``combos``
#: (a score drill focuses on a combination as other kinds focus on an item, ``items=fours``).
SCORE_ONLY_SKILLS = tuple(s for s in SCORE_SKILLS if s not in set(map(str, ITEMS)))

#: The share of right answers (per cent) a student should reach: an accuracy at or above it is
#: good, up to :data:`WARNING_POINTS` below it a warning, further below poor.
PASS_MARK = 80
WARNING_POINTS = 15
#: Fewer answers than this are too few to judge: the figure is shown, not coloured.
MIN_JUDGED_ANSWERS = 5
#: "Needs help": below the pass mark in a skill over at least this many first answers …
NEEDS_HELP_MIN_ANSWERS = 8
#: … or an assignment due within this many days less than half done (or overdue, not done): a
#: week, so a class that meets weekly hears of it at the lesson before the date.
DUE_SOON_DAYS = 7


class Band(StrEnum):
    """How an accuracy compares with the pass mark (a CSS class and a mark on the page)."""

    GOOD = "good"
    WARNING = "warning"
    POOR = "poor"
    NEUTRAL = "neutral"


def percent_of(right: int, answers: int) -> int | None:
    """The whole percentage shown for ``right`` of ``answers`` (as the ``percent`` filter)."""
    return round(100 * right / answers) if answers else None


def accuracy_band(right: int, answers: int) -> Band:
    """``right`` of ``answers`` against :data:`PASS_MARK`, judged on the percentage the page
    shows (so 79.6% shown as 80% is at the pass mark); neutral under :data:`MIN_JUDGED_ANSWERS`.

    >>> [accuracy_band(*x) for x in [(8, 10), (7, 10), (3, 7), (1, 2)]]
    [<Band.GOOD: 'good'>, <Band.WARNING: 'warning'>, <Band.POOR: 'poor'>, <Band.NEUTRAL: 'neutral'>]
    """
    percent = percent_of(right, answers)
    if percent is None or answers < MIN_JUDGED_ANSWERS:
        return Band.NEUTRAL
    if percent >= PASS_MARK:
        return Band.GOOD
    if percent >= PASS_MARK - WARNING_POINTS:
        return Band.WARNING
    return Band.POOR


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

    @property
    def band(self) -> Band:
        """Accuracy against the pass mark (neutral for deals, which have none)."""
        return Band.NEUTRAL if self.deals else accuracy_band(self.right, self.answered)


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
                 AND t.created_at >= m.joined_at
            WHERE {where}
        ) ranked
        WHERE nth = 1
    """  # noqa: S608


def _rows(sql: str, params: list[int]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, [Role.STUDENT.value, *params])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def _first_answers(where: str, params: list[int]) -> dict[tuple[int, int], tuple[int, int]]:
    """``{(assignment_id, user_id): (answered, right)}`` by the counting rule above."""
    sql = f"""
        SELECT assignment_id, user_id, COUNT(*), SUM(first_right)
        FROM ({_first_answers_sql(where)}) firsts
        GROUP BY assignment_id, user_id
    """  # noqa: S608 (see _first_answers_sql)
    return {(a, u): (int(n), int(r or 0)) for a, u, n, r in _rows(sql, params)}


def _skill_figures(where: str, params: list[int]) -> dict[int, list[SkillFigure]]:
    """First answers to assignment drills by student, then kind × skill (``students`` is 1)."""
    sql = f"""
        SELECT user_id, kind, skill, COUNT(*), SUM(first_right)
        FROM ({_first_answers_sql(where)}) firsts
        GROUP BY user_id, kind, skill
        ORDER BY user_id, kind, skill
    """  # noqa: S608 (see _first_answers_sql)
    out: dict[int, list[SkillFigure]] = {}
    for who, k, s, n, r in _rows(sql, params):
        out.setdefault(int(who), []).append(SkillFigure(k, s, int(n), int(r or 0), 1))
    return out


def _pooled(by_student: dict[int, list[SkillFigure]]) -> list[SkillFigure]:
    """The class's figures by kind × skill: every student's pooled, with how many gave them."""
    pooled: dict[tuple[str, str], SkillFigure] = {}
    for figures in by_student.values():
        for f in figures:
            was = pooled.get((f.kind, f.skill), SkillFigure(f.kind, f.skill, 0, 0, 0))
            pooled[(f.kind, f.skill)] = SkillFigure(
                f.kind, f.skill, was.answers + f.answers, was.right + f.right, was.students + 1
            )
    return [pooled[key] for key in sorted(pooled)]


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
    """Each drill of the assignment with the student's first counted answer (given after the
    assignment was set and the student joined, as everywhere). Three queries."""
    drills = assignment_drills(assignment)
    firsts: dict[tuple[str, int, str], Attempt] = {}
    if drills and student.is_authenticated:
        joined = (
            ClassMembership.objects.filter(classroom_id=assignment.classroom_id, user_id=student.pk)
            .values_list("joined_at", flat=True)
            .first()
        )
        since = max(assignment.created_at, joined) if joined else assignment.created_at
        attempts = Attempt.objects.filter(
            user_id=student.pk,
            created_at__gte=since,
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
        skill to drill — a checklist item (``items``; a score drill's "fours" is one too) or a
        score drill's other combinations (``combos``). The form checks both, and titles it."""
        query = {"kinds": self.kind}
        if self.skill in ITEMS:
            query["items"] = self.skill
        elif self.skill in SCORE_ONLY_SKILLS:
            query["combos"] = self.skill
        return urlencode(query)

    @property
    def accuracy(self) -> float:
        return self.right / self.answers if self.answers else 0.0

    @property
    def band(self) -> Band:
        return accuracy_band(self.right, self.answers)

    @property
    def below_pass_mark(self) -> bool:
        """Judged on enough first answers for "needs help", and under the pass mark."""
        percent = percent_of(self.right, self.answers)
        return (
            self.answers >= NEEDS_HELP_MIN_ANSWERS and percent is not None and percent < PASS_MARK
        )


PlayFigures = playlog.PlayFigures


@dataclass(frozen=True, slots=True)
class KindRating:
    """A learner's Glicko-2 rating for one drill kind (``trainer.ratings``), and, on the
    student page, its history since the student joined the class."""

    rating: Rating
    history: list[Point] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.rating.kind

    @property
    def title(self) -> str:
        return KIND_TITLES.get(self.kind, self.kind)

    @property
    def name_template(self) -> str | None:
        """The kind's short name ("Lead drill"), a template partial."""
        return name_template(self.kind)


def _in_kind_order(found: dict[str, Rating]) -> list[KindRating]:
    return [KindRating(found[k]) for k in KINDS if k in found]


@dataclass(frozen=True)
class StudentRow:
    membership: ClassMembership
    completions: list[Completion]

    @property
    def user(self) -> User:
        return self.membership.user

    play: PlayFigures = field(default_factory=PlayFigures)
    #: The student's first answers to the class's assignment drills, by kind × skill.
    skills: list[SkillFigure] = field(default_factory=list)
    ratings: list[KindRating] = field(default_factory=list)

    @property
    def play_band(self) -> Band:
        return accuracy_band(self.play.right, self.play.answers)

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


class Why(StrEnum):
    """Why a student is on the "needs help" list."""

    OVERDUE = "overdue"  # past its due date, not done
    DUE_SOON = "due_soon"  # due within DUE_SOON_DAYS days, less than half done
    POOR_WORK = "poor_work"  # an assignment's cell marked poor (✗) on the dashboard
    SKILL = "skill"  # below the pass mark in a skill over NEEDS_HELP_MIN_ANSWERS first answers
    KIND = "kind"  # below it in a kind of drill over as many (no one skill of it has enough)


@dataclass(frozen=True)
class HelpReason:
    why: Why
    assignment: AssignmentWithTotal | None = None
    completion: Completion | None = None
    skill: SkillFigure | None = None


@dataclass(frozen=True)
class HelpEntry:
    """A student the teacher should look at, and every reason why."""

    row: StudentRow
    reasons: list[HelpReason]

    @property
    def user(self) -> User:
        return self.row.user


def needs_help(
    students: Iterable[StudentRow],
    assignments: list[AssignmentWithTotal],
    *,
    today: date,
    due_dates: bool = True,
) -> list[HelpEntry]:
    """Students behind on an assignment or below the pass mark, each with every reason why:
    the list agrees with the table below it, where each reason is a marked cell.

    An assignment is behind when it is overdue and not done, or due within
    :data:`DUE_SOON_DAYS` days (today included) with less than half of it done; poor when its
    cell is marked poor (right first time well under the pass mark, over enough answers to
    judge: :func:`accuracy_band`); a skill is weak when the student's first answers to it
    number :data:`NEEDS_HELP_MIN_ANSWERS` or more and are right less often than
    :data:`PASS_MARK` (weakest first), and a kind of drill is when its skills together reach
    that many answers and that mark and none of them alone does. ``due_dates`` False (an
    archived class) leaves the dates out. Students with overdue work first, then work due soon,
    then poor work, then weak skills and kinds; by name within each.
    """
    out: list[HelpEntry] = []
    for row in students:
        reasons: list[HelpReason] = []
        dated = list(zip(assignments, row.completions, strict=True)) if due_dates else []
        for a, c in dated:
            days = (a.due_on - today).days
            if days < 0 and not c.done:
                reasons.append(HelpReason(Why.OVERDUE, a, c))
            elif 0 <= days <= DUE_SOON_DAYS and 2 * c.answered < c.total:
                reasons.append(HelpReason(Why.DUE_SOON, a, c))
        # Overdue before due soon, the earliest due first (whatever order the rows came in).
        reasons.sort(
            key=lambda r: (
                (list(Why).index(r.why), (r.assignment.due_on, r.assignment.pk))
                if r.assignment is not None
                else (len(Why), (date.max, 0))
            )
        )
        reasons += [
            HelpReason(Why.POOR_WORK, a, c)
            for a, c in zip(assignments, row.completions, strict=True)
            if c.band == Band.POOR
        ]
        weak = sorted(
            (s for s in row.skills if s.below_pass_mark),
            key=lambda s: (s.accuracy, -s.answers, s.kind, s.skill),
        )
        reasons += [HelpReason(Why.SKILL, skill=s) for s in weak]
        named = {s.kind for s in weak}
        reasons += [
            HelpReason(Why.KIND, skill=k)
            for k in _kinds_pooled(row.skills)
            if k.below_pass_mark and k.kind not in named
        ]
        if reasons:
            out.append(HelpEntry(row, reasons))
    order = list(Why)
    out.sort(
        key=lambda e: (
            min(order.index(r.why) for r in e.reasons),
            display_name(e.user).casefold(),
            e.user.pk,
        )
    )
    return out


def _kinds_pooled(skills: Iterable[SkillFigure]) -> list[SkillFigure]:
    """One student's skills added up by kind of drill (``skill`` empty: the whole kind),
    weakest first."""
    kinds: dict[str, tuple[int, int]] = {}
    for s in skills:
        answers, right = kinds.get(s.kind, (0, 0))
        kinds[s.kind] = (answers + s.answers, right + s.right)
    pooled = [SkillFigure(kind, "", a, r, 1) for kind, (a, r) in kinds.items()]
    return sorted(pooled, key=lambda k: (k.accuracy, -k.answers, k.kind))


@dataclass(frozen=True)
class Dashboard:
    classroom: Classroom
    assignments: list[AssignmentWithTotal]
    students: list[StudentRow]
    weakest: list[SkillFigure] = field(default_factory=list)
    skills: list[SkillFigure] = field(default_factory=list)
    needs_help: list[HelpEntry] = field(default_factory=list)

    @property
    def has_play(self) -> bool:
        """Whether the class has a "play N deals" assignment (the dashboard then shows each
        student's signal accuracy in play)."""
        return any(a.is_play for a in self.assignments)

    @property
    def has_ratings(self) -> bool:
        return any(row.ratings for row in self.students)


def dashboard_for(*, classroom: Classroom, with_ratings: bool = True) -> Dashboard:
    """Students × assignments, the class's skills on assignment drills, who needs help.

    Five queries however large the class: assignments, students, one ``GROUP BY assignment,
    student`` for progress, one ``GROUP BY student, kind, skill`` for the skills (pooled here
    for the class) and the students' ratings (none with ``with_ratings`` False: the CSV); two
    more when the class has a play assignment (deals finished, and answers given in play, each
    grouped). The caller must have fetched ``classroom`` through :func:`classes_taught_by`.
    """
    assignments = list(assignments_of(classroom))
    memberships = list(members_of(classroom, Role.STUDENT))
    progress = _first_answers("a.classroom_id = %s", [classroom.pk])
    deals = _play_completions(assignments)
    by_student = _skill_figures("a.classroom_id = %s", [classroom.pk])
    play = {}
    if any(a.is_play for a in assignments):  # answers given in play since each joined
        play = play_figures({m.user_id: m.joined_at for m in memberships})
    rated = ratings.ratings_of_users(m.user_id for m in memberships) if with_ratings else {}
    students = [
        StudentRow(
            m,
            [_completion(a, m.user_id, progress, deals) for a in assignments],
            play.get(m.user_id, PlayFigures()),  # none asked: no play assignment
            skills=by_student.get(m.user_id, []),
            ratings=_in_kind_order(rated.get(m.user_id, {})),
        )
        for m in memberships
    ]
    skills = _pooled(by_student)
    return Dashboard(
        classroom,
        assignments,
        students,
        weakest=weakest_skills(skills),
        skills=skills,
        needs_help=needs_help(
            students,
            assignments,
            today=timezone.localdate(),
            due_dates=not classroom.is_archived,
        ),
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


#: Wrong answers listed at the top of a student's page (the history holds them all).
MISTAKES_SHOWN = 10


@dataclass(frozen=True)
class StudentReport:
    """Everything a student's page shows their teacher, counted by one rule: answers given
    since the student joined the class (the header, the assignments table, the mistakes and
    the history below them all agree)."""

    membership: ClassMembership
    #: Every answer since joining (assignment drills, free practice and play), and right ones.
    answers: int
    right: int
    assignments: list[tuple[AssignmentWithTotal, Completion]]
    #: The latest wrong answers since joining, newest first (at most :data:`MISTAKES_SHOWN`).
    mistakes: list[Attempt]
    ratings: list[KindRating] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answers if self.answers else None

    @property
    def band(self) -> Band:
        return accuracy_band(self.right, self.answers)

    @property
    def drills(self) -> Completion:
        """The class's drill assignments taken together (as the dashboard's last column)."""
        done = [c for _, c in self.assignments if not c.deals]
        return Completion(
            sum(c.answered for c in done), sum(c.right for c in done), sum(c.total for c in done)
        )


def student_report(*, classroom: Classroom, membership: ClassMembership) -> StudentReport:
    """The student page's figures for ``membership``, a student's of ``classroom`` (found
    through a class the caller teaches): a fixed handful of queries, plus one per rated drill
    kind (its history)."""
    student = membership.user
    assignments = list(assignments_of(classroom))
    completions = completions_for_student(student=student, assignments=assignments)
    answers, right = student_totals(membership=membership)
    mistakes = list(student_history(membership=membership, mistakes_only=True)[:MISTAKES_SHOWN])
    rated = [
        KindRating(
            r.rating,
            # Points are answers: only those given since joining, as everything else here.
            [p for p in ratings.history(student, r.kind) if p.at >= membership.joined_at],
        )
        for r in _in_kind_order(ratings.ratings_of(student))
    ]
    return StudentReport(
        membership,
        answers,
        right,
        [(a, completions[a.pk]) for a in assignments],
        mistakes,
        rated,
    )


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
