"""Ratings on the Glicko-2 scale (1500 ± 350 for the unknown).

A *drill family* is what makes drills alike in difficulty: kind × checklist item × side hand ×
convention. Every first answer is a game between the learner (their rating for that kind) and
the family: a right answer is the learner's win. Both ratings move, as lichess rates puzzles
and solvers.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: The Glicko-2 starting point (Glickman's defaults).
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06


class FamilyRating(models.Model):
    kind = models.CharField(max_length=16)
    skill = models.CharField(max_length=32)
    side_hand = models.PositiveSmallIntegerField()
    convention = models.CharField(max_length=64)
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    volatility = models.FloatField(default=START_VOLATILITY)
    answers = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "skill", "side_hand", "convention"], name="family_rating_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(side_hand__gte=1, side_hand__lte=4), name="family_side_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.skill} h{self.side_hand} {self.convention}: {self.rating:.0f}"


class LearnerRating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    kind = models.CharField(max_length=16)
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    volatility = models.FloatField(default=START_VOLATILITY)
    answers = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="learner_rating_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.rating:.0f}"


class RatingPoint(models.Model):
    """A learner's rating for a kind after one answer: the history the progress chart draws."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    kind = models.CharField(max_length=16)
    rating = models.FloatField()
    rd = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "kind", "at"], name="rating_point_user_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} at {self.at:%Y-%m-%d %H:%M}: {self.rating:.0f}"
