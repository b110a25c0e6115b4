"""A live table without JavaScript: a player waiting for the others is told the page reloads
itself, and it does, until it is their turn; at 360 px too."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, expect

from engine.seats import Seat
from tests.browser.layout import assert_fits
from tests.trainer.play.test_live import engine_of, person, seated_table
from trainer.play import live

pytestmark = pytest.mark.django_db(transaction=True)


def _page_of(browser: Browser, live_server, user, width: int):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": width, "height": 800}
    )
    client = Client()
    client.force_login(user)
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


@pytest.mark.parametrize("width", [1280, 360])
def test_a_waiting_player_without_javascript_is_told_and_the_page_reloads(
    browser: Browser, live_server, shot, width
):
    ana, ben = person(f"nsa{width}"), person(f"nsb{width}")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    table.refresh_from_db()
    waiter = ben if engine_of(table).to_move() == Seat.S else ana

    page = _page_of(browser, live_server, waiter, width)
    page.goto(f"{live_server.url}/play/tables/{table.pk}/")
    notice = page.locator("[data-reload-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("reloads itself every 10 seconds")
    assert_fits(page)
    shot(page, f"waiting-no-script-{width}")
    if width == 1280:  # (once is enough to see the <noscript> refresh work)
        with page.expect_navigation(timeout=15_000):
            pass
        expect(page.locator("[data-reload-notice]")).to_be_visible()
    page.context.close()
