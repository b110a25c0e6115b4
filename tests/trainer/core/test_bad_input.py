"""Bad input is a 400 or a 404, never a 500 (issue 9, finding 3).

NUL bytes crash PostgreSQL queries, ids above 2**63 - 1 raise OverflowError on SQLite, and a
drill address longer than the column that keeps it crashed PostgreSQL.
"""

import pytest
from django.test import Client

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

HUGE = str(2**63)  # one past the largest id the database can hold
HUGER = "9" * 30


@pytest.fixture
def lenient():
    """A client that returns the 500 page instead of raising, as a browser would see it."""
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/join/%00/",
        "/learn/the-game/?club=%00",
        "/drills/lead/?items=%00",
        "/classes/join/%00/",
        "/%00",
    ],
)
def test_a_nul_byte_in_the_address_is_a_400(lenient, url):
    response = lenient.get(url)

    assert response.status_code == 400
    assert "NUL" in response.text


def test_a_nul_byte_in_the_address_is_a_400_when_signed_in(lenient):
    lenient.force_login(f.user())

    assert lenient.get("/clubs/join/%00/").status_code == 400
    assert lenient.get("/learn/the-game/?club=%00").status_code == 400


def test_a_nul_byte_in_a_form_is_a_400(lenient):
    lenient.force_login(f.user())

    response = lenient.post("/classes/join/", {"code": "ABC\x00DEF"})

    assert response.status_code == 400
    assert "form" in response.text


def test_an_over_long_value_is_a_400(lenient, settings):
    settings.MAX_INPUT_VALUE_LENGTH = 100

    assert lenient.get("/drills/?club=" + "x" * 101).status_code == 400
    assert lenient.get("/drills/?club=" + "x" * 99).status_code == 200


def test_the_400_page_needs_no_database(lenient, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = lenient.get("/clubs/join/%00/")

    assert response.status_code == 400


@pytest.mark.parametrize("user_id", [HUGE, HUGER])
def test_huge_ids_in_class_student_urls_are_404(lenient, user_id):
    room = cf.classroom()
    lenient.force_login(cf.teacher_of(room))

    assert lenient.get(f"/classes/{room.pk}/students/{user_id}/").status_code == 404
    assert lenient.post(f"/classes/{room.pk}/students/{user_id}/remove/").status_code == 404
    assert lenient.get(f"/classes/{user_id}/").status_code == 404
    assert lenient.get(f"/classes/assignments/{user_id}/").status_code == 404


@pytest.mark.parametrize("user_id", [HUGE, HUGER])
def test_huge_ids_in_club_member_urls_are_404(lenient, user_id):
    organiser = f.user()
    club = clf.club(organiser)
    lenient.force_login(organiser)

    assert lenient.post(f"/clubs/{club.slug}/members/{user_id}/promote/").status_code == 404
    assert lenient.get(f"/clubs/{club.slug}/path/{user_id}/").status_code == 404


def test_the_largest_id_still_resolves_to_an_ordinary_404(lenient):
    room = cf.classroom()
    lenient.force_login(cf.teacher_of(room))

    response = lenient.get(f"/classes/{room.pk}/students/{2**63 - 1}/")

    assert response.status_code == 404


def test_a_drill_address_too_long_to_store_is_refused(lenient, monkeypatch):
    from trainer.progress import services

    monkeypatch.setattr(services, "ATTEMPT_PARAMS_MAX_LENGTH", 10)
    lenient.force_login(f.user())

    response = lenient.get("/drills/lead/3/?v=2&items=five_sf,fours,four_sf")

    assert response.status_code == 400
    assert "too long" in response.text
    assert not Attempt.objects.exists()


def test_the_longest_real_drill_address_fits_the_column():
    from engine.drills import DrillParams
    from engine.scoring import SCORING_RULES
    from engine.signals import CONVENTIONS, ITEMS

    longest_convention = max(CONVENTIONS, key=len)
    longest_rule = max(SCORING_RULES, key=len)
    params = DrillParams(
        convention=longest_convention,
        rule=longest_rule,
        side_hand=4,
        items=tuple(ITEMS),
        hand_size=13,
        own_hand=True,
    )

    assert len(params.key()) <= Attempt._meta.get_field("params").max_length


def test_a_nul_byte_in_a_cookie_is_a_400(lenient):
    # A quoted cookie value may spell a NUL as \\000; Django's cookie parser decodes it.
    response = lenient.get("/drills/", HTTP_COOKIE='sessionid="abcdefgh\\000ijkl"')

    assert response.status_code == 400
