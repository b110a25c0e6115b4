"""A live table's page without JavaScript: it reloads itself while its player waits, not on
their turn or once the deal is over; the seat's bot button says what it will do."""

from __future__ import annotations

import re

import pytest

from engine.seats import Seat
from tests.trainer.play.test_live import client_of, engine_of, person, seated_table
from trainer.play import live

pytestmark = pytest.mark.django_db
REFRESH = re.compile(r'<noscript><meta http-equiv="refresh" content="(\d+)"></noscript>')


def _page(user, table) -> str:
    return client_of(user).get(f"/play/tables/{table.pk}/").text


def test_a_waiting_player_gets_a_reload_without_javascript_and_a_player_to_move_does_not():
    ana, ben = person("wana"), person("wben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    before = _page(ana, table)
    assert REFRESH.search(before) and "data-reload-notice" in before  # the deal not begun

    live.live_begin(pk=table.pk, by=ana)
    table.refresh_from_db()
    to_move = engine_of(table).to_move()
    mover, waiter = (ana, ben) if to_move == Seat.S else (ben, ana)
    assert to_move in (Seat.S, Seat.N)  # the bots stop at the first person's turn

    waiting = _page(waiter, table)
    moving = _page(mover, table)

    assert REFRESH.search(waiting) and "data-reload-notice" in waiting
    assert not REFRESH.search(moving) and "data-reload-notice" not in moving


def test_a_finished_deal_does_not_reload():
    ana = person("wcy")
    table = seated_table((ana, Seat.S))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=ana, away=True)  # the bots finish the deal
    page = _page(ana, table)
    assert "The deal is over." in page and not REFRESH.search(page)


def test_the_bot_button_names_what_it_does_in_each_state():
    ana = person("wdi")
    table = seated_table((ana, Seat.S), (person("wed"), Seat.N))
    live.live_begin(pk=table.pk, by=ana)

    here = _page(ana, table)
    assert re.search(r'data-away="0">Let a bot play my seat</button>', here)
    assert "data-away-status" not in here

    client_of(ana).post(f"/play/tables/{table.pk}/away/", {"away": "1"})
    away = _page(ana, table)
    assert re.search(r'data-away="1">Take my seat back</button>', away)
    assert "A bot is playing your seat until you take it back." in away
