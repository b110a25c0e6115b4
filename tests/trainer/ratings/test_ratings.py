"""Glicko-2 ratings: first answers move learner and family ratings; simulated learners of known
skill end in the right order; drills are chosen near the learner's level."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template

from trainer.ratings.models import FamilyRating, LearnerRating, RatingPoint
from trainer.ratings.selectors import (
    TARGET_SUCCESS,
    expected_success,
    history,
    nearest,
    ratings_of,
    ratings_of_users,
)
from trainer.ratings.services import Family, rating_record

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


def user(name: str):
    return get_user_model().objects.create_user(username=name, password="x")


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[int]:
        order = sorted(range(len(v)), key=v.__getitem__)
        out = [0] * len(v)
        for r, i in enumerate(order):
            out[i] = r
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    d2 = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


def test_a_right_answer_raises_the_learner_and_lowers_the_family():
    me = user("ana")
    fam = Family("read", "four_sf", 1, "parlett-2008")

    learner, family = rating_record(user=me, family=fam, correct=True, now=NOW)

    assert learner.rating > 1500 > family.rating
    assert learner.rd < 350 and family.rd < 350
    assert learner.answers == family.answers == 1
    assert RatingPoint.objects.get().rating == learner.rating

    learner, family = rating_record(user=me, family=fam, correct=False, now=NOW)
    assert learner.rating < LearnerRating.objects.get(user=me).rating + 1
    assert [p.rating for p in history(me, "read")] == [
        p.rating for p in RatingPoint.objects.order_by("at", "id")
    ]


def test_simulated_learners_of_known_skill_end_in_the_right_order():
    """12 learners of known skill answer 80 drills each from 10 families of known difficulty
    (the chance of a right answer is Elo's logistic curve); both orders are recovered."""
    rng = random.Random(7)
    skills = [1100 + 70 * i for i in range(12)]
    difficulty = {
        Family("lead", f"item{j}", 1 + j % 4, "parlett-2008"): 1000 + 110 * j for j in range(10)
    }
    families = list(difficulty)
    learners = [user(f"sim{i}") for i in range(len(skills))]
    when = NOW
    for _round in range(80):
        for learner, skill in zip(learners, skills, strict=True):
            fam = rng.choice(families)
            p = 1 / (1 + 10 ** (-(skill - difficulty[fam]) / 400))
            when += timedelta(seconds=1)
            rating_record(user=learner, family=fam, correct=rng.random() < p, now=when)

    got = [ratings_of(learner)["lead"].rating for learner in learners]
    assert spearman(got, [float(s) for s in skills]) >= 0.9, got
    fam_got = {
        Family(r.kind, r.skill, r.side_hand, r.convention): r.rating
        for r in FamilyRating.objects.all()
    }
    assert spearman([fam_got[f] for f in families], [float(difficulty[f]) for f in families]) >= 0.9
    assert all(r.rd < 120 for r in LearnerRating.objects.all())


def test_drills_near_the_learners_level_come_first():
    me = user("ben")
    easy, fair, hard = (Family("reply", s, 3, "parlett-2008") for s in ("a", "b", "c"))
    FamilyRating.objects.create(
        kind="reply", skill="a", side_hand=3, convention="parlett-2008", rating=1000, rd=60
    )
    FamilyRating.objects.create(
        kind="reply", skill="b", side_hand=3, convention="parlett-2008", rating=1350, rd=60
    )
    FamilyRating.objects.create(
        kind="reply", skill="c", side_hand=3, convention="parlett-2008", rating=1900, rd=60
    )
    LearnerRating.objects.create(user=me, kind="reply", rating=1500, rd=80)

    order = nearest(me, [hard, easy, fair])

    assert order[0] == fair
    assert abs(expected_success(1500, 1350, 60) - TARGET_SUCCESS) < 0.1
    assert order[-1] == hard


def test_a_learner_reads_only_their_own_ratings():
    me, other = user("cho"), user("dan")
    rating_record(user=other, family=Family("read", "x", 1, "parlett-2008"), correct=True, now=NOW)

    assert ratings_of(me) == {}
    assert history(me, "read") == []
    assert set(ratings_of_users([me.pk, other.pk])) == {other.pk}


def test_the_chart_draws_the_history_and_lists_it():
    me = user("eve")
    fam = Family("checklist", "fours", 1, "parlett-2008")
    for i in range(5):
        rating_record(user=me, family=fam, correct=i % 2 == 0, now=NOW + timedelta(minutes=i))

    html = Template("{% load ratings %}{% rating_chart points 'Read rating' %}").render(
        Context({"points": history(me, "checklist")})
    )

    assert html.count("<tr>") == 6  # a header row and one per answer
    assert 'role="img" aria-label="Read rating"' in html
    assert html.count(",") >= 5 and "<polyline" in html


def test_a_first_answer_rates_the_learner_and_the_family_and_a_repost_does_not():
    import uuid as _uuid

    from engine.drills import DrillParams, make_drill, parse_answer
    from trainer.progress import services

    me = user("fay")
    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    showing = services.Showing(_uuid.uuid4(), 0)
    for _ in range(2):  # the same showing posted twice counts once
        services.attempt_record(
            user=me, drill=drill, answer=parse_answer(drill, {"option": "fours"}), showing=showing
        )

    mine = ratings_of(me)["checklist"]
    fam = FamilyRating.objects.get()
    assert mine.answers == 1 and mine.rating > 1500
    assert (fam.kind, fam.skill, fam.side_hand, fam.convention) == (
        "checklist",
        "fours",
        drill.side_hand,
        "parlett-2008",
    )


def test_the_progress_page_shows_each_rating_with_its_chart_and_only_ones_own():
    from django.test import Client

    me, other = user("fay"), user("gus")
    fam = Family("read", "four_sf", 2, "parlett-2008")
    for i in range(3):
        rating_record(user=me, family=fam, correct=True, now=NOW + timedelta(minutes=i))
    rating_record(
        user=other, family=Family("lead", "pair", 1, "parlett-2008"), correct=False, now=NOW
    )
    client = Client()
    client.force_login(me)

    html = client.get("/progress/").content.decode()

    mine = LearnerRating.objects.get(user=me, kind="read")
    assert "data-ratings" in html and 'data-rating-kind="read"' in html
    assert f"Rating {round(mine.rating)} ± {round(mine.rd)}" in html
    assert 'data-rating-kind="lead"' not in html  # the other learner's rating
    assert "<polyline" in html and html.count("<td>") >= 9  # three answers, three columns


def _family_at(kind: str, skill: str, hand: int, rating: float) -> None:
    FamilyRating.objects.create(
        kind=kind,
        skill=skill,
        side_hand=hand,
        convention="parlett-2008",
        rating=rating,
        rd=60,
        answers=30,
    )


def test_the_side_hand_chosen_is_the_one_near_the_learners_level():
    from trainer.ratings.selectors import fitting_side_hand

    me = user("hal")
    assert fitting_side_hand(me, "read", ["four_sf"], "parlett-2008") is None  # unrated
    LearnerRating.objects.create(user=me, kind="read", rating=1500, rd=80, answers=20)
    assert fitting_side_hand(me, "read", ["four_sf"], "parlett-2008") is None  # no data yet
    for hand, rating in ((1, 900), (2, 2100), (3, 1350), (4, 1800)):
        _family_at("read", "four_sf", hand, rating)

    assert fitting_side_hand(me, "read", ["four_sf"], "parlett-2008") == 3
    LearnerRating.objects.filter(user=me).update(rating=1950)
    assert fitting_side_hand(me, "read", ["four_sf"], "parlett-2008") == 4


def test_review_sends_the_due_skill_at_the_fitting_side_hand():
    from django.test import Client

    from trainer.progress.models import SkillState

    me = user("ida")
    SkillState.objects.create(user=me, kind="read", skill="four_sf", due=NOW - timedelta(days=1))
    LearnerRating.objects.create(user=me, kind="read", rating=1500, rd=80, answers=20)
    for hand, rating in ((1, 900), (2, 2100), (3, 1350), (4, 1800)):
        _family_at("read", "four_sf", hand, rating)
    client = Client()
    client.force_login(me)

    response = client.get("/drills/review/")

    assert response.status_code == 302
    assert "side_hand=3" in response["Location"] and "items=four_sf" in response["Location"]
