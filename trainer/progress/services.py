"""Writes. Each service is keyword-only and atomic; views call one service per request."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.base import SessionBase
from django.db import IntegrityError, transaction
from django.utils import timezone
from fsrs import Card as ReviewCard
from fsrs import Rating, Scheduler

from engine.drills import Answer, Drill, DrillAddress, Grade, make_drill_at, spec_for
from trainer.core.infra.dbretry import retry_on_lock
from trainer.progress.models import (
    DAILY_GOAL_MAX,
    DAILY_GOAL_MIN,
    PARAMS_MAX_LENGTH,
    RECENT_WINDOW,
    SOURCE_DRILL,
    SOURCE_PLAY,
    Attempt,
    ReviewGoal,
    SkillState,
)
from trainer.ratings.services import Family, rating_record

#: The longest drill address (``DrillParams.key()``) an attempt can keep.
ATTEMPT_PARAMS_MAX_LENGTH = PARAMS_MAX_LENGTH
#: A longer answer time is kept as this (the page was left open).
MAX_TIME_MS = 60 * 60 * 1000
#: The largest seed an attempt can keep (``Attempt.seed``, a positive big integer).
ATTEMPT_SEED_MAX = 2**63 - 1


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
        graded=Graded.of_drill(drill, str(answer), correct, time_taken_ms=time_taken_ms),
        now=now,
    )


@dataclass(frozen=True, slots=True)
class Graded:
    """One answer the engine has graded, and where it was given: a drill (``address``) or a
    deal at the table (``game_id``: play's ``Game``, named by number so progress imports
    nothing from play)."""

    kind: str
    skill: str
    answer: str
    correct: bool
    address: DrillAddress | None = None
    game_id: int | None = None
    time_taken_ms: int | None = None

    def __post_init__(self) -> None:
        if (self.address is None) == (self.game_id is None):
            raise ValueError("an answer is given at a drill or in a deal, one of the two")

    @classmethod
    def of_drill(
        cls, drill: Drill, answer: str, correct: bool, *, time_taken_ms: int | None = None
    ) -> Graded:
        address = DrillAddress(drill.kind, drill.seed, drill.params)
        return cls(str(drill.kind), drill.skill, answer, correct, address, None, time_taken_ms)


@transaction.atomic
def attempt_store(
    *, user: User, token: uuid.UUID, graded: Graded, now: datetime
) -> tuple[Attempt, bool]:
    """Store one answer the engine has graded, once per ``token`` (a second call returns the
    stored attempt and ``False``), and count it on its skill's record and review schedule.
    Drill pages and play (an answer with a ``game_id``: ``source="play"``) both record
    through here."""
    existing = Attempt.objects.filter(user=user, token=token).first()
    if existing is not None:
        return existing, False
    where = graded.address
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                user=user,
                token=token,
                kind=graded.kind,
                skill=graded.skill,
                # An answer in play keeps no seed: the deal's would reveal every hand.
                seed=where.seed if where else 0,
                params=where.key if where else "",
                game_id=graded.game_id,
                answer=graded.answer,
                correct=graded.correct,
                time_taken_ms=graded.time_taken_ms,
                created_at=now,
                source=SOURCE_DRILL if where else SOURCE_PLAY,
            )
    except IntegrityError:
        return Attempt.objects.get(user=user, token=token), False
    skill_state_review(
        user=user, kind=graded.kind, skill=graded.skill, correct=graded.correct, now=now
    )
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


# --------------------------------------------------------------------------------------------
# A visitor's answers: kept in their (server-side) session until they sign up or log in


#: The session key of a visitor's kept answers, and how many are kept (the latest ones).
VISITOR_ANSWERS_KEY = "progress.visitor_answers"
VISITOR_ANSWERS_MAX = 200


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """A visitor's answer read back from their session: the drill rebuilt by the engine from
    its address, the answer checked against it and graded again (a grade kept in the session
    is never read)."""

    token: uuid.UUID
    drill: Drill
    answer: Answer
    correct: bool
    answered_at: datetime
    time_taken_ms: int | None


def _kept_entries(session: SessionBase) -> list[object]:
    raw = session.get(VISITOR_ANSWERS_KEY)
    return list(raw) if isinstance(raw, list) else []


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _kept_read(
    entry: object, now: datetime, wanted: Collection[tuple[str, int, str]] | None
) -> KeptAnswer | None:
    """One kept entry, rebuilt and re-graded; ``None`` when it is damaged (not written by
    :func:`visitor_answer_keep`), names no drill, or its answer does not fit the drill."""
    if not isinstance(entry, dict):
        return None
    try:
        token = uuid.UUID(str(entry["t"]))
        address = DrillAddress.parse(str(entry["d"]))
        if wanted is not None and (str(address.kind), address.seed, address.key) not in wanted:
            return None
        at_ms = _whole(entry.get("at"))
        if (
            at_ms is None
            or address.seed > ATTEMPT_SEED_MAX
            or len(address.key) > ATTEMPT_PARAMS_MAX_LENGTH
        ):
            return None
        answered_at = min(datetime.fromtimestamp(at_ms / 1000, tz=UTC), now)
        drill = make_drill_at(address)
        answer = answer_checked(drill, str(entry["a"]))
        verdict = spec_for(drill.kind).grade(drill, answer)
    except (KeyError, TypeError, ValueError, OverflowError, OSError):
        # Engine errors (an unknown kind, a retired or impossible drill, an answer that does
        # not fit) are ``ValueError``s: the entry is dropped.
        return None
    taken = _whole(entry.get("ms"))
    return KeptAnswer(
        token=token,
        drill=drill,
        answer=answer,
        correct=verdict.correct,
        answered_at=answered_at,
        time_taken_ms=taken if taken is not None and 0 <= taken <= MAX_TIME_MS else None,
    )


def visitor_answers_kept(
    session: SessionBase,
    *,
    wanted: Collection[tuple[str, int, str]] | None = None,
    now: datetime | None = None,
) -> list[KeptAnswer]:
    """The answers a visitor's session keeps, oldest first, each rebuilt and graded again by
    the engine from its drill address; damaged entries are left out, and so is any answer to
    a showing already answered (the first one counts). ``wanted``: only the drills with these
    ``(kind, seed, params)`` (a path step's), so no other drill is rebuilt. Reads only."""
    now = now or timezone.now()
    out: list[KeptAnswer] = []
    seen: set[uuid.UUID] = set()
    for entry in _kept_entries(session)[-VISITOR_ANSWERS_MAX:]:
        kept = _kept_read(entry, now, wanted)
        if kept is not None and kept.token not in seen:
            seen.add(kept.token)
            out.append(kept)
    out.sort(key=lambda k: k.answered_at)
    return out


def visitor_answer_keep(
    session: SessionBase,
    *,
    drill: Drill,
    answer: Answer,
    showing: Showing,
    now: datetime | None = None,
) -> Recorded:
    """Grade a visitor's ``answer`` to ``drill`` like :func:`attempt_record` and keep it in
    their ``session`` (nothing is written to the database), to be recorded as theirs when they
    sign up or log in (:func:`visitor_answers_adopt`). Only the first answer to a showing is
    kept: a second post of it gets that first answer and its grade back (``created`` False).
    The session keeps the latest :data:`VISITOR_ANSWERS_MAX` answers. Raises
    ``ConcertoError`` when the answer does not fit the drill."""
    spec = spec_for(drill.kind)
    answer = spec.check(drill, answer)
    verdict = spec.grade(drill, answer)
    now = now or timezone.now()
    entries = _kept_entries(session)
    token = showing.token.hex
    for entry in entries:
        if isinstance(entry, dict) and entry.get("t") == token:
            first = _kept_read(entry, now, None)
            if first is not None and first.drill.address == drill.address:
                return Recorded(None, False, first.answer, spec.grade(drill, first.answer))
    now_ms = int(now.timestamp() * 1000)
    entries.append(
        {
            "t": token,
            "d": str(drill.address),
            "a": str(answer),
            "c": verdict.correct,  # shown to no one: adoption grades again
            "at": now_ms,
            "ms": max(0, min(now_ms - showing.shown_at_ms, MAX_TIME_MS)),
        }
    )
    session[VISITOR_ANSWERS_KEY] = entries[-VISITOR_ANSWERS_MAX:]
    return Recorded(None, True, answer, verdict)


@retry_on_lock  # idempotent (one attempt per token): safe to run again whole
@transaction.atomic
def visitor_answers_adopt(*, user: User, answers: Sequence[KeptAnswer]) -> int:
    """Record a visitor's kept answers (:func:`visitor_answers_kept`, graded by the engine) as
    ``user``'s attempts at the time each was given, oldest first, each counted on its skill's
    schedule and moving the ratings as a first answer does. An answer whose showing ``user``
    already has an attempt for is not recorded again. Returns how many were recorded."""
    added = 0
    for kept in sorted(answers, key=lambda k: k.answered_at):
        drill = kept.drill
        _, created = attempt_store(
            user=user,
            token=kept.token,
            graded=Graded.of_drill(
                drill, str(kept.answer), kept.correct, time_taken_ms=kept.time_taken_ms
            ),
            now=kept.answered_at,
        )
        if created:
            rating_record(
                user=user,
                family=Family(
                    str(drill.kind), drill.skill, drill.side_hand, drill.params.convention
                ),
                correct=kept.correct,
                now=kept.answered_at,
            )
            added += 1
    return added


def visitor_session_adopt(*, user: User, session: SessionBase) -> int:
    """On signing in: the answers ``session`` kept while its visitor had no account become
    ``user``'s (:func:`visitor_answers_adopt`), then leave the session, so they are recorded
    once. Returns how many were recorded."""
    if VISITOR_ANSWERS_KEY not in session:
        return 0
    added = visitor_answers_adopt(user=user, answers=visitor_answers_kept(session))
    del session[VISITOR_ANSWERS_KEY]
    return added


def review_goal_set(*, user: User, per_day: int) -> ReviewGoal:
    """Set how many answers a day ``user`` aims for. Raises ``ValueError`` outside the range
    the settings page offers."""
    if not DAILY_GOAL_MIN <= per_day <= DAILY_GOAL_MAX:
        raise ValueError(
            f"A daily goal is {DAILY_GOAL_MIN} to {DAILY_GOAL_MAX} reviews, not {per_day}."
        )
    goal, _ = ReviewGoal.objects.update_or_create(user=user, defaults={"per_day": per_day})
    return goal
