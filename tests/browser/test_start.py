"""The guided start: sign up → "Start here" → step 1's lesson → its drills, by keyboard."""

import re

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
    expect(page.locator("[data-session]")).to_contain_text(
        "Drill 1 of 10 · 0 answered · 0 right · pass mark 8"
    )
    _answer_with_keyboard(page)
    expect(page.locator("[data-session]")).to_contain_text("Drill 1 of 10 · 1 answered · 1 right")
    expect(page.locator("#feedback .learn-links")).to_contain_text("Lesson:")
    shot(page, "first-drill-answered")
    page.keyboard.press("n")  # Next goes on with the step
    expect(page.locator("#feedback")).to_have_text("")
    expect(page.locator("[data-session]")).to_contain_text("Drill 2 of 10 · 1 answered · 1 right")
    phone_page.goto(page.url)
    shot(phone_page, "session-drill-phone")

    page.goto(base + "/")
    expect(page.locator("[data-continue]")).to_have_attribute("data-continue", "path")
    expect(page.locator("[data-continue]")).to_have_attribute("href", "/start/1/next/")


def test_resuming_a_step_names_the_drill_served_and_a_passed_step_finishes_its_drills(
    live_server, page: Page, shot, path_loaded
):
    """Drills 1, 2 and 5 answered before: Continue serves drill 3 and the frame says "Drill 3"
    (the number the step's list gives it). Passed with drills left, Next goes on to them; the
    step's page then calls it passed, without asking for the missed ones again."""
    from django.contrib.auth import get_user_model

    from tests.trainer.clubs import factories as cf
    from trainer.clubs.curriculum import get_step

    base = live_server.url
    sign_up(page, base, "resumer")
    user = get_user_model().objects.get(username="resumer")
    step = get_step(1)
    entries = cf.entries(step)
    for entry in (entries[0], entries[1], entries[4]):
        cf.answer_entry(user, entry, correct=True)
    page.goto(base + "/start/1/next/")
    frame = page.locator("[data-session]")
    expect(frame).to_contain_text("Drill 3 of 10 · 3 answered · 3 right")
    expect(page).to_have_url(re.compile(rf"/drills/{entries[2].kind}/{entries[2].seed}/"))
    shot(page, "resumed-drill-3")

    for entry in entries[2:9]:  # eight right (the pass mark) and one wrong: one drill left
        if entry is not entries[4]:
            cf.answer_entry(user, entry, correct=entry is not entries[8])
    page.goto(base + "/start/1/next/")
    expect(frame).to_contain_text("Drill 10 of 10 · 9 answered · 8 right")
    _answer_with_keyboard(page)
    page.keyboard.press("n")
    expect(page).to_have_url(base + "/start/1/")
    summary = page.locator(".step-summary")
    expect(summary).to_contain_text("answered: passed.")
    expect(summary).not_to_contain_text("to count them")
    shot(page, "step-passed-summary")
