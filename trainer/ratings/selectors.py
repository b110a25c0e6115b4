"""Reads: a learner's ratings and their history, family ratings, and the drills that fit."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from django.contrib.auth.models import User

from engine.drills import skill_title
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
#: Above this deviation a rating is an early estimate (lichess marks such a rating with "?").
PROVISIONAL_RD = 110.0
#: A family answered fewer times than this (by everyone) says too little about its difficulty
#: to place a learner against it.
LEVEL_MIN_ANSWERS = 5
T = TypeVar("T")
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
        return self.rd > PROVISIONAL_RD


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


#: The side hands a drill can be set in (a family's last dimension the trainer may choose).
SIDE_HANDS = (1, 2, 3, 4)


def fitting_side_hand(user: User, kind: str, skills: Sequence[str], convention: str) -> int | None:
    """The side hand whose drills of ``skills`` fit the learner best (see :func:`nearest`:
    the expected success nearest :data:`TARGET_SUCCESS`, averaged over the skills), or None
    when nothing is known yet — the learner has no rating for ``kind`` or none of those
    families has been answered by anyone — so the drill's seed chooses as before."""
    mine = ratings_of(user)
    if not skills or kind not in mine:
        return None
    families = [Family(kind, s, h, convention) for s in skills for h in SIDE_HANDS]
    answered = FamilyRating.objects.filter(
        kind=kind, skill__in=list(skills), convention=convention, answers__gt=0
    ).exists()
    if not answered:
        return None
    learner = mine[kind].rating
    rated = family_ratings(families)

    def misfit(hand: int) -> float:
        fits = [
            abs(
                expected_success(learner, *rated[Family(kind, s, hand, convention)])
                - TARGET_SUCCESS
            )
            for s in skills
        ]
        return sum(fits) / len(fits)

    return min(SIDE_HANDS, key=misfit)


def fitting_first(user: User, candidates: Sequence[tuple[T, Family]]) -> T | None:
    """Of ``candidates`` (a key and its drill's family each), the key whose family fits the
    learner best (:func:`nearest`), or None when nothing is known to choose by: the learner
    has no rating for any of their kinds, or none of the families has been answered."""
    if len(candidates) < 2:
        return None
    families = [f for _, f in candidates]
    if not set(ratings_of(user)) & {f.kind for f in families}:
        return None
    rated = FamilyRating.objects.filter(
        kind__in={f.kind for f in families},
        skill__in={f.skill for f in families},
        answers__gt=0,
    )
    if not any(Family(r.kind, r.skill, r.side_hand, r.convention) in set(families) for r in rated):
        return None
    best = nearest(user, families)[0]
    return next(key for key, f in candidates if f == best)


@dataclass(frozen=True, slots=True)
class Level:
    """A rating in a learner's words: of the ``total`` drill families of a kind whose difficulty
    is known, the ``ready`` ones the learner is expected to answer right at least
    :data:`TARGET_SUCCESS` of the time; ``next`` is the easiest of the others (what to practise
    next) with the learner's expected share of right answers in it."""

    ready: int
    total: int
    next: Family | None
    next_chance: float | None

    @property
    def next_title(self) -> str:
        """The next family's checklist item (or combination) by name, in English."""
        return skill_title(self.next.kind, self.next.skill) if self.next else ""


def level_of(rating: Rating, convention: str) -> Level:
    """Where ``rating`` places its learner among the drill families of its kind in
    ``convention`` that have at least :data:`LEVEL_MIN_ANSWERS` answers (one query)."""
    rows = FamilyRating.objects.filter(
        kind=rating.kind, convention=convention, answers__gte=LEVEL_MIN_ANSWERS
    )
    chances = sorted(
        ((expected_success(rating.rating, r.rating, r.rd), r.skill, r.side_hand) for r in rows),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    ready = sum(1 for chance, _, _ in chances if chance >= TARGET_SUCCESS)
    if ready == len(chances):
        return Level(ready, len(chances), None, None)
    chance, skill, hand = chances[ready]
    return Level(ready, len(chances), Family(rating.kind, skill, hand, convention), chance)
