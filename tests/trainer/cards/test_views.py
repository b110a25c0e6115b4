"""The card editor's pages: an organiser derives a card, edits it, sees the check change live,
saves versions; bad input is refused with a reason and writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from trainer.cards import selectors
from trainer.cards.models import CardVersion, ClubCard

from ..factories import user
from .factories import club_owner, form_post, make_card

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organiser():
    return user("olive")


@pytest.fixture
def owner(organiser):
    return club_owner(organiser)


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def _new_url(owner, base="parlett-2008"):
    return reverse("cards:new") + f"?club={owner.club.slug}&from={base}"


def test_a_new_card_starts_as_a_copy_of_the_shipped_one(signed_in, owner):
    page = signed_in.get(_new_url(owner))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Four of a kind" in html and "two_threes" in html
    assert "The same rows." in html  # the diff against the base: nothing yet
    assert "Valid:" in html


def test_the_live_check_shows_a_new_ambiguity_with_its_odds(signed_in, owner):
    url = reverse("cards:check-new") + f"?club={owner.club.slug}&from=parlett-2008"
    post = form_post(**{"row:two_threes:suits": "different_suits"})
    page = signed_in.post(url, post, **HTMX)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="card-check"' in html and "<html" not in html  # the panel only
    assert 'data-items="two_threes full_house"' in html
    assert "pill-new" in html
    assert "Two threes 52%" in html and "Full house 48%" in html  # the strong round's odds
    # The diff names the row and the changed field in words, the row's id as a tooltip.
    assert (
        'title="two_threes" data-file-id>Two threes</span>: <span class="cards-change">Suits'
        in html
    )
    assert "<ins>different suits</ins>" in html and "pattern.suits" not in html
    assert ClubCard.objects.count() == 0  # a check writes nothing


def test_widening_the_threes_pass_changes_its_collision_with_one_pair(signed_in, owner):
    url = reverse("cards:check-new") + f"?club={owner.club.slug}&from=parlett-2008"
    post = form_post(**{"row:threes:c1": ["H", "D", "C"]})
    html = signed_in.post(url, post, **HTMX).content.decode()
    assert 'data-items="threes one_pair"' in html
    assert "is-changed" in html


def test_saving_a_new_card_makes_its_first_version(signed_in, owner):
    post = form_post(title="Riverside card", **{"row:two_threes:suits": "different_suits"})
    page = signed_in.post(_new_url(owner), post)
    card = ClubCard.objects.get()
    assert page.status_code == 302 and page.url == reverse("cards:detail", args=[card.pk])
    version = card.versions.get()
    assert version.number == 1 and version.name == f"club-{card.pk}-{version.version}"
    assert version.data["name"] == version.name and version.data["title"] == "Riverside card"
    assert card.club == owner.club and card.derived_from == "parlett-2008"


def test_an_edit_is_a_new_version_and_the_old_one_is_kept(signed_in, owner, organiser):
    first = make_card(owner, organiser)
    url = reverse("cards:detail", args=[first.card_id])
    card = selectors.version_card(first)
    post = form_post(card, title="Our card", **{"row:two_threes:suits": "different_suits"})
    assert signed_in.post(url, post).status_code == 302
    versions = list(CardVersion.objects.filter(card_id=first.card_id).order_by("number"))
    assert [v.number for v in versions] == [1, 2]
    assert versions[0].version == first.version  # unchanged
    assert versions[1].data["rows"] != first.data["rows"]
    # Saving it again unchanged makes no third version.
    again = form_post(selectors.version_card(versions[1]), title="Our card")
    assert signed_in.post(url, again).status_code == 302
    assert CardVersion.objects.filter(card_id=first.card_id).count() == 2


def test_saving_an_invalid_card_is_refused_with_its_errors(signed_in, owner):
    # Four to a flush "up" with a distance of 0: the pattern cannot give a signal.
    post = form_post(**{"row:four_flush:dmax": "0", "row:four_flush:dmin": "0"})
    page = signed_in.post(_new_url(owner), post)
    assert page.status_code == 400
    html = page.content.decode()
    assert "This card was not saved" in html and "four_flush" in html
    assert "This card is not valid:" in html  # the check panel shows the edit's errors
    assert ClubCard.objects.count() == 0 and CardVersion.objects.count() == 0


def test_a_tampered_post_is_a_400_with_a_reason(signed_in, owner, organiser):
    version = make_card(owner, organiser)
    url = reverse("cards:detail", args=[version.card_id])
    post = form_post(selectors.version_card(version), **{"row:fours:rank": "sideways"})
    page = signed_in.post(url, post)
    assert page.status_code == 400
    assert "cannot be read" in page.content.decode()
    check = signed_in.post(reverse("cards:check", args=[version.card_id]), post, **HTMX)
    assert check.status_code == 400 and "cannot be read" in check.content.decode()
    assert CardVersion.objects.count() == 1


def test_a_missing_field_is_a_400(signed_in, owner):
    post = form_post()
    post.pop("item-fours")
    assert signed_in.post(_new_url(owner), post).status_code == 400
    assert ClubCard.objects.count() == 0


def test_a_base_that_is_not_shipped_is_a_400(signed_in, owner):
    page = signed_in.get(reverse("cards:new") + f"?club={owner.club.slug}&from=our-card")
    assert page.status_code == 400 and "published cards" in page.content.decode()


def test_playing_an_item_out_removes_its_rows(signed_in, owner):
    url = reverse("cards:check-new") + f"?club={owner.club.slug}&from=parlett-2008"
    post = form_post(**{"item:fours": "out"})
    html = signed_in.post(url, post, **HTMX).content.decode()
    assert "removed (played out)" in html


def test_the_card_page_shows_the_card_its_versions_and_the_worth_button(
    signed_in, owner, organiser
):
    version = make_card(owner, organiser)
    page = signed_in.get(reverse("cards:detail", args=[version.card_id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Our card" in html and version.version in html
    assert "What is it worth?" in html
    assert "Make it the house card" in html


def test_the_list_shows_the_clubs_cards(signed_in, owner, organiser):
    version = make_card(owner, organiser)
    html = signed_in.get(reverse("cards:list")).content.decode()
    assert "Our card" in html and reverse("cards:detail", args=[version.card_id]) in html
    assert f"?club={owner.club.slug}&amp;from=teach-yourself-1994" in html


def _second_version(card_version, organiser, **changes):
    from trainer.cards import services

    from .factories import card_json

    current = selectors.version_card(card_version)
    post = form_post(current, title=changes.pop("title", "Our card"), **changes)
    return services.card_save(
        actor=organiser, card=card_version.card, data=card_json(post, card=current)
    )


def test_the_diff_between_two_versions_names_each_changed_item(signed_in, owner, organiser):
    first = make_card(owner, organiser)
    second = _second_version(first, organiser, **{"row:two_threes:suits": "different_suits"})
    third = _second_version(second, organiser, title="Our new card", **{"item:fours": "out"})
    url = reverse("cards:diff", args=[first.card_id])
    # By default: the newest against the one before.
    html = signed_in.get(url).content.decode()
    assert "From version 2 to version 3" in html
    assert 'data-item="fours"' in html and 'data-item="two_threes"' not in html
    assert "Our new card" in html  # the title changed
    # Any two: the first against the third, both items.
    page = signed_in.get(url + f"?a={first.number}&b={third.number}")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-item="fours"' in html and 'data-item="two_threes"' in html
    assert "Suits <del>" in html and "<ins>different suits</ins>" in html
    assert signed_in.get(url + "?a=1&b=1").content.decode().count("same version twice") == 1
    assert signed_in.get(url + "?a=1&b=9").status_code == 400
    assert signed_in.get(url + "?a=x&b=1").status_code == 400


def test_the_diff_is_the_cards_own_people_only(client, owner, organiser):
    from trainer.clubs import services as club_services

    first = make_card(owner, organiser)
    _second_version(first, organiser, **{"item:fours": "out"})
    url = reverse("cards:diff", args=[first.card_id]) + "?a=1&b=2"
    other = user("otto")
    club_owner(other, name="Hillside")
    client.force_login(other)
    assert client.get(url).status_code == 404  # another club's organiser
    member = user("mia")
    club_services.club_join(user=member, club=owner.club)
    client.force_login(member)
    assert client.get(url).status_code == 404  # a member does not edit the card
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_the_evaluation_progress_counts_deals_played(signed_in, owner, organiser, settings):
    from trainer.cards.models import CardEvaluation, EvaluationChunk

    settings.CARDS_EVALUATION_DEALS = 8
    settings.CARDS_EVALUATION_CHUNK = 4
    version = make_card(owner, organiser)
    evaluation = CardEvaluation.objects.create(
        version=version,
        rule=owner.rule,
        deals=8,
        seed=settings.CARDS_EVALUATION_SEED,
        chunk_size=4,
        chunks_total=4,
        status=CardEvaluation.Status.RUNNING,
    )
    EvaluationChunk.objects.create(
        evaluation=evaluation, opponent="base", start=0, stop=4, boards=[]
    )
    html = signed_in.get(reverse("cards:detail", args=[version.card_id])).content.decode()
    assert "Deals played: 4 of 16…" in html
    assert "chunk" not in html
