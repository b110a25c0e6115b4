"""Factories for class tests: classes, students, assignments and answers to their drills."""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta

from django.utils import timezone

from engine.drills import make_drill, parse_answer
from tests.trainer.factories import answer, right_option, user, wrong_option
from trainer.classes import services
from trainer.classes.models import Assignment, AssignmentDrill, Classroom
from trainer.classes.specs import BuiltSpec
from trainer.drills.models import DrillSet, DrillSetEntry
from trainer.progress import services as trainer_services
from trainer.progress.models import Attempt

__all__ = [
    "answer",
    "answer_drill",
    "built",
    "bulk_attempt",
    "classroom",
    "drill_set",
    "student_in",
    "user",
]


def classroom(teacher=None, name: str = "Tuesday beginners", **kwargs) -> Classroom:
    return services.classroom_create(name=name, teacher=teacher or user(), **kwargs)


def student_in(room: Classroom, who=None, *, now: datetime | None = None):
    who = who or user()
    services.classroom_join(code=room.join_code, user=who, now=now)
    return who


def teacher_of(room: Classroom):
    return room.memberships.filter(role="teacher").first().user


def built(
    room: Classroom,
    *,
    kinds=("checklist",),
    items=("fours", "two_pair"),
    count: int = 1,
    title: str = "Homework",
    due_on: date | None = None,
    base_seed: int = 1000,
    now: datetime | None = None,
) -> Assignment:
    return services.assignment_create(
        classroom=room,
        by=teacher_of(room),
        title=title,
        due_on=due_on or timezone.localdate() + timedelta(days=7),
        spec=BuiltSpec(kinds=tuple(kinds), items=tuple(items), count=count),
        base_seed=base_seed,
        now=now,
    )


def drill_set(
    slug: str = "basics", entries=(("checklist", 5, "items=fours"), ("checklist", 6, ""))
) -> DrillSet:
    ds = DrillSet.objects.create(slug=slug, title=slug.title())
    for n, (kind, seed, params) in enumerate(entries, start=1):
        DrillSetEntry.objects.create(drill_set=ds, position=n, kind=kind, seed=seed, params=params)
    return ds


def answer_drill(
    who, drill: AssignmentDrill, *, correct: bool = True, now: datetime | None = None
) -> Attempt:
    """Answer one assignment drill through the ordinary attempt service."""
    d = make_drill(drill.kind, drill.seed, drill.drill_params)
    key = right_option(d) if correct else wrong_option(d)
    ans = parse_answer(d, {"option": key})
    return trainer_services.attempt_record(
        user=who,
        drill=d,
        answer=ans,
        showing=trainer_services.Showing(uuid.uuid4(), 0),
        now=now,
    ).attempt


def bulk_attempt(
    who,
    *,
    kind: str = "checklist",
    skill: str = "fours",
    seed: int = 1,
    params: str = "",
    correct: bool = True,
    answer_text: str = "fours",
    now: datetime | None = None,
) -> Attempt:
    """An Attempt row without the engine (for volume and query-count tests)."""
    return Attempt(
        user=who,
        kind=kind,
        skill=skill,
        seed=seed,
        params=params,
        answer=answer_text,
        correct=correct,
        created_at=now or timezone.now(),
    )
