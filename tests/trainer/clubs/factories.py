"""Factories for club tests: clubs, members, curated steps and answers to their drills."""

from __future__ import annotations

import random
import uuid
from datetime import datetime

from django.conf import settings

from engine.drills import make_drill
from trainer.clubs import services as club_services
from trainer.clubs.curriculum import STEP_BY_NUMBER, Step
from trainer.clubs.models import Club
from trainer.core.seeding import discover_loaders, load_file
from trainer.drills.curation import right_answer, wrong_answer
from trainer.drills.models import DrillSetEntry
from trainer.progress import services

SEEDS = settings.BASE_DIR / "seeds"


def club(organiser, name: str = "Riverside", **rules: str) -> Club:
    return club_services.club_create(user=organiser, name=name, **rules)


def join(club_: Club, member):
    membership, _ = club_services.club_join(user=member, club=club_)
    return membership


def load_step(number: int) -> Step:
    """Load the curated drill set of onboarding step ``number`` from ``seeds/onboarding/``."""
    discover_loaders()
    path = next(SEEDS.glob(f"onboarding/{number:02d}-*.yaml"))
    load_file(path)
    return STEP_BY_NUMBER[number]


def entries(step: Step) -> list[DrillSetEntry]:
    return list(DrillSetEntry.objects.filter(drill_set__slug=step.drill_set).order_by("position"))


def answer_entry(user, entry: DrillSetEntry, *, correct: bool, now: datetime | None = None):
    """Answer one curated drill through the service, with the engine's right or a wrong answer."""
    drill = make_drill(entry.kind, entry.seed, entry.drill_params)
    answer = right_answer(drill) if correct else wrong_answer(drill, random.Random(1))
    return services.attempt_record(
        user=user,
        drill=drill,
        answer=answer,
        showing=services.Showing(uuid.uuid4(), 0),
        now=now,
    ).attempt


def pass_step(user, step: Step, right: int | None = None) -> None:
    """Answer the first ``right`` drills of a step right (default: its pass mark)."""
    for entry in entries(step)[: step.pass_mark if right is None else right]:
        answer_entry(user, entry, correct=True)
