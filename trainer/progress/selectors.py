"""Reads. Every selector takes the user it reads for, so no view can read another's data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from engine.drills import skill_title
from trainer.progress.models import Attempt, SkillState

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


def skill_rows(*, user: AbstractBaseUser, now: datetime | None = None) -> list[SkillRow]:
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


def due_skills(*, user: AbstractBaseUser, now: datetime | None = None) -> QuerySet[SkillState]:
    """Skills whose review is due, most overdue first."""
    now = now or timezone.now()
    return SkillState.objects.filter(user=user, due__lte=now).order_by("due")


def accuracy_by_day(
    *, user: AbstractBaseUser, days: int = CHART_DAYS, now: datetime | None = None
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


def failed_drills(*, user: AbstractBaseUser, limit: int = FAILED_DRILLS_SHOWN) -> list[Attempt]:
    """The latest wrong answers whose drill has not been answered right since, one per drill."""
    solved_later = Attempt.objects.filter(
        user=user,
        kind=OuterRef("kind"),
        seed=OuterRef("seed"),
        params=OuterRef("params"),
        correct=True,
        created_at__gt=OuterRef("created_at"),
    )
    wrong = (
        Attempt.objects.filter(user=user, correct=False)
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


def streak_days(*, user: AbstractBaseUser, today: date | None = None) -> int:
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


def progress_for(*, user: AbstractBaseUser, now: datetime | None = None) -> Progress:
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
    )
