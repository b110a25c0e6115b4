"""Every page, with the demo data: no sideways scrolling at 360 px, no serious or critical
accessibility violations (axe-core, bundled by axe-playwright-python, so it runs offline).

Screenshots of each page at both widths go to ``output/<test>/``.
"""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings
from playwright.sync_api import Browser, Page

from tests.browser.accessibility import LEAST_TEXT_PX, SMALL_TARGETS, SMALLEST_TEXT
from trainer.classes.models import Assignment, Classroom
from trainer.learn.models import Lesson

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
#: The outermost elements reaching past the right edge (to say what to fix).
WIDE_ELEMENTS = """(() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > innerWidth + 0.5 && !out.some(o => o.contains(el))) out.push(el);
  }
  return out.slice(0, 5).map(el => el.tagName + '.' + el.className);
})()"""
#: axe-core's WCAG 2.0/2.1 A and AA rules, violations only.
AXE_RUN = """axe.run({
  resultTypes: ["violations"],
  runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}
})"""


@pytest.fixture
def demo(transactional_db):
    with override_settings(TRAINER_DEMO_DATA=True):
        call_command("seed", verbosity=0)


def _practice_summary(username: str) -> str:
    """The summary page of a practice set ``username`` has played half of."""
    from engine.drills import DrillParams
    from tests.trainer.factories import answer
    from trainer.core.drill_sessions import PracticeSet, practice_sign

    params = DrillParams(items=("fours",))
    practice = PracticeSet(
        title="The leader's checklist: spot the checklist item",
        back_url="/learn/the-leaders-checklist/",
        back_label="Back to the lesson",
        kind="checklist",
    ).start(first_seed=5000, key=params.key())
    who = get_user_model().objects.get(username=username)
    for i, seed in enumerate(practice.seeds[:5]):
        answer(who, kind="checklist", seed=seed, params=params, correct=i % 2 == 0)
    return f"/drills/practise/{practice_sign(practice)}/"


def _pages() -> dict[str | None, list[str]]:
    """Addresses to visit, by who visits them (None: a visitor)."""
    room = Classroom.objects.get(name="Tuesday beginners")
    assignment = Assignment.objects.filter(classroom=room).first()
    lessons = [f"/learn/{slug}/" for slug in Lesson.objects.values_list("slug", flat=True)]
    return {
        None: [
            "/",
            "/drills/",
            "/drills/read/8/?v=2&side_hand=2",
            "/drills/lead/21/?v=2&side_hand=1&items=four_sf",
            "/drills/score/4/?v=2",
            "/drills/reply/6/?v=2&side_hand=2",
            "/learn/",
            *lessons,
            "/cheatsheet/",
            "/cheatsheet/?convention=teach-yourself-1994",
            "/accounts/login/?next=/progress/",
            "/accounts/signup/",
            "/no-such-page/",
        ],
        "student1": [
            "/",
            "/start/",
            "/start/1/",
            "/progress/",
            "/settings/",
            "/classes/",
            "/clubs/",
            "/clubs/riverside/",
            "/clubs/riverside/path/",
            "/clubs/riverside/path/3/",
            assignment.get_absolute_url(),
            "/drills/review/",
            _practice_summary("student1"),
            "/drills/score/2/?v=2&rule=contribution&items=straight_flush",
        ],
        "teacher": ["/", f"/classes/{room.pk}/", f"/classes/{room.pk}/dashboard/", "/classes/"],
        "organiser": ["/clubs/riverside/", "/clubs/riverside/members/"],
    }


def _context(browser: Browser, live_server, viewport: dict[str, int], who: str | None):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    if who is not None:
        client = Client()
        client.force_login(get_user_model().objects.get(username=who))
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
    return context


def _name(who: str | None, url: str) -> str:
    return f"{who or 'visitor'}{re.sub(r'[^a-z0-9]+', '-', url.lower())}".strip("-")[:100]


def _visit(page: Page, base: str, url: str) -> None:
    response = page.goto(base + url)
    assert response is not None
    assert response.status in (200, 404), (url, response.status)


def test_every_page_is_accessible_and_fits_a_phone(browser, live_server, demo, shot):
    """Each page is loaded once: axe-core at desktop width (no serious or critical violation),
    then the same page at 360 px: nothing reaches past the right edge, every tap target is at
    least 24 px each way (links in running text aside), no text is smaller than 0.8rem."""
    from axe_playwright_python.base import AXE_SCRIPT

    found: list[str] = []
    wide: list[str] = []
    small: list[str] = []  # tap targets under 24 px at phone width
    tiny: list[str] = []  # text under LEAST_TEXT_PX
    for who, urls in _pages().items():
        context = _context(browser, live_server, DESKTOP, who)
        # axe-core comes with every page the browser loads, instead of being sent into each.
        context.add_init_script(AXE_SCRIPT)
        page = context.new_page()
        for url in urls:
            page.set_viewport_size(DESKTOP)
            _visit(page, live_server.url, url)
            results = page.evaluate(AXE_RUN)
            assert results["testEngine"]["name"] == "axe-core"
            shot(page, _name(who, url))
            for v in results["violations"]:
                if v["impact"] in ("serious", "critical"):
                    targets = [n["target"] for n in v["nodes"][:3]]
                    found.append(f"{who} {url}: {v['id']} ({v['impact']}) {targets}")
            page.set_viewport_size(PHONE)
            scroll, inner = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert inner == PHONE["width"], inner
            if scroll > inner:
                culprits = page.evaluate(WIDE_ELEMENTS)
                wide.append(f"{who} {url}: {scroll} > {inner} {culprits}")
            small += [f"{who} {url}: {t}" for t in page.evaluate(SMALL_TARGETS)]
            size, where = page.evaluate(SMALLEST_TEXT)
            if size < LEAST_TEXT_PX:
                tiny.append(f"{who} {url}: {size}px {where}")
            shot(page, _name(who, url) + "-phone")
        context.close()
    assert found == [], "\n".join(found)
    assert wide == [], "\n".join(wide)
    assert small == [], "\n".join(small)
    assert tiny == [], "\n".join(tiny)


def test_cheat_sheet_tables_fit_a_phone_without_scrolling(browser, live_server, shot):
    """The "which cards to lead" column is on screen at 360 px, not in a scrolled-away strip."""
    context = _context(browser, live_server, PHONE, None)
    page = context.new_page()
    for convention in ("parlett-2008", "teach-yourself-1994"):
        page.goto(f"{live_server.url}/cheatsheet/?convention={convention}")
        widths = page.evaluate(
            "[...document.querySelectorAll('.sheet .table-wrap')]"
            ".map(w => [w.scrollWidth, w.clientWidth])"
        )
        assert widths and all(scroll <= client for scroll, client in widths), widths
        shot(page, f"cheatsheet-{convention}-phone")
    context.close()


def test_home_continue_for_student_and_visitor(browser, live_server, demo, shot):
    for who in (None, "student1", "teacher"):
        context = _context(browser, live_server, DESKTOP, who)
        page = context.new_page()
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(live_server.url + "/")
            button = page.locator("[data-continue]")
            if who is None:
                assert button.count() == 0
            else:
                assert button.count() == 1
                href = button.get_attribute("href")
                kind = button.get_attribute("data-continue")
                # student1 has an open assignment; the teacher has reviews due.
                assert kind == ("assignment" if who == "student1" else "review"), (who, kind)
                button.click()
                page.wait_for_load_state("load")
                assert page.url != live_server.url + "/", href
                page.goto(live_server.url + "/")
            shot(page, f"home-{who or 'visitor'}-{name}")
        context.close()


def test_focus_is_visible_on_links_and_buttons(page: Page, live_server):
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # the brand link
    outline = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth, s.boxShadow]; })()"
    )
    assert (outline[0] != "none" and outline[1] != "0px") or outline[2] != "none", outline


def test_the_demo_students_progress_page_is_short(browser, live_server, demo, shot):
    """Thirty-odd skills grouped by lesson and folded: a page to read, not a 7,000 px table."""
    heights = {}
    context = _context(browser, live_server, DESKTOP, "student1")
    page = context.new_page()
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.goto(live_server.url + "/progress/")
        assert page.locator("[data-today]").inner_text().count("answers") == 1
        assert page.locator("[data-lesson-group]").count() >= 3
        heights[name] = page.evaluate("document.documentElement.scrollHeight")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, f"progress-student1-{name}")
    context.close()
    # The level section (per drill kind: the level in words, the next family, the rating and a
    # sparkline) adds about 300 px, 750 on a phone.
    assert heights["desktop"] < 2900 and heights["phone"] < 4650, heights
