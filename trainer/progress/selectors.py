"""Reads. Every selector takes the user it reads for, so no view can read another's data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext

from engine.drills import KIND_TITLES, KINDS, DrillKind, skill_title
from trainer.core.playlog import PlayFigures
from trainer.core.teaching import lessons_for
from trainer.progress.models import (
    DEFAULT_DAILY_GOAL,
    SOURCE_DRILL,
    SOURCE_PLAY,
    Attempt,
    ReviewGoal,
    SkillState,
)

#: Skills with fewer answers than this are not ranked among the weakest.
WEAKEST_MIN_ATTEMPTS = 2
FAILED_DRILLS_SHOWN = 12
CHART_DAYS = 30


@dataclass(frozen=True)
class SkillRow:
    kind: str
    skill: str
    title: str
    attempts: int
    correct: int
    accuracy: float | None
    recent_accuracy: float | None
    last_seen: datetime | None
    due: datetime
    is_due: bool

    @property
    def kind_title(self) -> str:
        return KIND_TITLES.get(self.kind, self.kind)


@dataclass(frozen=True)
class SkillGroup:
    """The skills one lesson teaches (``url`` empty for skills no lesson teaches)."""

    title: str
    url: str
    rows: list[SkillRow]

    @property
    def attempts(self) -> int:
        return sum(r.attempts for r in self.rows)

    @property
    def correct(self) -> int:
        return sum(r.correct for r in self.rows)

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.attempts if self.attempts else None

    @property
    def due(self) -> int:
        return sum(r.is_due for r in self.rows)


@dataclass(frozen=True)
class Today:
    """Today's answers against the daily review goal."""

    answered: int
    right: int
    goal: int

    @property
    def met(self) -> bool:
        return self.answered >= self.goal

    @property
    def left(self) -> int:
        return max(0, self.goal - self.answered)

    @property
    def shown(self) -> int:
        """The answers the goal's progress bar shows (it stops full)."""
        return min(self.answered, self.goal)


@dataclass(frozen=True)
class DayPoint:
    day: date
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class Progress:
    skills: list[SkillRow]
    weakest: list[SkillRow]
    days: list[DayPoint]
    failed: list[Attempt]
    streak: int
    total_attempts: int
    total_correct: int
    due: list[SkillRow] = field(default_factory=list)
    today: Today | None = None
    groups: list[SkillGroup] = field(default_factory=list)


def skill_rows(*, user: User, now: datetime | None = None) -> list[SkillRow]:
    now = now or timezone.now()
    return [
        SkillRow(
            kind=s.kind,
            skill=s.skill,
            title=skill_title(s.kind, s.skill),
            attempts=s.attempts,
            correct=s.correct,
            accuracy=s.accuracy,
            recent_accuracy=s.recent_accuracy,
            last_seen=s.last_seen,
            due=s.due,
            is_due=s.due <= now,
        )
        for s in SkillState.objects.filter(user=user).order_by("kind", "skill")
    ]


def weakest_skills(rows: list[SkillRow], limit: int = 5) -> list[SkillRow]:
    """Skills with enough answers, worst recent accuracy first (ties: worst overall)."""
    ranked = [r for r in rows if r.attempts >= WEAKEST_MIN_ATTEMPTS]
    ranked.sort(key=lambda r: (r.recent_accuracy or 0.0, r.accuracy or 0.0, -r.attempts))
    return [r for r in ranked if (r.recent_accuracy or 0.0) < 1.0][:limit]


def due_skills(*, user: User, now: datetime | None = None) -> QuerySet[SkillState]:
    """Skills whose review is due, most overdue first."""
    now = now or timezone.now()
    return SkillState.objects.filter(user=user, due__lte=now).order_by("due")


def accuracy_by_day(
    *, user: User, days: int = CHART_DAYS, now: datetime | None = None
) -> list[DayPoint]:
    now = now or timezone.now()
    since = now - timedelta(days=days)
    rows = (
        Attempt.objects.filter(user=user, created_at__gte=since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)))
        .order_by("day")
    )
    return [DayPoint(r["day"], r["n"], r["ok"]) for r in rows]


def failed_drills(*, user: User, limit: int = FAILED_DRILLS_SHOWN) -> list[Attempt]:
    """The latest wrong answers whose drill has not been answered right since, one per drill.

    Answers made in play are left out: a lead or read at the table is not a drill to replay
    (its deal's review shows it)."""
    solved_later = Attempt.objects.filter(
        user=user,
        kind=OuterRef("kind"),
        seed=OuterRef("seed"),
        params=OuterRef("params"),
        correct=True,
        created_at__gt=OuterRef("created_at"),
    )
    wrong = (
        Attempt.objects.filter(user=user, correct=False, source=SOURCE_DRILL)
        .exclude(Exists(solved_later))
        .order_by("-created_at", "-id")[: limit * 4]
    )
    seen: set[tuple[str, int, str]] = set()
    out: list[Attempt] = []
    for attempt in wrong:
        key = (attempt.kind, attempt.seed, attempt.params)
        if key not in seen:
            seen.add(key)
            out.append(attempt)
    return out[:limit]


def streak_days(*, user: User, today: date | None = None) -> int:
    """Consecutive days with at least one answer, ending today (or yesterday, if not yet today)."""
    today = today or timezone.localdate()
    days = list(
        Attempt.objects.filter(user=user, created_at__date__gte=today - timedelta(days=400))
        .annotate(day=TruncDate("created_at"))
        .values_list("day", flat=True)
        .distinct()
        .order_by("-day")
    )
    if not days or days[0] < today - timedelta(days=1):
        return 0
    streak, expected = 0, days[0]
    for day in days:
        if day != expected:
            break
        streak += 1
        expected = day - timedelta(days=1)
    return streak


def review_goal(*, user: User) -> int:
    """The learner's daily review goal (the default when they have not set one)."""
    goal = ReviewGoal.objects.filter(user=user).values_list("per_day", flat=True).first()
    return goal if goal is not None else DEFAULT_DAILY_GOAL


def start_of_day(now: datetime | None = None) -> datetime:
    """Midnight today in the site's time zone (as a UTC time)."""
    midnight = timezone.make_aware(datetime.combine(timezone.localdate(now), time.min))
    return midnight.astimezone(UTC)


def today_for(*, user: User, now: datetime | None = None) -> Today:
    """Today's answers and how many were right, with the daily goal (two queries)."""
    counts = Attempt.objects.filter(user=user, created_at__gte=start_of_day(now)).aggregate(
        n=Count("id"), ok=Count("id", filter=Q(correct=True))
    )
    return Today(counts["n"], counts["ok"], review_goal(user=user))


def missed_today(*, user: User, now: datetime | None = None) -> list[Attempt]:
    """Today's wrong answers not answered right since, one per drill (the review summary)."""
    since = start_of_day(now)
    return [a for a in failed_drills(user=user) if a.created_at >= since]


def skills_by_lesson(rows: list[SkillRow]) -> list[SkillGroup]:
    """Skills grouped under the lesson that teaches each, in the lessons' order; skills no
    lesson teaches come last. Within a group, skills due first, then weakest first."""
    lessons = lessons_for([(r.kind, r.skill) for r in rows])
    grouped: dict[str, list[SkillRow]] = {}
    refs = {}
    for row in rows:
        ref = lessons.get((row.kind, row.skill))
        slug = ref.slug if ref else ""
        grouped.setdefault(slug, []).append(row)
        if ref:
            refs[slug] = ref
    order = sorted(grouped, key=lambda slug: (not slug, refs[slug].position if slug else 0))
    kind_order: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
    return [
        SkillGroup(
            refs[slug].title if slug else gettext("Other skills"),
            refs[slug].url if slug else "",
            sorted(
                grouped[slug],
                key=lambda r: (
                    not r.is_due,
                    kind_order.get(r.kind, 99),
                    r.recent_accuracy if r.recent_accuracy is not None else 1.0,
                ),
            ),
        )
        for slug in order
    ]


@dataclass(frozen=True, slots=True)
class DrillResult:
    """A learner's answers to one drill: the first (which scores a session) and the latest."""

    first_right: bool
    latest_right: bool
    first_answer: str
    skill: str


def drill_results(
    *, user: User, kind: str, seeds: Iterable[int], params: str
) -> dict[int, DrillResult]:
    """Seed → the learner's first and latest answers to the drills of ``kind`` at ``params``
    (a drill address key) that ``user`` has answered (one query)."""
    out: dict[int, DrillResult] = {}
    rows = (
        Attempt.objects.filter(user=user, kind=kind, seed__in=list(seeds), params=params)
        .order_by("created_at", "id")
        .values_list("seed", "correct", "answer", "skill")
    )
    for seed, correct, answer, skill in rows:
        first = out.get(seed)
        out[seed] = (
            DrillResult(correct, correct, answer, skill)
            if first is None
            else DrillResult(first.first_right, correct, first.first_answer, first.skill)
        )
    return out


def progress_for(*, user: User, now: datetime | None = None) -> Progress:
    """Everything the progress page shows, in a fixed number of queries."""
    now = now or timezone.now()
    rows = skill_rows(user=user, now=now)
    return Progress(
        skills=rows,
        weakest=weakest_skills(rows),
        days=accuracy_by_day(user=user, now=now),
        failed=failed_drills(user=user),
        streak=streak_days(user=user, today=timezone.localdate(now)),
        total_attempts=sum(r.attempts for r in rows),
        total_correct=sum(r.correct for r in rows),
        due=sorted((r for r in rows if r.is_due), key=lambda r: r.due),
        today=today_for(user=user, now=now),
        groups=skills_by_lesson(rows),
    )


def play_figures(users: Mapping[int, datetime | None]) -> dict[int, PlayFigures]:
    """``{user_id: PlayFigures}``: the leads and quiz answers each user gave in play
    (``source="play"``) and how many were right, counting for each only those from the given
    moment on (None: all of them, as the play page shows a learner's own; a class dashboard
    counts a student's since they joined). One ``GROUP BY`` query; every user asked for has
    figures (``PlayFigures()``: none yet)."""
    if not users:
        return {}
    who = Q()
    for user_id, since in users.items():
        who |= Q(user_id=user_id) if since is None else Q(user_id=user_id, created_at__gte=since)
    rows = (
        Attempt.objects.filter(who, source=SOURCE_PLAY)
        .values("user_id")
        .annotate(
            leads=Count("id", filter=Q(kind=DrillKind.LEAD)),
            leads_right=Count("id", filter=Q(kind=DrillKind.LEAD, correct=True)),
            reads=Count("id", filter=Q(kind=DrillKind.READ)),
            reads_right=Count("id", filter=Q(kind=DrillKind.READ, correct=True)),
        )
    )
    figures = {
        r["user_id"]: PlayFigures(r["leads"], r["leads_right"], r["reads"], r["reads_right"])
        for r in rows
    }
    return {user_id: figures.get(user_id, PlayFigures()) for user_id in users}
