"""The trainer in Japanese, end to end: a visitor whose browser prefers Japanese signs up,
answers a drill of each kind, reads a lesson, plays a hand at the table, switches to English
and back with the footer's switcher; screenshots at desktop and phone (360 px) width."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from engine.drills import KINDS, DrillAddress, DrillParams, make_drill
from tests.browser.accounts import PASSWORD
from tests.browser.layout import assert_fits
from tests.browser.test_play import CARD, _wait_for_turn, _wait_for_version
from trainer.core.links import drill_url
from trainer.core.seeding import discover_loaders, load_file
from trainer.drills.curation import right_answer

SEEDS = settings.BASE_DIR / "seeds"
DESKTOP = {"width": 1280, "height": 900}
NARROW = {"width": 360, "height": 740}


@pytest.fixture
def seeded(transactional_db):
    discover_loaders()
    for path in [
        *sorted(SEEDS.glob("onboarding/*.yaml")),
        *sorted(SEEDS.glob("lessons/*.md")),
        *sorted(SEEDS.glob("lessons/ja/*.md")),
    ]:
        load_file(path)


def _context_page(browser: Browser, viewport: dict[str, int]) -> Page:
    # locale: Chromium sends Accept-Language: ja-JP and lays out Japanese text.
    context = browser.new_context(viewport=viewport, locale="ja-JP", reduced_motion="reduce")
    context.set_default_timeout(15_000)
    return context.new_page()


def _both(page: Page, shot, name: str) -> None:
    """Screenshots of the page at desktop width and at 360 px, where it is checked to fit: the
    same page made narrow, so a page reached by a form is seen in the state it was reached in."""
    shot(page, f"{name}-desktop")
    page.set_viewport_size(NARROW)
    try:
        assert_fits(page)
        shot(page, f"{name}-360")
    finally:
        page.set_viewport_size(DESKTOP)


def _answer(page: Page, base: str, kind: str, seed: int) -> None:
    drill = make_drill(kind, seed, DrillParams())
    page.goto(base + drill_url(DrillAddress(kind, seed, DrillParams())))
    page.wait_for_load_state("load")
    answer = right_answer(drill)
    if kind == "lead":
        c1, c2 = answer.play
        page.locator(f'button[name="c1"][value="{c1}"]').click()
        expect(page.locator("#step")).to_contain_text("1枚目")
        if c2 is None:
            page.locator('button[name="c2"][value="pass"]').click()
        else:
            page.locator(f'button[name="c2"][value="{c2}"]').click()
    else:
        index = [o.key for o in drill.options].index(answer.option) + 1
        page.keyboard.press(str(index))
        page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_contain_text("正解です。")


def test_cjk_fonts_are_installed():
    fonts = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, check=False)
    assert "Noto Sans CJK" in fonts.stdout, "install fonts-noto-cjk (make cjk-fonts)"


def test_a_japanese_visitor_signs_up_drills_reads_plays_and_switches(
    live_server, browser: Browser, seeded, shot
):
    base = live_server.url
    page = _context_page(browser, DESKTOP)

    page.goto(base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "パートナーのシグナルを一目で読み取りましょう。"
    )
    _both(page, shot, "home-visitor")

    page.get_by_role("link", name="新規登録").first.click()
    page.locator("input[name=username]").fill("hanako")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("form.form button[type=submit]").click()
    expect(page).to_have_url(base + "/start/")
    expect(page.get_by_role("heading", level=1)).to_have_text("あなたのコース")
    _both(page, shot, "start-here")

    for n, kind in enumerate(KINDS):
        page.goto(base + "/drills/")
        _answer(page, base, kind, 11 + n)
        _both(page, shot, f"drill-{kind}")

    page.goto(base + "/learn/")
    expect(page.get_by_role("heading", level=1)).not_to_contain_text("Learn")
    page.locator("main a[href^='/learn/the-game/']").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("[\u3040-\u30ff]"))
    _both(page, shot, "lesson")

    page.goto(base + "/play/")
    # The strong partner is offered first, chosen, and named in Japanese.
    strong = page.locator("input[name=partner][value=strong]")
    expect(strong).to_be_checked()
    expect(page.locator("label", has=strong)).to_contain_text("強い")
    _both(page, shot, "play-start")
    page.locator("form[data-start] button[type=submit]").click()
    expect(page.locator("#table-area")).to_be_visible()
    # Play on until the first hand is complete (the table moves to its next hand, or the
    # deal ends): South plays its highlighted card, or passes when that is all it can do.
    for _move in range(12):
        if page.locator("[data-result], [data-hand='1']").count():
            break
        _wait_for_turn(page)
        if page.locator("[data-result], [data-hand='1']").count():
            break
        version = page.locator("#table-area").get_attribute("data-version")
        if page.locator(CARD).count():
            page.keyboard.press("Enter")
        else:
            page.locator('button[data-action="pass"]').click()
        _wait_for_version(page, version)
    assert page.locator("[data-result], [data-hand='1']").count(), "a whole hand was played"
    _both(page, shot, "play-table")

    page.goto(base + "/progress/")
    _both(page, shot, "progress")
    page.locator("#language-select").select_option("en")
    page.locator(".language-form button[type=submit]").click()
    expect(page).to_have_url(base + "/progress/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your progress")
    shot(page, "progress-english")
    # Keyboard only: focus the select, choose 日本語, submit with the button.
    page.locator("#language-select").focus()
    page.keyboard.press(
        "ArrowDown" if page.locator("#language-select").input_value() == "en" else "ArrowUp"
    )
    page.locator(".language-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("heading", level=1)).to_have_text("あなたの進み具合")
    # Saved with the account: a fresh English browser signed in as the same user gets Japanese.
    english = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    english.goto(base + "/accounts/login/")
    english.locator("input[name=username]").fill("hanako")
    english.locator("input[name=password]").fill(PASSWORD)
    english.locator("input[name=password]").press("Enter")
    expect(english.locator("html")).to_have_attribute("lang", "ja")
    for p in (page, english):
        p.context.close()


def test_an_organiser_founds_a_club_whose_members_see_japanese(
    live_server, browser: Browser, django_user_model, shot
):
    base = live_server.url
    django_user_model.objects.create_user("olive", password=PASSWORD)
    django_user_model.objects.create_user("ben", password=PASSWORD)
    page = _context_page(browser, DESKTOP)
    page.goto(base + "/accounts/login/?next=/clubs/new/")
    page.locator("input[name=username]").fill("olive")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("クラブを作る")
    page.locator("input[name=name]").fill("川辺クラブ")
    page.locator("#id_language").select_option("ja")
    _both(page, shot, "club-form")
    page.locator("form.form button[type=submit]").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("川辺クラブ")
    expect(page.locator(".club-rules")).to_contain_text("日本語")
    _both(page, shot, "club-detail-organiser")
    invite = page.locator("#invite-link").input_value()

    # A member whose browser asks for English: the club's default language wins.
    member = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    member.goto(base + "/accounts/login/")
    member.locator("input[name=username]").fill("ben")
    member.locator("input[name=password]").fill(PASSWORD)
    member.locator("input[name=password]").press("Enter")
    expect(member.locator("html")).to_have_attribute("lang", "en")
    member.goto(invite)
    member.get_by_role("button", name="Join 川辺クラブ").click()
    # The default applies from the member's next sign-in.
    member.context.clear_cookies()
    member.goto(base + "/accounts/login/")
    member.locator("input[name=username]").fill("ben")
    member.locator("input[name=password]").fill(PASSWORD)
    member.locator("input[name=password]").press("Enter")
    expect(member.locator("html")).to_have_attribute("lang", "ja")
    shot(member, "member-home-after-joining")
    for p in (page, member):
        p.context.close()


def test_a_teacher_sets_the_class_language_from_the_class_page(
    live_server, browser: Browser, django_user_model, shot
):
    from trainer.classes import services as class_services

    teacher = django_user_model.objects.create_user("theo", password=PASSWORD)
    classroom = class_services.classroom_create(name="火曜クラス", teacher=teacher)
    page = _context_page(browser, DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/?next=/classes/{classroom.pk}/")
    page.locator("input[name=username]").fill("theo")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    expect(page.get_by_role("heading", level=2, name="生徒の言語")).to_be_visible()
    page.locator("#id_class_language").select_option("ja")
    page.get_by_role("button", name="言語を保存").click()
    expect(page.locator(".messages")).to_contain_text("言語を選んでいないこのクラスの生徒")
    expect(page.locator("#id_class_language")).to_have_value("ja")
    _both(page, shot, "class-teacher")
    page.context.close()


def test_teacher_and_organiser_pages_fit_in_japanese(live_server, browser: Browser, shot):
    from django.core.management import call_command
    from django.test import override_settings

    from trainer.classes.models import Classroom

    with override_settings(TRAINER_DEMO_DATA=True):
        call_command("seed", verbosity=0)
    room = Classroom.objects.get()
    student = room.memberships.filter(role="student").order_by("pk").first().user_id
    pages = {
        "teacher": [
            ("class-dashboard", f"/classes/{room.pk}/dashboard/"),
            ("class-student", f"/classes/{room.pk}/students/{student}/"),
            ("assignment-new", f"/classes/{room.pk}/assignments/new/"),
        ],
        "organiser": [("club-members", "/clubs/riverside/members/")],
        "student1": [("student-home", "/"), ("student-progress", "/progress/")],
    }
    for username, urls in pages.items():
        page = _context_page(browser, DESKTOP)
        page.goto(live_server.url + "/accounts/login/")
        page.locator("input[name=username]").fill(username)
        page.locator("input[name=password]").fill("concerto-demo")
        page.locator("input[name=password]").press("Enter")
        expect(page.locator(".account-nav")).to_contain_text(username)
        for name, url in urls:
            page.goto(live_server.url + url)
            expect(page.locator("html")).to_have_attribute("lang", "ja")
            _both(page, shot, name)
        page.context.close()
