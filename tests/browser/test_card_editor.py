"""The club's card editor folded by checklist item (the items with changes open), its tap
targets at 360 px, the diff between any two saved versions (the card's people only), and a
member's settings naming the club's card; in English and Japanese, axe-clean."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from tests.browser.accessibility import (
    LEAST_TEXT_PX,
    SMALL_TARGETS,
    SMALLEST_TEXT,
    axe_violations,
)
from trainer.cards import selectors, services
from trainer.cards.selectors import Owner
from trainer.clubs import services as club_services

PASSWORD = "a-Long-unusual-passphrase-42"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def card(transactional_db, settings):
    """Riverside's card in two versions: the first signals two threes by any two different
    suits, the second plays fours out."""
    from tests.trainer.cards.factories import card_json, form_post, make_card

    settings.CARDS_CHECK_HANDS = 300
    User = get_user_model()
    organiser = User.objects.create_user("olive", password=PASSWORD)
    club = club_services.club_create(user=organiser, name="Riverside Concerto Club")
    first = make_card(Owner(club=club), organiser, **{"row:two_threes:suits": "different_suits"})
    current = selectors.version_card(first)
    post = form_post(current, title="Riverside card", **{"item:fours": "out"})
    second = services.card_save(
        actor=organiser, card=first.card, data=card_json(post, card=current)
    )
    services.default_set(actor=organiser, version=second)
    member = User.objects.create_user("mia", password=PASSWORD)
    club_services.club_join(user=member, club=club)
    other = User.objects.create_user("otto", password=PASSWORD)
    club_services.club_create(user=other, name="Hillside")
    return second


def _as(page: Page, live_server, username: str, language: str) -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    page.context.clear_cookies()
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )


def _measure(page: Page, where: str) -> list[str]:
    """At 360 px: no sideways scrolling, no tap target under 24 px, no text under 0.8rem."""
    page.set_viewport_size(PHONE)
    found = [f"{where}: {t}" for t in page.evaluate(SMALL_TARGETS)]
    size, what = page.evaluate(SMALLEST_TEXT)
    if size < LEAST_TEXT_PX:
        found.append(f"{where}: text {size}px {what}")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > PHONE["width"]:
        found.append(f"{where}: {scroll} px wide")
    return found


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_editor_folds_by_item_and_its_targets_are_large(
    live_server, page: Page, shot, card, language
):
    from trainer.cards.models import CardEvaluation, EvaluationChunk

    # "What is it worth" half-way: the panel counts deals played.
    evaluation = CardEvaluation.objects.create(
        version=card,
        rule=selectors.owner_of(card.card).rule,
        deals=settings.CARDS_EVALUATION_DEALS,
        seed=settings.CARDS_EVALUATION_SEED,
        chunk_size=settings.CARDS_EVALUATION_DEALS,
        chunks_total=2,
        status=CardEvaluation.Status.RUNNING,
    )
    EvaluationChunk.objects.create(
        evaluation=evaluation,
        opponent="base",
        start=0,
        stop=settings.CARDS_EVALUATION_DEALS,
        boards=[],
    )
    _as(page, live_server, "olive", language)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/cards/{card.card_id}/")
    worth = page.locator("#evaluation")
    expect(worth.locator("progress")).to_have_attribute(
        "max", str(2 * settings.CARDS_EVALUATION_DEALS)
    )
    if language == "en":
        deals = settings.CARDS_EVALUATION_DEALS
        expect(worth).to_contain_text(f"Deals played: {deals} of {2 * deals}")
    expect(worth).not_to_contain_text("chunk")
    items = page.locator("details.cards-item")
    checklist = selectors.version_card(card).checklist
    expect(items).to_have_count(len(checklist))
    # Open: the items that differ from Parlett's card (two threes, fours) and the item the
    # change made ambiguous with two threes (full house); the rest folded.
    opened = page.locator("details.cards-item[open]")
    assert sorted(opened.evaluate_all("els => els.map(e => e.dataset.item)")) == [
        "fours",
        "full_house",
        "two_threes",
    ]
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3000, height
    assert axe_violations(page) == []
    shot(page, f"card-editor-{language}-desktop")
    # A folded item opens from its line, and its rows are there to edit.
    name = page.locator("details.cards-item:not([open])").first.get_attribute("data-item")
    folded = page.locator(f'details.cards-item[data-item="{name}"]')
    folded.locator("summary").click()
    expect(folded.locator("fieldset.cards-row").first).to_be_visible()
    problems = _measure(page, "editor")
    shot(page, f"card-editor-{language}-phone")
    assert problems == [], "\n".join(problems)
    assert axe_violations(page) == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_diff_between_two_versions_item_by_item(live_server, page: Page, shot, card, language):
    _as(page, live_server, "olive", language)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/cards/{card.card_id}/")
    page.locator("[data-diff-link]").click()
    diff = page.locator("[data-diff]")
    # By default the newest version against the one before: fours only.
    expect(diff.locator('[data-item="fours"]')).to_be_visible()
    expect(diff.locator('[data-item="two_threes"]')).to_have_count(0)
    # The same version twice: nothing to show.
    page.locator("[data-diff-form] select[name=a]").select_option("2")
    page.locator("[data-diff-form] button[type=submit]").click()
    expect(page.locator("[data-diff-same]")).to_be_visible()
    assert "a=2" in page.url and "b=2" in page.url
    page.locator("[data-diff-form] select[name=a]").select_option("1")
    page.locator("[data-diff-form] button[type=submit]").click()
    expect(diff.locator('[data-item="fours"]')).to_be_visible()
    expect(diff.locator('[data-diff-field="title"]')).to_contain_text("Riverside card")
    assert axe_violations(page) == []
    shot(page, f"card-diff-{language}-desktop")
    problems = _measure(page, "diff")
    shot(page, f"card-diff-{language}-phone")
    assert problems == [], "\n".join(problems)
    # Another club's organiser, and a member (who does not edit the card): no such page.
    url = page.url
    for who in ("otto", "mia"):
        _as(page, live_server, who, language)
        response = page.goto(url)
        assert response is not None and response.status == 404, who


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_members_settings_name_the_clubs_card(live_server, page: Page, shot, card, language):
    _as(page, live_server, "mia", language)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/settings/")
    default = page.locator("#id_convention option[value='']")
    expect(default).to_contain_text("Riverside card")
    if language == "en":
        expect(default).to_contain_text("Your club's card: Riverside card")
    assert axe_violations(page) == []
    shot(page, f"settings-{language}-desktop")
    problems = _measure(page, "settings")
    shot(page, f"settings-{language}-phone")
    assert problems == [], "\n".join(problems)
