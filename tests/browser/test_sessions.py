"""A lesson's "practise this" set played with the keyboard alone, from the lesson to the
session's summary and back into a missed drill; the summary and the progress page at 360 px."""

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from engine.drills import DrillAddress, DrillParams, make_drill_at
from tests.browser.accessibility import axe_violations
from tests.browser.accounts import sign_up
from trainer.core.seeding import discover_loaders, load_file
from trainer.drills.curation import right_answer

LESSONS = settings.BASE_DIR / "seeds" / "lessons"
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def lessons(transactional_db):
    discover_loaders()
    for path in sorted(LESSONS.glob("*.md")):
        load_file(path)


def _answer_by_keys(page: Page, *, right: bool) -> None:
    """Answer the option drill on screen by keys only: a number, then Enter."""
    page.wait_for_load_state("load")
    url = urlsplit(page.locator("#drill-area a.permalink").get_attribute("href"))
    kind, seed = url.path.strip("/").split("/")[1:3]
    drill = make_drill_at(DrillAddress.of(kind, seed, url.query))
    keys = [o.key for o in drill.options]
    good = right_answer(drill).option
    choice = good if right else next(k for k in keys if k != good)
    index = keys.index(choice) + 1
    page.keyboard.press(str(index))
    expect(page.locator(f'input[data-option-index="{index}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_focused()
    expect(page.locator("#feedback")).to_contain_text("Right." if right else "Not quite")


def test_a_practise_set_by_keyboard_to_its_summary(
    live_server, page: Page, phone_page: Page, shot, lessons
):
    base = live_server.url
    sign_up(page, base, "practiser")
    page.goto(base + "/learn/the-leaders-checklist/")
    link = page.locator("#practise-title + .actions").get_by_role(
        "link", name="Practise: Spot the checklist item"
    )
    link.focus()
    page.keyboard.press("Enter")
    frame = page.locator("[data-session]")
    expect(frame).to_contain_text("Drill 1 of 10 · 0 right · pass mark 8")
    expect(frame).to_contain_text("Back to the lesson")
    missed = {2, 5, 9}
    for number in range(1, 11):
        expect(frame).to_contain_text(f"Drill {number} of 10")
        _answer_by_keys(page, right=number not in missed)
        right = number - len([m for m in missed if m <= number])
        expect(frame).to_contain_text(f"Drill {number} of 10 · {right} right")
        if number == 3:
            shot(page, "practise-drill-answered")
        page.keyboard.press("n")
        if number < 10:  # the next drill is swapped in, its first option focused
            expect(page.locator("#feedback")).to_have_text("")
            expect(page.locator('input[data-option-index="1"]')).to_be_focused()

    # The tenth Next ends the set on its summary: not passed, three drills to replay.
    summary = page.locator("[data-summary]")
    expect(summary).to_be_visible()
    expect(page).to_have_url(re.compile(r"/drills/practise/[^/]+/$"))
    expect(summary).to_contain_text("10 of 10 answered · 7 right first time · pass mark 8")
    expect(page.locator('[data-verdict="not-passed"]')).to_be_visible()
    replays = page.locator(".missed-list a")
    expect(replays).to_have_count(3)
    expect(replays.first).to_have_text(re.compile(r"^Drill 2: \S"))
    shot(page, "practise-summary")
    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(page.url)
    assert phone_page.evaluate(NO_SIDEWAYS)
    shot(phone_page, "practise-summary-phone")

    # Replay a missed drill from the summary, by keyboard; Next comes back to the summary.
    summary_url = page.url
    replays.first.focus()
    page.keyboard.press("Enter")
    expect(frame).to_contain_text("Drill 10 of 10 · 7 right")
    _answer_by_keys(page, right=True)
    page.keyboard.press("n")
    # The same set (its token is signed again, with a new time and so a new signature).
    payload = summary_url.rstrip("/").rsplit("/", 1)[1].split(":")[0]
    expect(page).to_have_url(re.compile(rf"/drills/practise/{re.escape(payload)}:[^/]+/$"))
    expect(page.locator(".missed-list")).to_contain_text("right when played again")

    # The way back leads to the lesson.
    page.get_by_role("link", name="← Back to the lesson").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(base + "/learn/the-leaders-checklist/")

    # The progress page counts today's answers against the goal, grouped by lesson.
    page.goto(base + "/progress/")
    expect(page.locator("[data-today]")).to_contain_text("Today: 11 of 20 answers")
    expect(page.locator(".lesson-group-title")).to_have_text(["The leader's checklist"])
    shot(page, "progress-after-practice")
    phone_page.goto(base + "/progress/")
    assert phone_page.evaluate(NO_SIDEWAYS)
    shot(phone_page, "progress-after-practice-phone")


def test_todays_review_ends_on_its_summary_at_the_goal(
    live_server, page: Page, phone_page: Page, shot
):
    """A goal of three: three reviews by keyboard, then the summary of the day."""
    from tests.trainer.factories import answer
    from trainer.progress.models import ReviewGoal
    from trainer.progress.selectors import start_of_day

    base = live_server.url
    sign_up(page, base, "reviewer")
    from django.contrib.auth import get_user_model

    who = get_user_model().objects.get(username="reviewer")
    ReviewGoal.objects.create(user=who, per_day=3)
    yesterday = start_of_day() - timedelta(hours=3)
    for n, item in enumerate(("fours", "two_pair", "threes", "one_pair")):
        answer(who, seed=n + 1, correct=False, params=DrillParams(items=(item,)), now=yesterday)

    page.goto(base + "/progress/")
    expect(page.locator("[data-today]")).to_contain_text("Today: 0 of 3 answers")
    page.get_by_role("link", name="Start today's review").focus()
    page.keyboard.press("Enter")
    frame = page.locator("[data-session]")
    for number in range(1, 4):
        expect(frame).to_contain_text(f"Today: {number - 1} of 3 answers")
        _answer_by_keys(page, right=number != 2)
        expect(frame).to_contain_text(
            f"Today: {number} of 3 answers"
            if number < 3
            else "Today: 3 answers, daily goal of 3 met"
        )
        page.keyboard.press("n")
        if number < 3:
            expect(page.locator('input[data-option-index="1"]')).to_be_focused()
    summary = page.locator("[data-summary]")
    expect(summary).to_contain_text("Daily goal met")
    expect(summary).to_contain_text("Today: 3 answers, daily goal of 3 met · 2 right")
    expect(page.locator(".missed-list a")).to_have_count(1)
    expect(summary.get_by_role("link", name=re.compile("Keep reviewing"))).to_be_visible()
    shot(page, "review-summary")
    assert axe_violations(page) == []
    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(page.url)
    assert phone_page.evaluate(NO_SIDEWAYS)
    shot(phone_page, "review-summary-phone")
