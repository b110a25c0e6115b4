"""Drills in sets of ten from the menu, the learner's level on the progress page, the settings
page saying what it saved, and a lesson's note on the house card — at desktop and 360 px, by
keyboard."""

from playwright.sync_api import Page, expect

from tests.browser.accounts import sign_up
from tests.browser.test_sessions import NO_SIDEWAYS, _answer_by_keys


def test_the_menu_starts_a_set_of_ten_by_keyboard_and_progress_shows_the_level(
    live_server, page: Page, phone_page: Page, shot
):
    base = live_server.url
    sign_up(page, base, "setter")
    page.goto(base + "/drills/")
    link = page.locator("#kind-checklist").locator("..").locator("[data-practice-set]")
    expect(link).to_be_visible()
    link.focus()
    page.keyboard.press("Enter")
    frame = page.locator("[data-session]")
    expect(frame).to_contain_text("Drill 1 of 10")
    shot(page, "set-first-drill")
    for number in range(1, 4):
        expect(frame).to_contain_text(f"Drill {number} of 10")
        _answer_by_keys(page, right=True)
        page.keyboard.press("n")
        expect(page.locator("#feedback")).to_have_text("")
        expect(page.locator('input[data-option-index="1"]')).to_be_focused()
    expect(frame).to_contain_text("Drill 4 of 10 · 3 right")

    page.goto(base + "/progress/")
    level = page.locator("[data-ratings]")
    expect(level).to_contain_text("Your level")
    expect(level.locator('[data-rating-kind="checklist"] svg')).to_be_visible()
    # A practice set's answers count towards the daily goal, which says answers, not reviews.
    expect(page.locator("[data-today]")).to_contain_text("Today: 3 of 20 answers")
    # Three answers make an early estimate, said in words beside the number.
    checklist = level.locator('[data-rating-kind="checklist"]')
    expect(checklist).to_contain_text("early estimate from 3 answers")
    expect(checklist).to_contain_text("too few answers from anyone yet to place this level")
    shot(page, "progress-level")

    page.goto(base + "/settings/")
    page.locator("select[name=rule]").select_option("contribution")
    page.locator("form").filter(has=page.locator("select[name=rule]")).locator(
        "button[type=submit]"
    ).first.click()
    expect(page.locator(".messages")).to_contain_text("Settings saved.")
    shot(page, "settings-saved")

    phone_page.context.add_cookies(page.context.cookies())
    for path, name in (("/drills/", "menu"), ("/progress/", "progress")):
        phone_page.goto(base + path)
        assert phone_page.evaluate(NO_SIDEWAYS), path
        shot(phone_page, f"phone-{name}")
