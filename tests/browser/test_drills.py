"""A learner signs up, leads a signal by clicking cards, reads one with the keyboard alone,
and finds both answers on the progress page."""

import re

from playwright.sync_api import Page, expect

from engine.drills import DrillParams, make_drill
from engine.signals import encode
from tests.browser.accounts import sign_up
from trainer.progress.models import Attempt


def test_lead_by_clicks_read_by_keyboard_then_progress(
    live_server, page: Page, phone_page: Page, shot
):
    base = live_server.url
    sign_up(page, base, "learner_one")

    # A lead drill: click the first card, then the second (or Pass).
    drill = make_drill("lead", 21, DrillParams(side_hand=1, items=("four_sf",)))
    c1, c2 = encode(drill.hand, 1).plays[0]
    page.goto(base + "/drills/lead/21/?v=2&side_hand=1&items=four_sf")
    expect(page.locator("#step")).to_contain_text("Choose your first card")
    shot(page, "lead-start")
    page.locator(f'button[name="c1"][value="{c1}"]').click()
    expect(page.locator("#step")).to_contain_text("Now choose your second card")
    shot(page, "lead-second")
    if c2 is None:
        page.get_by_role("button", name="Pass").click()
    else:
        page.locator(f'button[name="c2"][value="{c2}"]').click()
    expect(page.locator("#feedback")).to_contain_text("Right.")
    expect(page).to_have_url(re.compile(r"/drills/lead/21/"))  # answered in place (htmx)
    shot(page, "lead-feedback")

    # A read drill with the keyboard only: number key picks, Enter submits, N moves on.
    page.goto(base + "/drills/read/8/?v=2&side_hand=2")
    read = make_drill("read", 8, DrillParams(side_hand=2))
    from tests.trainer.factories import right_option

    right = right_option(read)
    index = [o.key for o in read.options].index(right) + 1
    page.locator("body").press(str(index))
    expect(page.locator(f'input[data-option-index="{index}"]')).to_be_checked()
    expect(page.locator(f'input[data-option-index="{index}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_contain_text("Right.")
    expect(page.locator("#feedback")).to_be_focused()
    shot(page, "read-feedback")
    page.keyboard.press("n")
    expect(page.locator("#feedback")).to_have_text("")
    expect(page).not_to_have_url(re.compile(r"/drills/read/8/"))

    assert Attempt.objects.filter(user__username="learner_one").count() == 2

    page.goto(base + "/progress/")
    expect(page.locator("[data-today]")).to_contain_text("Today: 2 of 20 answers")
    skills = page.locator(".lesson-groups")
    expect(skills).to_contain_text("Lead a signal")
    expect(skills).to_contain_text("Read partner's signal")
    expect(skills).to_contain_text("Four to a straight flush")
    shot(page, "progress")

    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(base + "/progress/")
    shot(phone_page, "progress-phone")
    phone_page.goto(base + "/drills/lead/21/?v=2&side_hand=1&items=four_sf")
    shot(phone_page, "lead-phone")
    phone_page.goto(base + "/drills/")
    shot(phone_page, "menu-phone")


def test_lead_drill_is_playable_with_the_keyboard(live_server, page: Page, shot):
    page.goto(live_server.url + "/drills/lead/5/?v=2&side_hand=3")
    first = page.locator('button[name="c1"]').first
    first.focus()
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#step")).to_contain_text("second card")
    page.keyboard.press("p")
    expect(page.locator("#feedback .feedback")).to_be_visible()
    shot(page, "keyboard-lead")


def test_bad_post_shows_the_reason_in_the_feedback_area(live_server, page: Page):
    page.goto(live_server.url + "/drills/checklist/3/?v=2")
    page.evaluate("""() => {
        const radio = document.querySelector('input[name=option]');
        radio.value = 'royal_flush';
        radio.checked = true;
    }""")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator("#feedback")).to_contain_text(
        re.compile("not one of this drill's options", re.I)
    )


def test_every_drill_kind_renders_and_grades(live_server, page: Page, phone_page: Page, shot):
    urls = {
        "lead": "/drills/lead/31/?v=2&side_hand=3",
        "read": "/drills/read/4/?v=2&side_hand=4&own_hand=1",
        "checklist": "/drills/checklist/6/?v=2",
        "score": "/drills/score/2/?v=2&rule=contribution&items=straight_flush",
        "reply": "/drills/reply/9/?v=2&side_hand=2",
    }
    for kind, url in urls.items():
        page.goto(live_server.url + url)
        expect(page.locator("h1")).to_be_visible()
        shot(page, f"{kind}-desktop")
        if kind != "lead":
            page.locator("label.option").first.click()
            page.get_by_role("button", name="Check answer").click()
            expect(page.locator("#feedback .feedback")).to_be_visible()
            shot(page, f"{kind}-answered")
        phone_page.goto(live_server.url + url)
        shot(phone_page, f"{kind}-phone")


def test_focus_follows_htmx_swaps(live_server, page: Page, shot):
    """After a lead's first card, focus is on a second-card choice; after N, on the new
    question (bug 6: the swap removed the element the script read focus from)."""
    page.goto(live_server.url + "/drills/lead/5/?v=2&side_hand=3")
    first = page.locator('button[name="c1"]').first
    first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#step")).to_contain_text("second card")
    expect(page.locator('button[name="c2"]').first).to_be_focused()
    shot(page, "lead-second-focused")
    page.keyboard.press("p")
    expect(page.locator("#feedback .feedback")).to_be_visible()
    expect(page.locator("#feedback")).to_be_focused()
    page.keyboard.press("n")
    expect(page.locator("#step")).to_contain_text("Choose your first card")
    expect(page.locator('button[name="c1"]').first).to_be_focused()

    page.goto(live_server.url + "/drills/read/8/?v=2&side_hand=2")
    page.locator("body").press("1")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback .feedback")).to_be_visible()
    # Focus on the feedback means htmx has settled the answer (its Next link is live).
    expect(page.locator("#feedback")).to_be_focused()
    page.keyboard.press("n")
    expect(page.locator("#feedback")).to_have_text("")
    expect(page.locator('input[data-option-index="1"]')).to_be_focused()


def test_touch_screens_hide_key_hints(browser, live_server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(live_server.url + "/drills/read/8/?v=2&side_hand=2")
    expect(page.locator("#drill-area kbd").first).to_be_hidden()
    context.close()
