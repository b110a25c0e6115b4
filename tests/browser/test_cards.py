"""An organiser derives the club's own card from Parlett's, changes a row in the browser and
sees a new ambiguity appear with its odds, saves it, runs "what is it worth" in the background
(the in-process worker) and gets points per deal with a 95% interval."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from trainer.cards.models import ClubCard
from trainer.clubs import services as club_services
from trainer.core.infra import tasks

PASSWORD = "a-Long-unusual-passphrase-42"


@pytest.fixture
def club(transactional_db, settings):
    settings.CARDS_EVALUATION_DEALS = 8
    settings.CARDS_EVALUATION_CHUNK = 4
    settings.CARDS_CHECK_HANDS = 300
    organiser = get_user_model().objects.create_user("olive", password=PASSWORD)
    yield club_services.club_create(user=organiser, name="Riverside Concerto Club")
    tasks.stop_embedded_worker()


def _log_in(page: Page, live_server, username: str) -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )


def test_organiser_edits_a_card_sees_the_ambiguity_and_what_it_is_worth(
    live_server, page: Page, shot, club
):
    if not tasks.embedded():
        pytest.skip("TASK_BROKER_URL is set: the worker is not in this process")
    _log_in(page, live_server, "olive")
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.get_by_role("link", name="Your cards").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your club's own card")
    page.get_by_role("link", name="New card from Parlett 2008").click()

    check = page.locator("#card-check")
    expect(check.locator(".cards-valid")).to_be_visible()
    expect(check.locator(".cards-diff-same")).to_be_visible()
    expect(check.locator(".cards-ambiguity.is-new")).to_have_count(0)

    # Two threes signalled by any two different suits: now also by a different colour.
    # The items are folded (none differs from Parlett's yet): unfold two threes.
    page.locator('details.cards-item[data-item="two_threes"] summary').click()
    # A row is named in words; its card file id is the name's tooltip.
    row = page.locator("fieldset.cards-row", has=page.locator('legend [title="two_threes"]'))
    row.get_by_label("Suits", exact=True).select_option("different_suits")
    new = check.locator('.cards-ambiguity.is-new[data-items="two_threes full_house"]')
    expect(new).to_be_visible(timeout=20_000)
    expect(new).to_contain_text("Two threes 52%")
    expect(new).to_contain_text("Full house 48%")
    expect(check.locator(".cards-diff")).to_contain_text("Two threes: Suits")
    shot(page, "ambiguity")

    page.get_by_label("Title").fill("Riverside card")
    page.get_by_role("button", name="Save the card").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Riverside card")
    card = ClubCard.objects.get()
    assert page.url.endswith(f"/cards/{card.pk}/")

    page.get_by_role("button", name="What is it worth?").click()
    panel = page.locator("#evaluation")
    base = panel.locator('[data-opponent="base"]')
    expect(base).to_be_visible(timeout=120_000)  # the panel polls until the worker is done
    expect(base).to_contain_text("Parlett 2008")
    expect(base.locator(".cards-diff-cell")).to_have_text(
        re.compile(r"[+-]\d+\.\d\d \([+-]\d+\.\d\d to [+-]\d+\.\d\d\)")
    )
    expect(panel.locator('[data-opponent="greedy"]')).to_contain_text("greedy bot")
    shot(page, "worth")

    # Then the club plays it: the house card.
    page.get_by_role("button", name="Make it the house card").click()
    expect(page.locator(".messages")).to_contain_text("Members' drills now default to")
    club.refresh_from_db()
    assert club.convention == card.versions.get().name


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_start_past_the_limit_says_why_in_the_panel_at_both_widths(
    live_server, page: Page, shot, club, settings, language
):
    """The site-wide queue is full: "What is it worth?" answers in its panel (htmx, 400) why
    nothing started and when to try again; nothing is queued."""
    from tests.trainer.cards.factories import make_card
    from trainer.cards.models import CardEvaluation
    from trainer.cards.selectors import Owner

    settings.CARDS_EVALUATION_QUEUE_LIMIT = 0
    organiser = get_user_model().objects.get(username="olive")
    card = make_card(Owner(club=club), organiser).card
    _log_in(page, live_server, "olive")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/cards/{card.pk}/")
    button = page.locator("#evaluation button[type=submit]")
    button.focus()
    page.keyboard.press("Enter")  # (by keyboard)
    refusal = page.locator("#evaluation [role=alert]")
    expected = "try again" if language == "en" else "もう一度お試しください"
    expect(refusal).to_contain_text(expected)
    assert not CardEvaluation.objects.exists()
    page.locator("#evaluation").scroll_into_view_if_needed()
    shot(page, f"refused-{language}-desktop", full_page=False)
    page.set_viewport_size({"width": 360, "height": 740})
    page.locator("#evaluation").scroll_into_view_if_needed()
    shot(page, f"refused-{language}-phone", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
