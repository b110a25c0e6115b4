"""Writes: one first answer moves the learner's rating for its kind and its family's rating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import glicko2
from django.contrib.auth.models import User
from django.db import transaction

from trainer.ratings.models import FamilyRating, LearnerRating, RatingPoint


@dataclass(frozen=True, slots=True)
class Family:
    """What makes drills alike in difficulty."""

    kind: str
    skill: str
    side_hand: int
    convention: str


def _updated(
    rating: float, rd: float, volatility: float, other: tuple[float, float], score: float
) -> tuple[float, float, float]:
    """One Glicko-2 rating period with one game against ``other`` (rating, rd)."""
    player = glicko2.Player(rating=rating, rd=rd, vol=volatility)
    player.update_player([other[0]], [other[1]], [score])
    return player.rating, player.rd, player.vol


@transaction.atomic
def rating_record(
    *, user: User, family: Family, correct: bool, now: datetime
) -> tuple[LearnerRating, FamilyRating]:
    """Count one first answer as a game between the learner and the drill family (a right
    answer is the learner's win) and move both ratings, from their values before the game."""
    learner, _ = LearnerRating.objects.select_for_update().get_or_create(
        user=user, kind=family.kind
    )
    fam, _ = FamilyRating.objects.select_for_update().get_or_create(
        kind=family.kind,
        skill=family.skill,
        side_hand=family.side_hand,
        convention=family.convention,
    )
    won = 1.0 if correct else 0.0
    before_learner = (learner.rating, learner.rd)
    learner.rating, learner.rd, learner.volatility = _updated(
        learner.rating, learner.rd, learner.volatility, (fam.rating, fam.rd), won
    )
    fam.rating, fam.rd, fam.volatility = _updated(
        fam.rating, fam.rd, fam.volatility, before_learner, 1.0 - won
    )
    for row in (learner, fam):
        row.answers += 1
        row.updated_at = now
        row.save()
    RatingPoint.objects.create(
        user=user, kind=family.kind, rating=learner.rating, rd=learner.rd, at=now
    )
    return learner, fam
