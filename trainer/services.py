"""Writes. Each service is keyword-only and atomic; views call one service per request."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from fsrs import Card as ReviewCard
from fsrs import Rating, Scheduler

from engine.drills import Answer, Drill, Grade
from trainer.dbretry import retry_on_lock
from trainer.models import RECENT_WINDOW, Attempt, SkillState

#: The longest drill address (``DrillParams.key()``) an attempt can keep.
ATTEMPT_PARAMS_MAX_LENGTH = Attempt._meta.get_field("params").max_length


def review_scheduler() -> Scheduler:
    """The spaced-review scheduler, configured by the ``TRAINER_REVIEW`` setting."""
    options = getattr(settings, "TRAINER_REVIEW", {})
    return Scheduler(
        desired_retention=options.get("desired_retention", 0.9),
        enable_fuzzing=options.get("enable_fuzzing", False),
    )


@retry_on_lock
@transaction.atomic
def attempt_record(
    *,
    user: AbstractBaseUser,
    drill: Drill,
    answer: Answer,
    grade: Grade,
    token: uuid.UUID,
    time_taken_ms: int | None = None,
    now: datetime | None = None,
) -> tuple[Attempt, bool]:
    """Record ``user``'s answer to one showing of ``drill``; returns ``(attempt, created)``.

    A second post of the same showing (same ``token``) returns the first attempt unchanged and
    does not touch the skill's counters or schedule; the caller shows that stored answer (see
    :func:`attempt_answer`), not the new one. Idempotent, so it is retried whole when SQLite
    says the database is locked.
    """
    now = now or timezone.now()
    existing = Attempt.objects.filter(user=user, token=token).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                user=user,
                token=token,
                kind=drill.kind,
                skill=drill.skill,
                seed=drill.seed,
                params=drill.params.key(),
                answer=str(answer),
                correct=grade.correct,
                time_taken_ms=time_taken_ms,
                created_at=now,
            )
    except IntegrityError:
        return Attempt.objects.get(user=user, token=token), False
    skill_state_review(user=user, kind=drill.kind, skill=drill.skill, correct=grade.correct,
                       now=now)
    return attempt, True


@transaction.atomic
def skill_state_review(
    *, user: AbstractBaseUser, kind: str, skill: str, correct: bool, now: datetime
) -> SkillState:
    """Count one answer on a skill and reschedule its review: soon when wrong, later when right."""
    state, _ = SkillState.objects.select_for_update().get_or_create(
        user=user, kind=kind, skill=skill
    )
    card = ReviewCard.from_dict(state.fsrs_card) if state.fsrs_card else ReviewCard()
    card, _log = review_scheduler().review_card(
        card, Rating.Good if correct else Rating.Again, review_datetime=now
    )
    state.attempts += 1
    state.correct += int(correct)
    state.recent = (state.recent + ("1" if correct else "0"))[-RECENT_WINDOW:]
    state.last_seen = now
    state.due = card.due
    state.fsrs_card = card.to_dict()
    state.save()
    return state
