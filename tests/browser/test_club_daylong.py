"""A daylong in browsers: an organiser creates it with the form, two members in contexts of
their own enter and play board 1 at the solo table with the keyboard alone, and once the
window has passed both see the ranking and the board's traveller (desktop and 360 px)."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.accessibility import axe_violations
from tests.browser.accounts import PASSWORD
from tests.browser.layout import assert_fits
from tests.browser.test_play import _go_on, _over, _paused, _wait_for_turn, _wait_for_version
from tests.trainer.clubs.factories import club, join
from trainer.duplicate.models import ClubSession, SessionPlay

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


def _signed_in(browser: Browser, base: str, name: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(base + "/accounts/login/")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return context, page


def _play_out(page: Page) -> None:
    """South's turns with the keyboard alone (Enter plays the card in focus) to the end."""
    for _ in range(80):
        _wait_for_turn(page)
        if _over(page):
            return
        if _paused(page):
            _go_on(page)
            continue
        version = page.locator("#table-area").get_attribute("data-version")
        page.keyboard.press("Enter")
        _wait_for_version(page, version)
    raise AssertionError("the deal did not end")


def test_a_daylong_from_the_form_to_the_traveller(live_server, browser: Browser, shot):
    users = get_user_model().objects
    organiser = users.create_user("organiser", password=PASSWORD)
    the_club = club(organiser)
    for name in ("ann", "bob"):
        join(the_club, users.create_user(name, password=PASSWORD))
    base = live_server.url

    org_context, org = _signed_in(browser, base, "organiser")
    org.goto(f"{base}/clubs/{the_club.slug}/sessions/")
    org.get_by_label("Title").fill("Weekend daylong")
    org.get_by_label("Boards (daylong)").fill("2")
    closes = timezone.localtime() + timedelta(hours=2)
    org.get_by_label("Closes (daylong)").fill(closes.strftime("%Y-%m-%dT%H:%M"))
    org.get_by_role("button", name="Create the session").click()
    expect(org.get_by_role("heading", name="Weekend daylong")).to_be_visible()
    session = ClubSession.objects.get()
    url = f"{base}/sessions/{session.pk}/"

    for name in ("ann", "bob"):
        context, page = _signed_in(browser, base, name)
        page.goto(url)
        page.get_by_role("button", name="Enter the session").click()
        page.get_by_role("button", name="Play board 1").click()
        page.wait_for_url(lambda u: "/play/" in u)
        _play_out(page)
        page.goto(url)
        expect(page.locator(".session-boards li").first).to_contain_text("played: you")
        if name == "ann":
            shot(page, "board-played")
            assert axe_violations(page) == []
        context.close()
    assert SessionPlay.objects.filter(ns_points__isnull=False).count() == 2

    with time_machine.travel(session.closes_at + timedelta(minutes=1), tick=True):
        context, page = _signed_in(browser, base, "ann")
        page.goto(url)
        expect(page.locator(".session-ranking tbody tr")).to_have_count(2)
        shot(page, "results-desktop")
        assert axe_violations(page) == []
        page.set_viewport_size(PHONE)
        assert_fits(page)
        shot(page, "results-phone")
        page.set_viewport_size(DESKTOP)
        page.get_by_role("link", name="Board 1", exact=True).first.click()
        expect(page.locator(".traveller tbody tr")).to_have_count(2)
        shot(page, "traveller-desktop")
        assert axe_violations(page) == []
        context.close()
    org_context.close()
