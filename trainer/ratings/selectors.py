"""Reads: a learner's ratings and their history, family ratings, and the drills that fit."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User

from trainer.ratings.models import (
    START_RATING,
    START_RD,
    FamilyRating,
    LearnerRating,
    RatingPoint,
)
from trainer.ratings.services import Family

#: The chance of a right answer a drill "just hard enough" gives (lichess aims a little above
#: even odds for puzzles; learners here are practising, so a little easier).
TARGET_SUCCESS = 0.7
_Q = math.log(10) / 400


@dataclass(frozen=True, slots=True)
class Rating:
    kind: str
    rating: float
    rd: float
    answers: int

    @property
    def provisional(self) -> bool:
        """Too few answers to say much (as lichess marks a "?" rating)."""
        return self.rd > 110


@dataclass(frozen=True, slots=True)
class Point:
    rating: float
    rd: float
    at: datetime


def expected_success(learner: float, family: float, family_rd: float = 0.0) -> float:
    """Glicko's expected score of the learner against the family."""
    g = 1 / math.sqrt(1 + 3 * (_Q * family_rd) ** 2 / math.pi**2)
    return 1 / (1 + 10 ** (-g * (learner - family) / 400))


def ratings_of(user: User) -> dict[str, Rating]:
    """The learner's rating for each kind answered (kinds never answered are left out)."""
    return {
        r.kind: Rating(r.kind, r.rating, r.rd, r.answers)
        for r in LearnerRating.objects.filter(user=user)
    }


def ratings_of_users(user_ids: Iterable[int]) -> dict[int, dict[str, Rating]]:
    """Ratings per user id and kind, one query (the teacher's dashboard)."""
    out: dict[int, dict[str, Rating]] = {}
    for r in LearnerRating.objects.filter(user_id__in=list(user_ids)):
        out.setdefault(r.user_id, {})[r.kind] = Rating(r.kind, r.rating, r.rd, r.answers)
    return out


def history(user: User, kind: str, last: int = 60) -> list[Point]:
    """The learner's rating for ``kind`` after each of their last ``last`` answers, oldest
    first."""
    rows = RatingPoint.objects.filter(user=user, kind=kind).order_by("-at", "-id")[:last]
    return [Point(p.rating, p.rd, p.at) for p in reversed(list(rows))]


def family_ratings(families: Sequence[Family]) -> dict[Family, tuple[float, float]]:
    """``(rating, rd)`` of each family (the unrated start at 1500 ± 350)."""
    kinds = {f.kind for f in families}
    found = {
        Family(r.kind, r.skill, r.side_hand, r.convention): (r.rating, r.rd)
        for r in FamilyRating.objects.filter(kind__in=kinds)
    }
    return {f: found.get(f, (START_RATING, START_RD)) for f in families}


def nearest(user: User, families: Sequence[Family]) -> list[Family]:
    """``families`` ordered by fit for the learner: the expected success closest to
    :data:`TARGET_SUCCESS` first (ties keep their order). With no rating yet for a kind the
    learner counts as 1500, so an unrated learner starts on families of middling difficulty."""
    if not families:
        return []
    mine = ratings_of(user)
    rated = family_ratings(families)

    def misfit(f: Family) -> float:
        learner = mine[f.kind].rating if f.kind in mine else START_RATING
        rating, rd = rated[f]
        return abs(expected_success(learner, rating, rd) - TARGET_SUCCESS)

    return sorted(families, key=misfit)
