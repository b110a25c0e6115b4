"""A table that does not wait for ever, in browsers: three people play; the one due to move
closes their page; the others see who is gone and, once the wait runs out (the page asks for
the table again by itself), one of them hands the seat to a bot; the player comes back and
takes the seat back. The host lets teachers watch, and the players see the watcher by name.
Photographed at desktop and 360 px, in English and Japanese; the buttons work by keyboard."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from engine.seats import Seat
from tests.browser import test_live_tables
from tests.browser.asgi_servers import AsgiServer, served_database, session_cookie
from tests.browser.layout import assert_fits
from tests.browser.test_live_tables import (
    DESKTOP,
    PHONE,
    TABLE,
    Player,
    _begin,
    _join,
    _open_table,
    _settle,
)

#: People, each in a browser context of their own, signed in on this module's server.
people = test_live_tables.people


@pytest.fixture
def server(transactional_db, tmp_path: Path) -> Iterator[AsgiServer]:
    """The site with a short wait for a player who has gone (3 s, not 60)."""
    with (
        served_database(tmp_path) as url,
        AsgiServer(url, tmp_path, name="presence", LIVE_GRACE_SECONDS="3") as running,
    ):
        yield running
        log = running.log()
    if "Traceback" in log:
        pytest.fail(f"the server logged an error:\n{log[-4000:]}")


def _play_until(players: list[Player], seat: Seat) -> None:
    """Whoever is to move plays a legal action until it is ``seat``'s turn."""
    for _ in range(60):
        _settle(players)
        to_move = players[0].to_move()
        if to_move == str(seat):
            return
        (mover,) = [p for p in players if str(p.seat) == to_move]
        version = mover.version()
        mover.page.locator(f"{TABLE} [data-action]").first.click()
        for p in players:
            p.wait_past(version)
    raise AssertionError(f"never {seat}'s turn")


def _shoot_both_sizes(player: Player, shot, name: str) -> None:
    shot(player.page, f"{name}-desktop")
    player.page.set_viewport_size(PHONE)
    shot(player.page, f"{name}-phone")
    assert_fits(player.page)
    player.page.set_viewport_size(DESKTOP)


def test_a_player_gone_on_their_turn_is_handed_to_a_bot_and_takes_the_seat_back(
    server: AsgiServer, people: Callable[[str], Player], browser: Browser, shot
):
    base = server.url
    host, north, west = people("ana"), people("ben"), people("cy")
    _pk, invite = _open_table(host, base)
    _join(north, invite, Seat.N)
    _join(west, invite, Seat.W)
    players = [host, north, west]
    for p in players:
        p.wait_live()
    _begin(host, [north, west])
    _play_until(players, Seat.N)

    north.page.close()  # Ben goes: his last socket closes
    stall = f"{TABLE} [data-stalled='N']"
    for p in (host, west):
        expect(p.page.locator(stall)).to_be_visible()
        expect(p.page.locator(f"{TABLE} [data-seat-line='N'] [data-connected]")).to_have_attribute(
            "data-connected", "0"
        )
    # The host may hand the seat over at once; Cy waits out the grace, and the page asks for
    # the table again by itself when it has passed.
    expect(host.page.locator(f"{TABLE} [data-hand-over='N']")).to_be_visible()
    expect(west.page.locator(stall)).to_contain_text("Ben")
    expect(west.page.locator(f"{TABLE} [data-hand-over='N']")).to_be_visible(timeout=15_000)
    _shoot_both_sizes(west, shot, "W-may-hand-over")
    west.page.context.add_cookies([{"name": "django_language", "value": "ja", "url": base}])
    west.page.reload()
    expect(west.page.locator(f"{TABLE} [data-hand-over='N']")).to_contain_text("北")
    _shoot_both_sizes(west, shot, "W-may-hand-over-ja")
    west.page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    west.page.reload()

    # By keyboard: Cy tabs to the button and presses Enter.
    version = west.version()
    button = west.page.locator(f"{TABLE} [data-hand-over='N']")
    button.focus()
    with west.page.expect_navigation():
        west.page.keyboard.press("Enter")
    for p in (host, west):
        p.wait_past(version)
        expect(p.page.locator(stall)).to_have_count(0)
        expect(p.page.locator(f"{TABLE} [data-seat-line='N']")).to_contain_text("(a bot plays")
    assert west.to_move() != "N"  # the bot played North's turn

    # Ben comes back (a new page) and takes his seat back.
    north.page = north.context.new_page()
    north.page.goto(f"{base}/play/tables/{_pk}/")
    # One button whose words say what it does now: take the seat back, then hand it again.
    expect(north.page.locator("[data-away]")).to_have_text("Take my seat back")
    expect(north.page.locator("[data-away-status]")).to_be_visible()
    _shoot_both_sizes(north, shot, "N-back")
    north.page.locator("[data-away]").click()
    north.page.wait_for_url(re.compile(r".*/play/tables/\d+/$"))
    expect(north.page.locator("[data-away]")).to_have_text("Let a bot play my seat")
    expect(north.page.locator("[data-away-status]")).to_have_count(0)
    for p in (host, west):
        expect(p.page.locator(f"{TABLE} [data-seat-line='N']")).not_to_contain_text("(a bot plays")


def test_the_host_lets_teachers_watch_and_the_players_see_who(
    server: AsgiServer, people: Callable[[str], Player], browser: Browser, shot
):
    from tests.trainer.classes import factories as classes
    from trainer.classes.models import ClassMembership

    base = server.url
    host, north = people("dora"), people("eli")
    room = classes.classroom()
    teacher_user = classes.teacher_of(room)
    teacher_user.first_name, teacher_user.last_name = "Tess", "Quill"
    teacher_user.save()
    ClassMembership.objects.create(classroom=room, user=host_user(host), role="student")
    pk, invite = _open_table(host, base)
    north.page.goto(invite)
    expect(north.page.locator("[data-join-watched]")).to_have_count(0)
    # The host lets teachers watch: the invitation says so before anyone sits down.
    host.page.locator("[data-watchable-toggle]").click()
    expect(host.page.locator("[data-watchable='1']")).to_be_visible()
    _shoot_both_sizes(host, shot, "host-watchable")
    north.page.reload()
    expect(north.page.locator("[data-join-watched]")).to_be_visible()
    _shoot_both_sizes(north, shot, "join-watched")
    _join(north, invite, Seat.N)
    for p in (host, north):
        p.wait_live()
    _begin(host, [north])

    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "sessionid", "value": session_cookie(teacher_user), "url": base}])
    watching = context.new_page()
    watching.goto(f"{base}/play/tables/{pk}/")
    expect(watching.locator(f"{TABLE}[data-watching]")).to_be_visible()
    for p in (host, north):
        expect(p.page.locator(f"{TABLE} [data-watched]")).to_contain_text("Tess Q.")
    _shoot_both_sizes(north, shot, "N-watched")
    context.close()


def host_user(player: Player):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=player.name)
