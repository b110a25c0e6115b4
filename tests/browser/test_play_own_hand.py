"""The coach's line about the learner's own hand at the solo table: a whole deal played at a
pace (the bots' moves shown one by one), and after each hand South led, the table stops on
that hand with what partner reads from South's signal, before the bots play on; also when
South's last card leaves the rest of the deal to the bots."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.accounts import PASSWORD

OWN_LINE = "What partner reads from your signal:"


@pytest.fixture(autouse=True)
def _seeds(monkeypatch):
    """Deals dealt in a known order (the live server runs in this process)."""
    from trainer.play import views

    seeds = itertools.count(3000)
    monkeypatch.setattr(views, "new_seed", lambda: next(seeds))


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ownhand", password=PASSWORD)


def _ready(page: Page) -> None:
    """Until South has a card to play (it has the focus), Continue has it, or it is over."""
    page.wait_for_function(
        """() => document.querySelector('[data-result]') || (document.activeElement
        && document.activeElement.matches('#south-hand button[data-action], [data-continue]'))"""
    )


def _moved_on(page: Page, attribute: str, was: str | None) -> None:
    page.wait_for_function(
        """([name, was]) => { const a = document.querySelector('#table-area');
                  return a && a.getAttribute(name) !== was
                    && !a.matches('.htmx-swapping, .htmx-settling, .htmx-added'); }""",
        arg=[attribute, was],
    )


def _hand_number(page: Page) -> int:
    found = re.search(r"hand (\d+) of 8", page.locator("h1").inner_text())
    assert found, page.locator("h1").inner_text()
    return int(found.group(1))


def test_after_each_hand_south_led_the_coach_says_what_partner_reads(
    live_server, page: Page, player, shot
):
    page.context.set_default_timeout(20_000)
    page.goto(live_server.url + "/accounts/login/?next=/play/")
    page.locator("input[name=username]").fill("ownhand")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.locator("input[name=coach][value=on]").check()
    page.get_by_role("button", name="Deal the cards").click()
    page.locator("select[data-pace]").select_option("fast")

    led: list[int] = []  # the hands South led, in order
    commented: dict[int, str] = {}  # hand → the coach's line on the pause after it
    for _ in range(80):
        _ready(page)
        if page.locator("[data-result]").count():
            break
        if page.locator("[data-continue]").count():
            pause = page.locator("[data-pause-summary]")
            expect(pause).to_be_visible()
            number = int(re.search(r"Hand (\d+)", pause.inner_text()).group(1))  # type: ignore[union-attr]
            comment = page.locator("[data-pause-comment]")
            if led and led[-1] == number:
                # South's own hand: the pause is on it, nothing of the next hand is shown.
                expect(comment).to_be_visible()
                commented[number] = comment.inner_text()
                assert page.locator("#south-hand").count() == 0
                if len(commented) == 1:
                    shot(page, "own-hand-pause")
            at = page.locator("#table-area").get_attribute("data-paused")
            page.keyboard.press("Enter")
            _moved_on(page, "data-paused", at)
            continue
        version = page.locator("#table-area").get_attribute("data-version")
        current = page.locator(".play-current .play-played")
        if current.count() == 0:  # South leads this hand
            number = _hand_number(page)
            if not led or led[-1] != number:
                led.append(number)
        page.keyboard.press("Enter")  # the focused card (in this deal South's last card
        # ends hand 6, and the bots then play out hands 7 and 8 on their own)
        _moved_on(page, "data-version", version)
    else:
        raise AssertionError("the deal did not end")
    expect(page.locator("[data-result]")).to_be_visible()
    assert led, "South led no hand in this deal"
    # Every hand South led and that ended before the deal did was paused on, with the line.
    before_end = [n for n in led if n != 8]
    assert before_end, led
    for number in before_end:
        assert number in commented, (led, commented)
        assert commented[number].startswith(OWN_LINE), commented[number]
