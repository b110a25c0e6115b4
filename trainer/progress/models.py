"""A learner's answers and per-skill records."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from engine.drills import KINDS, DrillAddress
from engine.errors import ConcertoError

#: The drill kinds as plain strings (what the database and the migrations hold).
KIND_NAMES = [str(k) for k in KINDS]

KIND_CHOICES = [(k, k) for k in KIND_NAMES]
#: How many of the latest answers "recent accuracy" looks at.
RECENT_WINDOW = 10

#: Where an answer was given: a drill page, or a lead or read made while playing a deal.
SOURCE_DRILL = "drill"
SOURCE_PLAY = "play"
SOURCE_CHOICES = [(SOURCE_DRILL, "drill"), (SOURCE_PLAY, "in play")]
#: The longest drill address (``DrillParams.key()``) an attempt can keep.
PARAMS_MAX_LENGTH = 1024


class Attempt(models.Model):
    """One answer to one showing of a drill.

    ``token`` identifies the showing: posting the same form twice records one attempt, while
    replaying a drill later (a new showing) records another.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts"
    )
    token = models.UUIDField(default=uuid.uuid4)
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)
    skill = models.CharField(max_length=32)
    seed = models.PositiveBigIntegerField()
    #: The drill's canonical settings (``DrillParams.key()``); the drill view refuses longer.
    params = models.CharField(max_length=PARAMS_MAX_LENGTH, blank=True, default="")
    answer = models.CharField(max_length=64)
    correct = models.BooleanField()
    time_taken_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=8, choices=SOURCE_CHOICES, default=SOURCE_DRILL)
    #: The deal an answer in play was given in (``source="play"``; its ``seed`` is then 0 and
    #: its ``params`` empty: the deal's seed would reveal every hand). Named by the model's
    #: label, so progress imports nothing from play (docs/architecture.md); a deal deleted
    #: later leaves its answers, counted, without it.
    game = models.ForeignKey(
        "play.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="attempts"
    )

    class Meta:
        db_table = "trainer_attempt"  # the table made before the app split
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "token"], name="attempt_once_per_showing"),
            models.CheckConstraint(condition=Q(kind__in=KIND_NAMES), name="attempt_kind_known"),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="attempt_user_recent"),
            models.Index(fields=["user", "kind", "skill"], name="attempt_user_skill"),
            # Classes: matching answers to assignment drills by (kind, seed, params).
            models.Index(fields=["seed", "kind", "params"], name="attempt_drill"),
        ]

    def __str__(self) -> str:
        verdict = "right" if self.correct else "wrong"
        where = f"play/{self.game_id}" if self.source == SOURCE_PLAY else f"{self.kind}/{self.seed}"
        return f"{self.user} {where} {self.answer} ({verdict})"

    @property
    def address(self) -> DrillAddress | None:
        """The drill this answers, by its address; None for an answer given in play (no drill
        to rebuild) or an address the engine no longer reads."""
        if self.source == SOURCE_PLAY:
            return None
        try:
            return DrillAddress.of(self.kind, self.seed, self.params)
        except (ConcertoError, ValueError):
            return None


class SkillState(models.Model):
    """A learner's record on one skill (drill kind × checklist item), and its review schedule.

    Counters are kept here so the progress page reads one row per skill however many attempts
    there are. ``fsrs_card`` is the spaced-repetition card of the ``fsrs`` scheduler.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="skill_states"
    )
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)
    skill = models.CharField(max_length=32)
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    #: The latest answers, oldest first: ``1`` right, ``0`` wrong (at most RECENT_WINDOW).
    recent = models.CharField(max_length=RECENT_WINDOW, blank=True, default="")
    last_seen = models.DateTimeField(null=True, blank=True)
    due = models.DateTimeField(default=timezone.now)
    fsrs_card = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "trainer_skillstate"  # the table made before the app split
        ordering = ["kind", "skill"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "skill"], name="skill_state_once"),
            models.CheckConstraint(
                condition=Q(correct__lte=F("attempts")), name="skill_state_correct_le_attempts"
            ),
            models.CheckConstraint(condition=Q(kind__in=KIND_NAMES), name="skill_state_kind_known"),
        ]
        indexes = [models.Index(fields=["user", "due"], name="skill_state_user_due")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind}/{self.skill}"

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.attempts if self.attempts else None

    @property
    def recent_accuracy(self) -> float | None:
        if not self.recent:
            return None
        return self.recent.count("1") / len(self.recent)


#: The daily review goal a learner starts with, and the range the settings page accepts.
DEFAULT_DAILY_GOAL = 20
DAILY_GOAL_MIN = 1
DAILY_GOAL_MAX = 200


class ReviewGoal(models.Model):
    """How many answers a learner aims for each day (the progress page's "today: 7 of 20").

    Every answer reviews its skill (its schedule moves), so every answer counts towards it.
    A learner without a row has the default goal."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_goal"
    )
    per_day = models.PositiveSmallIntegerField(default=DEFAULT_DAILY_GOAL)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(per_day__gte=DAILY_GOAL_MIN) & Q(per_day__lte=DAILY_GOAL_MAX),
                name="review_goal_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.per_day} a day"
