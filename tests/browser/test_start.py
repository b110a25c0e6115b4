"""The guided start: sign up → "Start here" → step 1's lesson → its drills, by keyboard."""

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.browser.accounts import sign_up
from tests.browser.test_clubs import _answer_with_keyboard
from trainer.core.seeding import discover_loaders, load_file

SEEDS = settings.BASE_DIR / "seeds"


@pytest.fixture
def path_loaded(transactional_db):
    discover_loaders()
    for path in [
        *sorted(SEEDS.glob("onboarding/0[12]-*.yaml")),
        *sorted(SEEDS.glob("lessons/*.md")),
    ]:
        load_file(path)


def test_sign_up_lands_on_start_here_and_plays_step_one(
    live_server, page: Page, phone_page: Page, shot, path_loaded
):
    base = live_server.url
    sign_up(page, base, "newcomer")
    expect(page).to_have_url(base + "/start/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your path")
    shot(page, "start-here")
    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(base + "/start/")
    shot(phone_page, "start-here-phone")

    page.locator(".path-step").first.get_by_role("link", name="Read the lesson").click()
    expect(page.locator(".lesson-path")).to_contain_text("Step 1 of your path")
    expect(page.locator("#practise-title")).to_be_visible()
    shot(page, "lesson-one")
    page.get_by_role("link", name="Play step 1's drills").click()
    expect(page.locator("#drill-area")).to_be_visible()
    expect(page.locator("[data-session]")).to_contain_text("Drill 1 of 10 · 0 right · pass mark 8")
    _answer_with_keyboard(page)
    expect(page.locator("[data-session]")).to_contain_text("Drill 1 of 10 · 1 right")
    expect(page.locator("#feedback .learn-links")).to_contain_text("Lesson:")
    shot(page, "first-drill-answered")
    page.keyboard.press("n")  # Next goes on with the step
    expect(page.locator("#feedback")).to_have_text("")
    expect(page.locator("[data-session]")).to_contain_text("Drill 2 of 10 · 1 right")
    phone_page.goto(page.url)
    shot(phone_page, "session-drill-phone")

    page.goto(base + "/")
    expect(page.locator("[data-continue]")).to_have_attribute("data-continue", "path")
    expect(page.locator("[data-continue]")).to_have_attribute("href", "/start/1/next/")
