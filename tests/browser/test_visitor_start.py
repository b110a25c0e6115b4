"""The guided start without an account: home → "Start here" → step 1's drills, answered by
keyboard → sign up → the answers counted on the new account's path. Desktop and 360 px."""

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.browser.accounts import PASSWORD
from tests.browser.layout import assert_fits
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


def _look(page: Page, phone: Page, shot, name: str) -> None:
    """Screenshots of the page on the desktop and at 360 px (same browser session)."""
    assert_fits(page)
    shot(page, name)
    phone.context.clear_cookies()
    phone.context.add_cookies(page.context.cookies())
    phone.goto(page.url)
    assert_fits(phone)
    shot(phone, f"{name}-phone")


def test_a_visitor_plays_step_one_signs_up_and_keeps_the_answers(
    live_server, page: Page, phone_page: Page, shot, path_loaded
):
    base = live_server.url
    page.goto(base + "/")
    start = page.locator("[data-start]")
    expect(start).to_have_text("Start here")
    _look(page, phone_page, shot, "home-visitor")

    start.focus()  # the guided start, by keyboard
    page.keyboard.press("Enter")
    expect(page).to_have_url(base + "/start/")
    expect(page.locator(".path-step")).to_have_count(7)
    expect(page.locator(".path-step-current")).to_contain_text("Step 1: The game and one deal")
    expect(page.locator("[data-signup-step]")).to_have_count(6)
    expect(page.locator(".path-step").nth(1)).to_contain_text("Scoring and left-overs")
    expect(page.locator(".path-step").nth(1)).to_contain_text("Sign up to unlock")
    _look(page, phone_page, shot, "path-visitor")

    page.locator(".path-step").first.get_by_role("link", name="Play the drills").click()
    expect(page.locator("#drill-area")).to_be_visible()
    # the step's frame, for a visitor a line above each drill
    expect(page.locator(".messages")).to_contain_text(
        "Step 1 · Drill 1 of 10 · 0 right · pass mark 8"
    )
    for answered in range(1, 4):
        _answer_with_keyboard(page)
        if answered == 1:
            _look(page, phone_page, shot, "drill-answered-visitor")
        page.keyboard.press("n")  # Next goes on with the step
        expect(page.locator(".messages")).to_contain_text(
            f"Step 1 · Drill {answered + 1} of 10 · {answered} right"
        )
        expect(page.locator("#feedback")).to_have_text("")

    page.goto(base + "/start/1/")
    expect(page.locator(".path-summary")).to_contain_text("3 of 10 right · pass mark 8")
    expect(page.locator(".step-drill-right")).to_have_count(3)
    expect(page.locator(".step-drill-new")).to_have_count(7)
    expect(page.locator("[data-visitor]")).to_contain_text("kept in this browser")
    _look(page, phone_page, shot, "step-visitor")

    page.get_by_role("link", name="Start here").first.click()  # the breadcrumb
    page.locator("[data-signup]").click()
    expect(page).to_have_url(base + "/accounts/signup/?next=/start/")
    page.locator("input[name=username]").fill("visitor1")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".account-nav")).to_contain_text("visitor1")

    expect(page).to_have_url(base + "/start/")
    expect(page.locator(".messages")).to_contain_text("signed out are kept with your account")
    first = page.locator(".path-step").first
    expect(first).to_contain_text("3 of 10 right · pass mark 8")
    expect(page.locator("[data-signup-step]")).to_have_count(0)
    expect(page.locator("[data-visitor]")).to_have_count(0)
    _look(page, phone_page, shot, "path-after-sign-up")

    first.get_by_role("link", name="Continue the drills").click()
    expect(page.locator("[data-session]")).to_contain_text("Drill 4 of 10 · 3 answered · 3 right")
