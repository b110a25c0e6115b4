"""Who sees a card: the organisers of the club that owns it, the teachers of the class; for
everyone else it does not exist (404), and nothing they post is written."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from trainer.cards import selectors, services
from trainer.cards.models import CardEvaluation, CardVersion, ClubCard
from trainer.classes import services as class_services
from trainer.clubs import services as club_services
from trainer.clubs.forms import HouseRulesForm

from ..factories import user
from .factories import card_json, class_owner, club_owner, form_post, make_card

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def club_card():
    organiser = user("olive")
    owner = club_owner(organiser)
    return make_card(owner, organiser), owner


@pytest.fixture
def class_card():
    teacher = user("tess")
    owner = class_owner(teacher)
    return make_card(owner, teacher), owner


def _pages(version):
    pk = version.card_id
    post = form_post(selectors.version_card(version))
    return [
        ("get", reverse("cards:detail", args=[pk]), {}),
        ("post", reverse("cards:detail", args=[pk]), post),
        ("post", reverse("cards:check", args=[pk]), post),
        ("post", reverse("cards:default", args=[pk]), {}),
        ("post", reverse("cards:evaluate", args=[pk]), {}),
        ("get", reverse("cards:evaluation", args=[pk]), {}),
    ]


def _assert_hidden(client, version):
    for method, url, data in _pages(version):
        response = getattr(client, method)(url, data, **HTMX)
        assert response.status_code == 404, (method, url)
    assert CardVersion.objects.filter(card_id=version.card_id).count() == 1
    assert not CardEvaluation.objects.exists()


def test_a_plain_member_of_the_club_gets_404(client, club_card):
    version, owner = club_card
    member = user()
    club_services.club_join(user=member, club=owner.club)
    client.force_login(member)
    _assert_hidden(client, version)
    new = reverse("cards:new") + f"?club={owner.club.slug}&from=parlett-2008"
    assert client.get(new).status_code == 404
    assert client.post(new, form_post()).status_code == 404
    check = reverse("cards:check-new") + f"?club={owner.club.slug}&from=parlett-2008"
    assert client.post(check, form_post(), **HTMX).status_code == 404
    assert ClubCard.objects.count() == 1


def test_another_clubs_organiser_gets_404(client, club_card):
    version, _ = club_card
    other = user()
    club_owner(other, name="Hilltop")
    client.force_login(other)
    _assert_hidden(client, version)


def test_a_student_and_another_teacher_get_404_for_a_class_card(client, class_card):
    version, owner = class_card
    student = user()
    class_services.classroom_join(code=owner.classroom.join_code, user=student)
    client.force_login(student)
    _assert_hidden(client, version)
    other = user()
    class_owner(other, name="Year 10")
    client.force_login(other)
    _assert_hidden(client, version)
    new = reverse("cards:new") + f"?class={owner.classroom.pk}&from=parlett-2008"
    assert client.get(new).status_code == 404


def test_the_teacher_sees_the_class_card(client, class_card):
    version, owner = class_card
    client.force_login(owner.classroom.memberships.get(role="teacher").user)
    assert client.get(reverse("cards:detail", args=[version.card_id])).status_code == 200


def test_an_anonymous_visitor_is_sent_to_log_in(client, club_card):
    version, _ = club_card
    response = client.get(reverse("cards:detail", args=[version.card_id]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_an_unknown_card_version_or_owner_is_404(client, club_card):
    version, owner = club_card
    client.force_login(owner.club.memberships.get().user)
    assert client.get(reverse("cards:detail", args=[version.card_id + 99])).status_code == 404
    evaluate = reverse("cards:evaluate", args=[version.card_id])
    assert client.post(evaluate, {"version": "7"}).status_code == 404
    assert client.post(evaluate, {"version": "x1"}).status_code == 404
    for query in ("club=nope", "class=abc", "class=999999", "club=x&class=1", ""):
        assert client.get(reverse("cards:new") + f"?{query}&from=parlett-2008").status_code == 404
    assert not CardEvaluation.objects.exists()


def test_the_services_check_who_acts(club_card):
    version, owner = club_card
    stranger = user()
    post = form_post(title="Theirs")
    with pytest.raises(PermissionDenied):
        services.card_create(
            actor=stranger, owner=owner, derived_from="parlett-2008", data=card_json(post)
        )
    with pytest.raises(PermissionDenied):
        services.card_save(actor=stranger, card=version.card, data=card_json(post))
    with pytest.raises(PermissionDenied):
        services.evaluation_start(actor=stranger, version=version)
    with pytest.raises(PermissionDenied):
        services.default_set(actor=stranger, version=version)
    assert ClubCard.objects.count() == 1 and CardVersion.objects.count() == 1


def test_a_club_cannot_take_another_clubs_card_as_its_house_card(club_card):
    version, _ = club_card
    other = user()
    theirs = club_owner(other, name="Hilltop").club
    with pytest.raises(ValidationError):
        club_services.house_rules_set(
            actor=other, club=theirs, convention=version.name, rule="classic"
        )
    theirs.refresh_from_db()
    assert theirs.convention == "parlett-2008"
    names = dict(HouseRulesForm(instance=theirs).fields["convention"].choices)
    assert version.name not in names


def test_the_house_rules_form_offers_the_clubs_own_card(club_card):
    version, owner = club_card
    names = dict(HouseRulesForm(instance=owner.club).fields["convention"].choices)
    assert names[version.name] == "Our card"
