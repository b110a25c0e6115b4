"""Writes. Each service is keyword-only and atomic; views call one service per request."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone
from fsrs import Card as ReviewCard
from fsrs import Rating, Scheduler

from engine.drills import Answer, Drill, Grade, spec_for
from trainer.core.dbretry import retry_on_lock
from trainer.progress.models import (
    DAILY_GOAL_MAX,
    DAILY_GOAL_MIN,
    PARAMS_MAX_LENGTH,
    RECENT_WINDOW,
    SOURCE_DRILL,
    Attempt,
    ReviewGoal,
    SkillState,
)
from trainer.ratings.services import Family, rating_record

#: The longest drill address (``DrillParams.key()``) an attempt can keep.
ATTEMPT_PARAMS_MAX_LENGTH = PARAMS_MAX_LENGTH
#: A longer answer time is kept as this (the page was left open).
MAX_TIME_MS = 60 * 60 * 1000


def review_scheduler() -> Scheduler:
    """The spaced-review scheduler, configured by the ``TRAINER_REVIEW`` setting."""
    options = getattr(settings, "TRAINER_REVIEW", {})
    return Scheduler(
        desired_retention=options.get("desired_retention", 0.9),
        enable_fuzzing=options.get("enable_fuzzing", False),
    )


@dataclass(frozen=True, slots=True)
class Showing:
    """One showing of a drill to a learner: a fresh ``token`` (an answer is recorded once per
    showing, however often it is posted) and when it was shown (to time the answer)."""

    token: uuid.UUID
    shown_at_ms: int


@dataclass(frozen=True, slots=True)
class Recorded:
    """What :func:`attempt_record` kept: the attempt (``None`` for a visitor), whether this post
    made it, and the answer that counts with the engine's grade of it."""

    attempt: Attempt | None
    created: bool
    answer: Answer
    grade: Grade


def answer_checked(drill: Drill, answer: Answer | str) -> Answer:
    """``answer`` (a value or its stored text, ``str(Answer)``) checked by the drill's kind
    against ``drill``: cards from the hand, one of its options. Raises ``ConcertoError`` when
    not."""
    spec = spec_for(drill.kind)
    return spec.check(drill, spec.parse_key(answer) if isinstance(answer, str) else answer)


def attempt_record(
    *,
    user: User | AnonymousUser,
    drill: Drill,
    answer: Answer,
    showing: Showing,
    now: datetime | None = None,
) -> Recorded:
    """Grade ``answer`` to ``drill`` (built by the engine from its address,
    :func:`engine.drills.make_drill_at`) and, for a signed-in ``user``, record it. The engine
    grades here, once, so a caller cannot record a wrong answer as right; the drill's kind
    checks first that the answer fits the drill (cards from the hand, one of its options).

    A second post of the same showing (same token) keeps the first attempt unchanged and does
    not touch the skill's counters or schedule: the result carries that stored answer and its
    grade, not the new one. Raises ``ConcertoError`` when the answer does not fit the drill.
    """
    spec = spec_for(drill.kind)
    answer = spec.check(drill, answer)
    verdict = spec.grade(drill, answer)
    if not user.is_authenticated:
        return Recorded(None, False, answer, verdict)
    now = now or timezone.now()
    elapsed = int(now.timestamp() * 1000) - showing.shown_at_ms
    attempt, created = _attempt_store(
        user=user,
        drill=drill,
        answer=answer,
        correct=verdict.correct,
        token=showing.token,
        time_taken_ms=max(0, min(elapsed, MAX_TIME_MS)),
        now=now,
    )
    if created:  # a first answer rates the learner and the drill's family (Glicko-2)
        rating_record(
            user=user,
            family=Family(str(drill.kind), drill.skill, drill.side_hand, drill.params.convention),
            correct=verdict.correct,
            now=now,
        )
    if not created and attempt.answer != str(answer):  # the first answer to a showing counts
        answer = answer_checked(drill, attempt.answer)
        verdict = spec.grade(drill, answer)
    return Recorded(attempt, created, answer, verdict)


@retry_on_lock
@transaction.atomic
def _attempt_store(
    *,
    user: User,
    drill: Drill,
    answer: Answer,
    correct: bool,
    token: uuid.UUID,
    time_taken_ms: int | None,
    now: datetime,
) -> tuple[Attempt, bool]:
    """Store one graded drill answer once per token. Idempotent, so it is retried whole when
    SQLite says the database is locked."""
    return attempt_store(
        user=user,
        token=token,
        kind=drill.kind,
        skill=drill.skill,
        seed=drill.seed,
        params=drill.params.key(),
        answer=str(answer),
        correct=correct,
        time_taken_ms=time_taken_ms,
        now=now,
    )


@transaction.atomic
def attempt_store(
    *,
    user: User,
    token: uuid.UUID,
    kind: str,
    skill: str,
    seed: int,
    params: str,
    answer: str,
    correct: bool,
    now: datetime,
    time_taken_ms: int | None = None,
    source: str = SOURCE_DRILL,
) -> tuple[Attempt, bool]:
    """Store one answer the engine has graded, once per ``token`` (a second call returns the
    stored attempt and ``False``), and count it on its skill's record and review schedule.
    Drill pages and play (``source="play"``) both record through here."""
    existing = Attempt.objects.filter(user=user, token=token).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                user=user,
                token=token,
                kind=kind,
                skill=skill,
                seed=seed,
                params=params,
                answer=answer,
                correct=correct,
                time_taken_ms=time_taken_ms,
                created_at=now,
                source=source,
            )
    except IntegrityError:
        return Attempt.objects.get(user=user, token=token), False
    skill_state_review(user=user, kind=kind, skill=skill, correct=correct, now=now)
    return attempt, True


@transaction.atomic
def skill_state_review(
    *, user: User, kind: str, skill: str, correct: bool, now: datetime
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


def review_goal_set(*, user: User, per_day: int) -> ReviewGoal:
    """Set how many answers a day ``user`` aims for. Raises ``ValueError`` outside the range
    the settings page offers."""
    if not DAILY_GOAL_MIN <= per_day <= DAILY_GOAL_MAX:
        raise ValueError(
            f"A daily goal is {DAILY_GOAL_MIN} to {DAILY_GOAL_MAX} reviews, not {per_day}."
        )
    goal, _ = ReviewGoal.objects.update_or_create(user=user, defaults={"per_day": per_day})
    return goal
