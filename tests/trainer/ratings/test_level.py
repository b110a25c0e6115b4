"""A rating in words: "ready for N of M drill families", the next family to practise, and an
early estimate said to be one."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from trainer.ratings.models import FamilyRating, LearnerRating
from trainer.ratings.selectors import (
    LEVEL_MIN_ANSWERS,
    TARGET_SUCCESS,
    Rating,
    expected_success,
    level_of,
)
from trainer.ratings.services import Family

pytestmark = pytest.mark.django_db
CARD = "parlett-2008"


def _family(skill: str, hand: int, rating: float, *, answers: int = 30, convention: str = CARD):
    FamilyRating.objects.create(
        kind="read",
        skill=skill,
        side_hand=hand,
        convention=convention,
        rating=rating,
        rd=60,
        answers=answers,
    )


def _families() -> None:
    for hand, rating in ((1, 1100), (2, 1300), (3, 1600), (4, 1900)):
        _family("four_sf", hand, rating)


def test_the_level_counts_the_families_within_reach_and_names_the_easiest_other():
    _families()
    me = Rating("read", 1500, 80, 20)

    level = level_of(me, CARD)

    within = [
        h
        for h, r in ((1, 1100), (2, 1300), (3, 1600), (4, 1900))
        if expected_success(1500, r, 60) >= TARGET_SUCCESS
    ]
    assert within == [1, 2]  # the fixture's premise
    assert (level.ready, level.total) == (2, 4)
    assert level.next == Family("read", "four_sf", 3, CARD)
    assert level.next_chance == pytest.approx(expected_success(1500, 1600, 60))
    assert level.next_chance < TARGET_SUCCESS


def test_a_stronger_learner_is_ready_for_more_and_the_strongest_for_all():
    _families()
    assert level_of(Rating("read", 1800, 80, 20), CARD).ready == 3
    top = level_of(Rating("read", 2600, 80, 20), CARD)
    assert (top.ready, top.total, top.next, top.next_chance) == (4, 4, None, None)


def test_families_barely_answered_or_of_another_card_or_kind_do_not_count():
    _families()
    _family("pair", 1, 500, answers=LEVEL_MIN_ANSWERS - 1)
    _family("pair", 2, 500, convention="another-card")
    FamilyRating.objects.create(
        kind="lead", skill="pair", side_hand=1, convention=CARD, rating=500, rd=60, answers=30
    )
    assert level_of(Rating("read", 1500, 80, 20), CARD).total == 4
    assert level_of(Rating("read", 1500, 80, 20), "another-card").total == 1


def test_the_progress_page_says_the_level_the_next_family_and_an_early_estimate():
    _families()
    me = get_user_model().objects.create_user(username="lev", password="x")
    LearnerRating.objects.create(user=me, kind="read", rating=1500, rd=200, answers=3)
    client = Client()
    client.force_login(me)

    html = client.get("/progress/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    assert 'data-level="2/4"' in html and "ready for 2 of 4 drill families" in text
    assert 'data-next-family="four_sf/3"' in html
    assert re.search(r"Next: [^.]+ in side hand 3, about \d+% right today\.", text)
    link = re.search(r'data-next-family="four_sf/3">.*?<a href="([^"]+)"', html, re.S).group(1)
    assert link.startswith("/drills/read/") and "items=four_sf" in link and "side_hand=3" in link
    assert "early estimate from 3 answers" in text and "Rating 1500 ± 200" in text


def test_a_settled_rating_is_not_called_an_estimate_and_unknown_families_are_said_so():
    me = get_user_model().objects.create_user(username="set", password="x")
    LearnerRating.objects.create(user=me, kind="read", rating=1500, rd=60, answers=40)
    client = Client()
    client.force_login(me)

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get("/progress/").text))

    assert "early estimate" not in text and "40 answers" in text
    assert "too few answers from anyone yet to place this level" in text
