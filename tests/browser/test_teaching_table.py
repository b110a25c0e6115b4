"""Teaching tables in Chromium: a teacher finds boards, saves a set and deals it to the class;
two pairs, each in browser contexts of their own, play board 1 at their tables; the teacher
pauses one table, shows North's hand, takes the hand back and goes on, with the keyboard alone,
and the players' open pages follow every step over their sockets. The other pair's table is
untouched, and no page or frame showed North's cards to the others before the teacher did."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from engine.seats import Seat
from tests.browser.accessibility import axe_violations
from tests.browser.test_live_tables import TABLE, people, server  # noqa: F401  (fixtures)
from tests.trainer.classes.factories import classroom, student_in
from tests.trainer.play.conftest import leaks
from trainer.duplicate.models import ClubSession, SessionPlay
from trainer.play.live_services import live_bots_finish
from trainer.play.models import LiveTable
from trainer.teaching.models import BoardSet

PHONE = {"width": 360, "height": 740}


def _on_a_phone(page: Page, shot, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page's address photographed again at 360 px, in a new tab of the same context."""
    phone = page.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(page.url)
    shot(phone, name)
    phone.close()


def _press(page: Page, name: str) -> None:
    """A button reached and pressed with the keyboard alone (the locator finds it afresh, so
    a socket frame that redraws the table just then cannot swallow the key)."""
    page.get_by_role("button", name=name).press("Enter")


def test_a_teacher_deals_a_set_and_pauses_shows_and_takes_back_a_table(people, server, shot):  # noqa: F811
    teacher, ann, bob, cat, dan = (people(n) for n in ("teacher", "ann", "bob", "cat", "dan"))
    users = {p.name: get_user_model().objects.get(username=p.name) for p in (teacher, ann, bob)}
    room = classroom(users["teacher"], name="Thursday class")
    for p in (ann, bob, cat, dan):
        student_in(room, get_user_model().objects.get(username=p.name))
    base = server.url

    # The search, a set of two boards, the set's page.
    page = teacher.page
    page.goto(f"{base}/classes/{room.pk}/boards/")
    page.get_by_label("First item it holds").select_option("four_sf")
    page.locator("input[name=count]").fill("3")
    page.get_by_role("button", name="Find boards").click()
    expect(page.locator("input[name=picks]")).to_have_count(3)
    shot(page, "search")
    page.locator("input[name=picks]").nth(0).check()
    page.locator("input[name=picks]").nth(2).check()
    page.get_by_label("Name of the set").fill("Four to a straight flush")
    page.get_by_role("button", name="Save the boards picked as a set").click()
    expect(page.get_by_role("heading", name="Board 2")).to_be_visible()
    assert axe_violations(page) == []
    shot(page, "set")
    _on_a_phone(page, shot, "set-phone")

    # Dealt to the class as a daylong.
    closes = timezone.localtime() + timedelta(hours=2)
    page.get_by_label("Title").fill("Straight flush practice")
    page.get_by_label("Closes (daylong)").fill(closes.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Deal the set").click()
    expect(page.get_by_role("heading", name="Straight flush practice")).to_be_visible()
    session = ClubSession.objects.get()
    board_set = BoardSet.objects.get()
    assert session.board(1).seed == board_set.boards.get(number=1).seed
    url = f"{base}/sessions/{session.pk}/"

    # Two pairs enter and sit down at board 1, each pair at its own table.
    for member, partner in ((ann, bob), (cat, dan)):
        member.page.goto(url)
        member.page.locator("select[name=partner]").select_option(label=partner.name)
        member.page.get_by_role("button", name="Enter the session").click()
        partner.page.goto(url)
        partner.page.get_by_role("button", name="Accept").click()
        member.page.goto(url)
        member.page.get_by_role("button", name="Play board 1").click()
        member.page.wait_for_url(re.compile(r".*/play/tables/\d+/$"))
        expect(member.page.locator(TABLE)).to_have_attribute("data-status", "playing")
        partner.page.goto(member.page.url)
    ann_table = SessionPlay.objects.get(entry__player=users["ann"], board=1).live
    cat_table = SessionPlay.objects.get(entry__player__username="cat", board=1).live
    assert ann_table.supervisor == users["teacher"]

    # The teacher opens Ann's table and pauses it with the keyboard; both players see it.
    page.goto(f"{base}/play/tables/{ann_table.pk}/")
    expect(page.locator("[data-watcher]")).to_be_visible()
    _press(page, "Pause the table")
    expect(page.locator("[data-paused]")).to_be_visible(timeout=15_000)
    for p in (ann, bob):
        expect(p.page.locator("[data-paused]")).to_contain_text(
            "Paused by your teacher.", timeout=15_000
        )
    shot(ann.page, "paused")
    north = set(_north_cards(ann_table))
    seen_before = [*ann.frames, *(body for _, body in ann.bodies)]
    assert not any(leaks(text, north) for text in seen_before)

    # North's hand, shown to the table.
    page.locator("select[name=seat]").select_option("N")
    _press(page, "Show this hand to the table")
    expect(page.locator('[data-shown-hand="N"]')).to_be_visible(timeout=15_000)
    for p in (ann, bob):
        expect(p.page.locator('[data-shown-hand="N"]')).to_be_visible(timeout=15_000)
    shot(ann.page, "north-shown")
    shot(page, "teacher-controls")
    _on_a_phone(page, shot, "teacher-controls-phone")

    # Go on, one move, then the hand taken back: the players see the moves taken.
    _press(page, "Go on")
    expect(ann.page.locator("[data-paused]")).to_have_count(0)
    ann_table.refresh_from_db()
    mover = ann if _to_move(ann_table) is Seat.S else bob
    if _to_move(ann_table) in (Seat.S, Seat.N):
        version = mover.version()
        mover.page.locator(f"{TABLE} .live-actions button").first.click()
        expect(mover.page.locator(TABLE)).not_to_have_attribute("data-version", str(version))
    _press(page, "Take back this hand")
    expect(ann.page.locator("[data-taken-back]")).to_be_visible()
    _press(page, "Go on")
    expect(bob.page.locator("[data-paused]")).to_have_count(0)

    # The other pair's table never paused, and the record keeps the teaching.
    cat_table.refresh_from_db()
    assert not cat_table.paused and cat_table.game.teaching == []
    ann_table.refresh_from_db()
    kinds = [e["kind"] for e in ann_table.game.teaching]
    assert kinds[:3] == ["pause", "show", "resume"] and "take_back" in kinds

    # Both boards end (the bots finish them), the session closes; Ann reads her pair's review
    # and the teacher compares the pairs.
    for table, host in ((ann_table, users["ann"]), (cat_table, cat_table.host)):
        live_bots_finish(pk=table.pk, by=host)
    now = timezone.now()  # (after both results: they count)
    ClubSession.objects.filter(pk=session.pk).update(
        opens_at=now - timedelta(hours=2), closes_at=now
    )
    ann.page.goto(f"{base}/play/tables/{ann_table.pk}/")
    ann.page.get_by_role("link", name="The review").click()
    expect(ann.page.locator("[data-pair-review]")).to_be_visible()
    expect(ann.page.locator("[data-teaching-log]")).to_contain_text("cards were shown")
    assert axe_violations(ann.page) == []
    shot(ann.page, "pair-review")
    page.goto(url)
    page.get_by_role("link", name="The pairs compared").click()
    expect(page.locator("[data-compare] tbody tr")).to_have_count(2)
    assert axe_violations(page) == []
    shot(page, "compare")
    _on_a_phone(page, shot, "compare-phone")


def _north_cards(table: LiveTable):
    from tests.trainer.teaching.test_teaching_tables import _engine

    return _engine(table).deal.held(Seat.N)


def _to_move(table: LiveTable) -> Seat | None:
    from tests.trainer.teaching.test_teaching_tables import _engine

    return _engine(table).to_move()
