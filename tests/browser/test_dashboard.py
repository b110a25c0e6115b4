"""The teacher's class dashboard after issue #20: the "needs help" list at the top, accuracy
cells marked against the pass mark with a legend, ratings per student; at desktop and 360 px
wide (nothing scrolls sideways), and a keyboard-only path from it to a student's page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.trainer.classes import factories as f
from trainer.classes import services

PHONE = {"width": 360, "height": 740}


def _named(username: str, first: str, last: str):
    who = f.user(username)
    who.first_name, who.last_name = first, last
    who.save()
    return who


@pytest.fixture
def busy_class(transactional_db):
    """Tuesday beginners, as the user-testing report saw them: a warm-up that was due
    yesterday, fours due in two days, deals to play, threes due in three weeks. Ana has done
    everything; Ben is behind on the fours and weak on threes; Cleo has not started; Dev has
    only the warm-up left."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    now = timezone.now()
    today = timezone.localdate()
    teacher = _named("theo", "Theo", "Quinn")
    room = f.classroom(teacher, name="Tuesday beginners")
    people = {
        "ana": _named("ana42", "Ana", "Berg"),
        "ben": _named("ben7", "Ben", "Okafor"),
        "cleo": _named("cleo", "Cleo", "Dunn"),
        "dev": _named("dev", "Devendra", "Ramaswamy-Fitzgerald"),
    }
    for who in people.values():
        f.student_in(room, who, now=now - timedelta(days=10))
    set_at = now - timedelta(days=9)

    def built(title, item, count, due_in, base_seed):
        return f.built(
            room,
            title=title,
            items=(item,),
            count=count,
            due_on=today + timedelta(days=due_in),
            base_seed=base_seed,
            now=set_at,
        )

    warm_up = built("Two pair warm-up", "two_pair", 4, 5, 5000)
    fours = built("Spot four of a kind before Tuesday's club night", "fours", 10, 2, 1000)
    threes = built("Threes", "threes", 8, 20, 9000)
    services.assignment_create(
        classroom=room,
        by=teacher,
        title="Play two deals",
        due_on=today + timedelta(days=6),
        play=services.PlaySpec(2, "parlett-2008", "classic"),
        now=set_at,
    )
    plan = {  # assignment: {student: (answered, right)}
        warm_up: {"ana": (4, 4)},
        fours: {"ana": (10, 9), "ben": (4, 1), "dev": (10, 7)},
        threes: {"ana": (8, 8), "ben": (8, 2)},
    }
    for n_work, (work, answers) in enumerate(plan.items()):
        drills = list(work.drills.order_by("position"))
        for name, (answered, right) in answers.items():
            for n, d in enumerate(drills[:answered]):
                when = now - timedelta(days=5 - n_work, minutes=n)
                f.answer_drill(people[name], d, correct=n < right, now=when)
    # The warm-up was due yesterday (the form refuses a past date: move it back).
    warm_up.due_on = today - timedelta(days=1)
    warm_up.save(update_fields=["due_on"])
    return room, teacher, people


def _signed_in(browser: Browser, live_server, user, viewport) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def _no_sideways_scroll(page: Page) -> None:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, (page.url, scroll, inner)


def test_the_dashboard_lists_who_needs_help_at_desktop_and_phone_width(
    browser: Browser, live_server, busy_class, shot
):
    room, teacher, people = busy_class
    url = f"{live_server.url}/classes/{room.pk}/dashboard/"
    for name, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", PHONE)):
        page = _signed_in(browser, live_server, teacher, viewport)
        try:
            page.goto(url)
            help_list = page.locator("[data-needs-help]")
            expect(help_list.get_by_role("heading", name="Needs help")).to_be_visible()
            entries = help_list.locator(".help-entry")
            # Overdue first (the warm-up: everyone but Ana), then by name; then Ana, behind on
            # the deals due within the week.
            expect(entries).to_have_count(4)
            expect(entries.nth(3).locator(".help-name")).to_have_text("Ana B.")
            expect(entries.nth(3)).to_contain_text("Behind")
            expect(entries.nth(0).locator(".help-name")).to_have_text("Ben O.")
            expect(entries.nth(0)).to_contain_text("Overdue")
            expect(entries.nth(0)).to_contain_text("Behind")
            expect(entries.nth(0)).to_contain_text("Below the pass mark")
            expect(entries.nth(1).locator(".help-name")).to_have_text("Cleo D.")
            expect(entries.nth(2).locator(".help-name")).to_have_text("Devendra R.")
            expect(entries.nth(2)).to_contain_text("Four of a kind: 7 of 10 right first time (70%)")
            # Fours done; behind on the deals due in six days, as everyone is.
            expect(entries.nth(2)).to_contain_text("“Play two deals”: 0 of 2 deals played")
            # The list comes before the table; the cells carry their mark in words too.
            box = help_list.bounding_box()
            table = page.locator(".dashboard-table")
            assert box is not None and box["y"] < (table.bounding_box() or {"y": 0})["y"]
            ben_row = table.locator("tr", has=page.get_by_role("link", name="Ben O."))
            poor = ben_row.locator('td[data-band="poor"]').first  # threes: 2 of 8
            expect(poor).to_contain_text("25%")
            expect(poor).to_contain_text("well below the pass mark")
            dev_row = table.locator("tr", has=page.get_by_role("link", name="Devendra R."))
            expect(dev_row.locator('td[data-band="warning"]').first).to_contain_text("70%")
            expect(page.locator(".band-legend").first).to_be_visible()
            expect(ben_row.locator("[data-rating-kind=checklist]")).to_be_visible()
            _no_sideways_scroll(page)
            shot(page, f"dashboard-{name}")
            page.goto(f"{live_server.url}/classes/{room.pk}/students/{people['ben'].pk}/")
            expect(page.get_by_role("heading", level=1)).to_have_text("Ben O.")
            _no_sideways_scroll(page)
            shot(page, f"student-{name}")
        finally:
            page.context.close()


def test_from_the_dashboard_to_a_student_with_the_keyboard_alone(
    browser: Browser, live_server, busy_class, shot
):
    room, teacher, people = busy_class
    page = _signed_in(browser, live_server, teacher, {"width": 1280, "height": 900})
    try:
        page.goto(f"{live_server.url}/classes/{room.pk}/dashboard/")
        page.keyboard.press("Tab")
        expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
        page.keyboard.press("Enter")
        target = page.locator("[data-needs-help] .help-name").first
        for _ in range(30):
            page.keyboard.press("Tab")
            if target.evaluate("el => el === document.activeElement"):
                break
        expect(target).to_be_focused()
        assert target.evaluate("el => getComputedStyle(el).outlineStyle") != "none"
        shot(page, "help-link-focused")
        page.keyboard.press("Enter")
        expect(page).to_have_url(
            f"{live_server.url}/classes/{room.pk}/students/{people['ben'].pk}/"
        )
        expect(page.get_by_role("heading", level=1)).to_have_text("Ben O.")
        # On to a wrong answer's replay link, still by keyboard.
        replay = page.locator("[data-replay]").first
        for _ in range(40):
            page.keyboard.press("Tab")
            if replay.evaluate("el => el === document.activeElement"):
                break
        expect(replay).to_be_focused()
        shot(page, "replay-focused")
        page.keyboard.press("Enter")
        page.wait_for_url("**/drills/checklist/**")
        expect(page.locator("#drill-area")).to_be_visible()
    finally:
        page.context.close()
