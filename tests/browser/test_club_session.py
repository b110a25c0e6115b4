"""A live club session in browsers: four members and a director, each in a browser context of
their own. A partnership is asked and accepted, the pairs check in, the director starts the
session and a round, every player's page sends them to their own table and seat, the director
has the bots finish the late boards and closes; then the ranking and the travellers appear.
Until the close, nothing any of them received (pages, fragments, WebSocket frames) holds the
session's seed, a board's seed, or a traveller."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from engine.duplicate.session import session_board
from tests.browser.test_live_tables import TABLE, people, server  # noqa: F401  (fixtures)
from tests.trainer.clubs.factories import club, join
from trainer.duplicate import services
from trainer.duplicate.models import ClubSession, SessionTable

PHONE = {"width": 360, "height": 740}


def test_a_live_session_seats_every_pair_and_ranks_them_after_the_close(people, server, shot):  # noqa: F811
    director, ann, bob, cat, dan = (people(n) for n in ("director", "ann", "bob", "cat", "dan"))
    users = {
        p.name: get_user_model().objects.get(username=p.name)
        for p in (director, ann, bob, cat, dan)
    }
    the_club = club(users["director"])
    for name in ("ann", "bob", "cat", "dan"):
        join(the_club, users[name])
    session = services.session_create(
        user=users["director"],
        club=the_club,
        title="Tuesday night",
        boards=0,
        kind=ClubSession.Kind.LIVE,
        opens_at=timezone.now() - timedelta(minutes=1),
        per_round=1,
    )
    base = server.url
    url = f"{base}/sessions/{session.pk}/"

    # Ann asks Bob to partner her; Bob accepts; Cat and Dan enter alone.
    ann.page.goto(url)
    ann.page.locator("select[name=partner]").select_option(label="bob")
    ann.page.get_by_role("button", name="Enter the session").click()
    expect(ann.page.get_by_text("Waiting for bob to confirm")).to_be_visible()
    bob.page.goto(url)
    bob.page.get_by_role("button", name="Accept").click()
    expect(bob.page.get_by_text("ann and bob.")).to_be_visible()
    for p in (cat, dan):
        p.page.goto(url)
        p.page.get_by_role("button", name="Enter the session").click()
    # Checking in with the keyboard alone.
    for p in (ann, cat, dan):
        p.page.goto(url)
        button = p.page.get_by_role("button", name="I am here")
        button.focus()
        p.page.keyboard.press("Enter")
        expect(p.page.get_by_text("You are checked in.")).to_be_visible()

    # The director starts the session and round 1.
    director.page.goto(f"{url}director/")
    expect(director.page.get_by_text("3 pairs are here.")).to_be_visible()
    director.page.get_by_role("button", name="Start the session with the pairs here").click()
    director.page.get_by_role("button", name="Start round 1").click()
    expect(director.page.get_by_text("Round 1 of 3.")).to_be_visible()
    shot(director.page, "director-round-1")

    # Every player's page names their table and seat and opens it.
    for p in (ann, bob, cat, dan):
        p.page.goto(url)
        where = p.page.locator(".session-where")
        expect(where).to_contain_text(re.compile(r"Round 1: table \d, (North–South|East–West)"))
        p.page.get_by_role("link", name="Play board 1").click()
        p.page.wait_for_url(re.compile(r".*/play/tables/\d+/$"))
        expect(p.page.locator(TABLE)).to_have_attribute("data-status", "playing")
        seat = p.page.locator(TABLE).get_attribute("data-my-seat")
        direction = "North–South" if seat in ("N", "S") else "East–West"
        p.page.goto(url)
        expect(p.page.locator(".session-where")).to_contain_text(direction)
    phone = ann.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(url)
    shot(phone, "pair-round-1-phone")
    phone.close()

    # The director has the bots finish the late boards, round after round, then closes. Ann
    # keeps her session page open: it moves her to round 2 by itself, without a reload.
    ann.page.goto(url)
    ann.page.evaluate("window.__notReloaded = true")
    late = re.compile("Bots finish this board")
    for number in (1, 2, 3):
        director.page.goto(f"{url}director/")
        expect(director.page.get_by_text(f"Round {number} of 3.")).to_be_visible()
        buttons = director.page.get_by_role("button", name=late)
        for left in range(buttons.count(), 0, -1):
            buttons.first.click()  # the page reloads with one button fewer
            expect(buttons).to_have_count(left - 1)
        if number < 3:
            director.page.get_by_role("button", name=f"Start round {number + 1}").click()
            expect(director.page.get_by_text(f"Round {number + 1} of 3.")).to_be_visible()
        if number == 1:
            expect(ann.page.locator("#session-pair")).to_contain_text(
                re.compile("Round 2: table|sits this round out"), timeout=25_000
            )
            assert ann.page.evaluate("window.__notReloaded === true")
    assert not SessionTable.objects.filter(session=session, finished_at__isnull=True).exists()
    before_close = {p.name: (list(p.frames), list(p.bodies)) for p in (ann, bob, cat, dan)}
    director.page.get_by_role("button", name="Close the session").click()

    ann.page.goto(url)
    expect(ann.page.get_by_role("heading", name="Ranking")).to_be_visible()
    expect(ann.page.locator(".session-ranking tbody tr")).to_have_count(3)
    shot(ann.page, "results")
    ann.page.get_by_role("link", name="Board 1", exact=True).first.click()
    expect(ann.page.locator(".traveller tbody tr")).to_have_count(2)
    shot(ann.page, "traveller")

    session.refresh_from_db()
    secrets = {str(session.seed)} | {
        str(session_board(session.seed, b).seed) for b in range(1, session.boards + 1)
    }
    for name, (frames, bodies) in before_close.items():
        for text in frames + [body for _, body in bodies]:
            for secret in secrets:
                assert secret not in text, f"{name} received a seed before the close"
        assert not any("/boards/" in u and "/play/" not in u for u, _ in bodies)
