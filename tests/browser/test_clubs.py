"""A new member joins a club by its invite link, reads lesson 1, plays step 1's drills with
the keyboard and passes the step; the organiser then sees them on the members' path table."""

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from engine.drills import DrillParams, make_drill
from trainer.clubs import services as club_services
from trainer.core.seeding import discover_loaders, load_file
from trainer.drills.curation import right_answer

PASSWORD = "a-Long-unusual-passphrase-42"
SEEDS = settings.BASE_DIR / "seeds"


@pytest.fixture
def club(transactional_db):
    discover_loaders()
    for path in [
        *sorted(SEEDS.glob("onboarding/0[12]-*.yaml")),
        *sorted(SEEDS.glob("lessons/0[12]-*.md")),
    ]:
        load_file(path)
    organiser = get_user_model().objects.create_user("olive", password=PASSWORD)
    return club_services.club_create(user=organiser, name="Riverside Concerto Club")


def _log_in(page: Page, live_server, username: str) -> None:
    """Reuse a Django session in the browser (the login form is tested elsewhere)."""
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


def _answer_with_keyboard(page: Page) -> None:
    """Answer the drill on screen right, by keys only: its option number, then Enter."""
    page.wait_for_load_state("load")  # drills.js (deferred) handles the keys
    url = urlsplit(page.url)
    kind, seed = url.path.strip("/").split("/")[1:3]
    query = dict(parse_qsl(url.query))
    drill = make_drill(kind, int(seed), DrillParams.from_query(query))
    key = right_answer(drill).option
    index = [o.key for o in drill.options].index(key) + 1
    page.keyboard.press(str(index))
    expect(page.locator(f'input[data-option-index="{index}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_contain_text("Right.")


def test_new_member_joins_reads_lesson_passes_step_one(
    live_server, page: Page, phone_page: Page, shot, club
):
    # The invite link, opened by someone without an account.
    page.goto(f"{live_server.url}/clubs/join/{club.invite_token}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Join Riverside Concerto Club")
    shot(page, "join-anonymous")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("newbie")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    # Back on the invite, now signed in: join.
    expect(page).to_have_url(re.compile(r"/clubs/join/"))
    page.get_by_role("button", name="Join Riverside Concerto Club").click()
    expect(page).to_have_url(f"{live_server.url}/clubs/{club.slug}/path/")
    expect(page.locator(".messages")).to_contain_text("Welcome to Riverside Concerto Club")
    expect(page.locator(".path-step")).to_have_count(7)
    expect(page.locator(".path-step").nth(0)).to_contain_text("0 of 10 right")
    shot(page, "path-new-member")

    # Lesson 1, opened from the path; open one engine-computed example by keyboard.
    page.locator(".path-step").nth(0).get_by_role("link", name="Read the lesson").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The game and one deal")
    summary = page.locator(".example summary").first
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".example details").first.locator(".example-answer")).to_be_visible()
    expect(page.locator(".example details").first).to_contain_text("Straight")
    shot(page, "lesson-1")

    # Play the step's drills until the path says the step is passed.
    page.get_by_role("link", name="Play step 1's drills").last.click()
    for _ in range(12):
        expect(page).to_have_url(re.compile(r"/drills/score/\d+/"))
        _answer_with_keyboard(page)
        if _ == 0:
            shot(page, "first-drill-answered")
        before = page.url
        page.keyboard.press("n")  # Next: htmx asks the path for the next drill
        page.wait_for_url(lambda url, before=before: url != before)
        page.wait_for_load_state("load")
        if urlsplit(page.url).path == f"/clubs/{club.slug}/path/1/":
            break
    # The session ends on the step's summary, which leads back to the path.
    expect(page).to_have_url(f"{live_server.url}/clubs/{club.slug}/path/1/")
    expect(page.locator(".messages")).to_contain_text("Step 1, The game and one deal, passed")
    shot(page, "step-one-summary")
    page.get_by_role("link", name="Back to your path").click()
    expect(page.locator(".path-step").nth(0)).to_contain_text("Passed")
    expect(page.locator(".path-step").nth(1)).to_contain_text("Open")
    shot(page, "path-step-one-passed")

    # The organiser's table shows the new member one step along.
    organiser = phone_page
    _log_in(organiser, live_server, "olive")
    organiser.goto(f"{live_server.url}/clubs/{club.slug}/members/")
    row = organiser.locator("tbody tr", has_text="newbie")
    expect(row).to_contain_text("Step 2: Scoring and left-overs")
    expect(row.locator(".step-cell").first).to_contain_text("passed")
    assert organiser.evaluate("document.documentElement.scrollWidth") <= 375
    shot(organiser, "members-phone")


def test_organiser_rotates_the_invite_with_the_keyboard(live_server, page: Page, shot, club):
    _log_in(page, live_server, "olive")
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    old = page.locator("#invite-link").input_value()

    button = page.get_by_role("button", name="Make a new link")
    for _ in range(60):
        page.keyboard.press("Tab")
        if button.evaluate("b => b === document.activeElement"):
            break
    expect(button).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator("#invite")).to_contain_text("the old one no longer works")
    assert page.locator("#invite-link").input_value() != old
    shot(page, "invite-rotated")


PAGES = {
    "clubs": "/clubs/",
    "found": "/clubs/new/",
    "club": "/clubs/{slug}/",
    "path": "/clubs/{slug}/path/",
    "step": "/clubs/{slug}/path/1/",
    "members": "/clubs/{slug}/members/",
    "lessons": "/learn/",
    "lesson-scoring": "/learn/scoring-and-leftovers/",
    "cheatsheet": "/cheatsheet/",
}


def test_every_new_page_fits_desktop_and_phone(
    live_server, page: Page, phone_page: Page, shot, club
):
    for browser_page, width in ((page, 1280), (phone_page, 375)):
        _log_in(browser_page, live_server, "olive")
        for name, path in PAGES.items():
            browser_page.goto(live_server.url + path.format(slug=club.slug))
            expect(browser_page.get_by_role("heading", level=1)).to_be_visible()
            for details in browser_page.locator("details").all()[:3]:
                details.evaluate("d => d.open = true")
            assert browser_page.evaluate("document.documentElement.scrollWidth") <= width, name
            shot(browser_page, f"{name}-{'desktop' if width > 400 else 'phone'}")
