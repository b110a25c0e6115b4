"""The card editor in Japanese, at desktop and phone width: each row is named by its item and
shape (its card file id a tooltip), and an edit the checker refuses says why in Japanese,
naming the row."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from tests.browser.test_cards import PASSWORD, _log_in
from trainer.clubs import services as club_services


@pytest.fixture
def club(transactional_db, settings):
    settings.CARDS_CHECK_HANDS = 300
    organiser = get_user_model().objects.create_user("olive", password=PASSWORD)
    return club_services.club_create(user=organiser, name="Riverside Concerto Club")


@pytest.mark.parametrize("width", [1280, 360])
def test_a_refused_edit_names_its_row_in_japanese(live_server, browser: Browser, shot, club, width):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, extra_http_headers={"Accept-Language": "ja"}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    _log_in(page, live_server, "olive")
    page.goto(f"{live_server.url}/cards/new/?club={club.slug}&from=parlett-2008")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.locator('details.cards-item[data-item="fours"] summary').click()
    row = page.locator("fieldset.cards-row", has=page.locator('legend [title="fours"]'))
    expect(row.locator("legend")).to_contain_text("フォーカード")
    row.get_by_label("間隔", exact=True).select_option("5")
    row.get_by_label("〜", exact=True).select_option("2")
    error = page.locator('#card-check .cards-errors li[data-row="fours"]')
    expect(error).to_contain_text("フォーカード：間隔は小さい数から大きい数へ")
    shot(page, f"ja-{width}")
    context.close()
