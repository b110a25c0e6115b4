"""A teacher sets two checklist drills, a student joins with the code and does them, and the
teacher sees the result on the dashboard and downloads it. Every class page is photographed at
desktop and phone widths, and the join and assignment forms are used with the keyboard alone."""

import csv
import io
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.accounts import sign_up
from trainer.classes.models import Assignment, ClassMembership, Classroom
from trainer.progress.models import Attempt

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def new_page(browser: Browser, viewport: dict[str, int], cookies=None) -> Page:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    if cookies:
        context.add_cookies(cookies)
    return context.new_page()


def fits_phone(page: Page) -> None:
    """Nothing on the page is wider than the phone's screen (names the culprits if so)."""
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > w + 0.5)
        .filter(el => !el.closest('.table-wrap'))
        .map(el => el.tagName + '.' + el.className).slice(0, 5)""",
        PHONE["width"],
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (page.url, wide)


def answer_checklist_drill(page: Page) -> None:
    expect(page.locator("#feedback .feedback")).to_have_count(0)  # a fresh drill, not graded
    expect(page.locator("#drill-area")).to_contain_text("Which checklist item")
    page.locator("input[name=option]").first.check()
    expect(page.locator("input[name=option]").first).to_be_checked()
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator("#feedback .feedback")).to_be_visible()


def test_teacher_sets_work_student_does_it_teacher_sees_it(
    live_server, browser: Browser, page: Page, phone_page: Page, shot
):
    base = live_server.url

    # The teacher signs up and creates a class.
    sign_up(page, base, "teacher_tess")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Classes").click()
    expect(page).to_have_url(base + "/classes/")
    shot(page, "class-list-empty")
    page.get_by_role("link", name="Create a class").click()
    shot(page, "class-create")
    page.get_by_label("Class name").fill("Tuesday beginners")
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tuesday beginners")
    code = page.locator(".join-code code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2}", code)

    # … and builds an assignment of two checklist drills on the spot.
    page.get_by_role("link", name="New assignment").click()
    page.get_by_label("Title").fill("Spot four of a kind")
    page.get_by_label("Spot the checklist item").check()
    page.get_by_label("Four of a kind").check()
    page.get_by_label("Drills of each kind and item").fill("2")
    shot(page, "assignment-form")
    page.get_by_role("button", name="Set assignment").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spot four of a kind")
    assert Assignment.objects.get().drills.count() == 2
    shot(page, "assignment-teacher-empty")
    page.get_by_role("link", name="Tuesday beginners").first.click()
    shot(page, "class-teacher")

    # A student signs up in another browser and joins with the code, typed loosely.
    student = new_page(browser, DESKTOP)
    try:
        sign_up(student, base, "student_sam")
        student.goto(base + "/classes/")
        student.get_by_label("Join code").fill(code.lower().replace("-", " "))
        student.get_by_role("button", name="Join class").click()
        expect(student.locator(".messages")).to_contain_text("You have joined “Tuesday beginners”")
        assert ClassMembership.objects.get(user__username="student_sam").role == "student"
        shot(student, "class-student")

        # Home lists the open assignment first (at phone width too) …
        student.set_viewport_size(PHONE)
        student.goto(base + "/")
        expect(student.locator(".open-assignments")).to_contain_text("Spot four of a kind")
        shot(student, "home-with-assignment-phone")
        fits_phone(student)
        student.set_viewport_size(DESKTOP)

        # … and Continue leads through both drills.
        student.get_by_role("link", name="Home").click()
        section = student.locator(".open-assignments")
        expect(section).to_contain_text("Spot four of a kind")
        expect(section).to_contain_text("0 of 2 drills")
        shot(student, "home-with-assignment")
        section.get_by_role("link", name=re.compile("^Continue")).click()
        expect(student).to_have_url(re.compile(r"/drills/checklist/\d+/\?items=fours"))
        answer_checklist_drill(student)
        shot(student, "drill-in-assignment")
        student.locator("#next-link").click()
        answer_checklist_drill(student)
        student.locator("#next-link").click()
        expect(student).to_have_url(re.compile(r"/classes/assignments/\d+/$"))
        expect(student.locator(".feedback.ok")).to_contain_text("All done")
        expect(student.locator(".progress-line")).to_contain_text("2 of 2 drills answered")
        shot(student, "assignment-student-done")
        assert Attempt.objects.filter(user__username="student_sam").count() == 2
        student_cookies = student.context.cookies()
    finally:
        student.context.close()

    # The teacher sees it on the dashboard and downloads the CSV.
    page.get_by_role("link", name="Dashboard").click()
    row = page.locator("tr", has=page.get_by_role("link", name="student_sam"))
    expect(row.locator("td").first).to_contain_text("2/2")
    shot(page, "dashboard")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download CSV").click()
    download = download_info.value
    assert download.suggested_filename == "tuesday-beginners-progress.csv"
    rows = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["student", "username", "joined"]
    assert rows[1][:2] == ["student_sam", "student_sam"]  # no name given: the username
    assert rows[1][3] == "2"

    page.get_by_role("link", name="student_sam").click()
    expect(page.locator(".history-table tbody tr")).to_have_count(2)
    shot(page, "student-detail")
    page.get_by_role("link", name="Mistakes only").click()
    expect(page.get_by_role("heading", name="Mistakes")).to_be_visible()
    page.goto(base + f"/classes/assignments/{Assignment.objects.get().pk}/")
    expect(page.locator("tbody")).to_contain_text("student_sam")
    shot(page, "assignment-teacher")

    # Every page at phone width: nothing wider than the screen.
    room = Classroom.objects.get()
    work = Assignment.objects.get()
    sam = ClassMembership.objects.get(user__username="student_sam").user_id
    phone_page.context.add_cookies(page.context.cookies())
    for name, path in [
        ("class-list", "/classes/"),
        ("class-create", "/classes/new/"),
        ("class-teacher", f"/classes/{room.pk}/"),
        ("dashboard", f"/classes/{room.pk}/dashboard/"),
        ("student-detail", f"/classes/{room.pk}/students/{sam}/"),
        ("assignment-form", f"/classes/{room.pk}/assignments/new/"),
        ("assignment-teacher", f"/classes/assignments/{work.pk}/"),
    ]:
        phone_page.goto(base + path)
        shot(phone_page, f"{name}-phone")
        fits_phone(phone_page)

    student_phone = new_page(browser, PHONE, student_cookies)
    try:
        for name, path in [
            ("home", "/"),
            ("class-student", f"/classes/{room.pk}/"),
            ("assignment-student", f"/classes/assignments/{work.pk}/"),
            ("join", "/classes/join/"),
            ("join-link", room.join_path),
        ]:
            student_phone.goto(base + path)
            shot(student_phone, f"student-{name}-phone")
            fits_phone(student_phone)
    finally:
        student_phone.context.close()


def test_join_and_set_work_with_the_keyboard_alone(live_server, browser: Browser, page: Page, shot):
    base = live_server.url
    sign_up(page, base, "keyboard_teacher")
    page.goto(base + "/classes/new/")
    page.get_by_label("Class name").focus()
    page.keyboard.type("Keys only")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Keys only")
    code = page.locator(".join-code code").inner_text()

    # The assignment form: tab to the first kind, tick it with Space, and submit with Enter.
    page.get_by_role("link", name="New assignment").focus()
    page.keyboard.press("Enter")
    page.get_by_label("Title").focus()
    page.keyboard.type("Keyboard work")
    kinds = page.locator("input[name=kinds]")
    page.keyboard.press("Tab")  # the due date
    for _ in range(20):
        page.keyboard.press("Tab")
        if kinds.first.evaluate("el => el === document.activeElement"):
            break
    expect(kinds.first).to_be_focused()
    outline = kinds.first.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline != "none"  # the focus ring shows
    shot(page, "kind-focused")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the second kind in learning order: checklist
    expect(page.get_by_label("Spot the checklist item")).to_be_checked()
    page.get_by_label("Title").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Keyboard work")

    # A student joins by tabbing from the skip link to the join form.
    student = new_page(browser, DESKTOP)
    try:
        sign_up(student, base, "keyboard_student")
        room = Classroom.objects.get(name="Keys only")
        student.goto(base + room.join_path)
        expect(student.get_by_role("button", name="Join Keys only")).to_be_visible()
        shot(student, "join-link")
        student.set_viewport_size(PHONE)
        shot(student, "join-link-phone")
        fits_phone(student)
        student.set_viewport_size(DESKTOP)
        student.goto(base + "/classes/join/")
        student.keyboard.press("Tab")
        expect(student.get_by_role("link", name="Skip to content")).to_be_focused()
        student.keyboard.press("Enter")
        for _ in range(10):
            student.keyboard.press("Tab")
            if student.get_by_label("Join code").evaluate("el => el === document.activeElement"):
                break
        expect(student.get_by_label("Join code")).to_be_focused()
        student.keyboard.type(code)
        shot(student, "join-typed")
        student.keyboard.press("Enter")
        expect(student.get_by_role("heading", level=1)).to_have_text("Keys only")
        student.keyboard.press("Tab")
        expect(student.get_by_role("link", name="Skip to content")).to_be_focused()
    finally:
        student.context.close()
    assert ClassMembership.objects.filter(user__username="keyboard_student").exists()
