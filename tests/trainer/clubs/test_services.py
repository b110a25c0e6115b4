import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError

from trainer.clubs import services
from trainer.clubs.models import INVITE_TOKEN_BYTES, Club, ClubMembership

from .. import factories as f
from . import factories as cf

pytestmark = pytest.mark.django_db


def test_founder_becomes_the_only_organiser():
    founder = f.user()

    club = cf.club(founder, "Thursday Concerto")

    membership = ClubMembership.objects.get(club=club)
    assert membership.user == founder
    assert membership.role == ClubMembership.Role.ORGANISER
    assert club.slug == "thursday-concerto"


def test_slugs_stay_unique_and_avoid_fixed_addresses():
    first = cf.club(f.user(), "Riverside")
    second = cf.club(f.user(), "Riverside")
    reserved = cf.club(f.user(), "New")

    assert (first.slug, second.slug) == ("riverside", "riverside-2")
    assert reserved.slug == "new-2"


def test_a_club_needs_a_name_and_known_rules():
    with pytest.raises(ValidationError):
        cf.club(f.user(), "   ")
    with pytest.raises(ValidationError):
        cf.club(f.user(), "Odd", convention="house-special")
    with pytest.raises(ValidationError):
        cf.club(f.user(), "Odd", rule="double")


def test_invite_tokens_are_long_random_and_distinct():
    tokens = {cf.club(f.user(), f"Club {n}").invite_token for n in range(20)}

    assert len(tokens) == 20
    assert all(len(t) >= 4 * INVITE_TOKEN_BYTES // 3 >= 42 for t in tokens)


def test_rotating_the_invite_replaces_the_token():
    organiser = f.user()
    club = cf.club(organiser)
    old = club.invite_token

    new = services.invite_rotate(actor=organiser, club=club)

    club.refresh_from_db()
    assert club.invite_token == new != old


def test_a_member_cannot_rotate_the_invite():
    club = cf.club(f.user())
    member = f.user()
    cf.join(club, member)

    with pytest.raises(PermissionDenied):
        services.invite_rotate(actor=member, club=club)


def test_joining_twice_keeps_one_membership():
    club = cf.club(f.user())
    member = f.user()

    first, created = services.club_join(user=member, club=club)
    again, created_again = services.club_join(user=member, club=club)

    assert (created, created_again) == (True, False)
    assert first.pk == again.pk
    assert first.role == ClubMembership.Role.MEMBER


def test_organiser_sets_house_rules():
    organiser = f.user()
    club = cf.club(organiser)

    services.house_rules_set(
        actor=organiser, club=club, convention="teach-yourself-1994", rule="contribution"
    )

    club.refresh_from_db()
    assert (club.convention, club.rule) == ("teach-yourself-1994", "contribution")


def test_a_member_cannot_set_house_rules():
    club = cf.club(f.user())
    member = f.user()
    cf.join(club, member)

    with pytest.raises(PermissionDenied):
        services.house_rules_set(
            actor=member, club=club, convention="parlett-2008", rule="contribution"
        )


def test_house_rules_must_be_known():
    organiser = f.user()
    club = cf.club(organiser)

    with pytest.raises(ValidationError):
        services.house_rules_set(actor=organiser, club=club, convention="x", rule="classic")


def test_organiser_promotes_a_member():
    organiser, member = f.user(), f.user()
    club = cf.club(organiser)
    cf.join(club, member)

    promoted = services.member_promote(actor=organiser, club=club, user_id=member.pk)

    assert promoted.role == ClubMembership.Role.ORGANISER


def test_promoting_someone_outside_the_club_fails():
    organiser = f.user()
    club = cf.club(organiser)
    outsider = f.user()

    with pytest.raises(ClubMembership.DoesNotExist):
        services.member_promote(actor=organiser, club=club, user_id=outsider.pk)


def test_a_member_cannot_promote():
    club = cf.club(f.user())
    member, other = f.user(), f.user()
    cf.join(club, member)
    cf.join(club, other)

    with pytest.raises(PermissionDenied):
        services.member_promote(actor=member, club=club, user_id=other.pk)


def test_the_database_refuses_a_second_membership():
    club = cf.club(f.user())
    member = f.user()
    cf.join(club, member)

    with pytest.raises(IntegrityError):
        ClubMembership.objects.create(club=club, user=member)


def test_the_database_refuses_an_unknown_role():
    club = cf.club(f.user())

    with pytest.raises(IntegrityError):
        ClubMembership.objects.create(club=club, user=f.user(), role="treasurer")


def test_the_database_refuses_unknown_house_rules():
    with pytest.raises(IntegrityError):
        Club.objects.create(name="Odd", slug="odd", convention="house-special")
