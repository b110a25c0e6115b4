"""The teacher's dashboard names everyone the table marks: a student whose cells are marked ✗
and one behind on work due within the week are listed with each reason and one link to act
on it, in English and Japanese, on a desktop and a phone, and with the keyboard alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from tests.browser.accessibility import axe_violations
from tests.browser.asgi_servers import session_cookie
from tests.browser.layout import assert_fits
from tests.trainer.classes import factories as f

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def room(transactional_db):
    """Ben is marked ✗ on the homework (1 of 6 right); Cleo has answered none of it, due in five
    days; Ann is right every time and has finished."""
    room = f.classroom(name="Tuesday beginners")
    work = f.built(
        room, title="Weak signals", count=3, due_on=timezone.localdate() + timedelta(days=5)
    )
    drills = list(work.drills.order_by("position"))
    for name, right in (("ann", 6), ("ben", 1), ("cleo", None)):
        who = f.student_in(room, f.user(name))
        for n, d in enumerate(drills if right is not None else []):
            f.answer_drill(who, d, correct=n < right)
    return room


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_needs_help_list_agrees_with_the_table(
    live_server, browser: Browser, room, shot, locale, viewport
):
    context = browser.new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(10_000)
    context.add_cookies(
        [{"name": "sessionid", "value": session_cookie(f.teacher_of(room)), "url": live_server.url}]
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/classes/{room.pk}/dashboard/")
        entries = page.locator("[data-needs-help] .help-entry")
        expect(entries).to_have_count(2)
        expect(page.locator("[data-needs-help] .help-none")).to_have_count(0)
        ben = entries.filter(has_text="ben")
        cleo = entries.filter(has_text="cleo")
        expect(ben.locator('[data-why="poor_work"]')).to_have_count(1)
        expect(cleo.locator('[data-why="due_soon"]')).to_have_count(1)
        expect(ben.locator(".help-action")).to_have_attribute(
            "href", f"/classes/{room.pk}/students/{ben_pk(room)}/?show=mistakes#history"
        )
        shot(page, f"dashboard-{locale}-{viewport['width']}")
        assert_fits(page)
        assert axe_violations(page) == []

        # The keyboard alone: Tab to Ben's link, Enter opens his mistakes.
        link = ben.locator(".help-action")
        for _ in range(40):
            if link.evaluate("el => el === document.activeElement"):
                break
            page.keyboard.press("Tab")
        expect(link).to_be_focused()
        page.keyboard.press("Enter")
        expect(page).to_have_url(
            f"{live_server.url}/classes/{room.pk}/students/{ben_pk(room)}/?show=mistakes#history"
        )
        expect(page.locator(".history-table tbody tr")).to_have_count(5)
    finally:
        context.close()


def ben_pk(room) -> int:
    return room.memberships.get(user__username="ben").user_id
