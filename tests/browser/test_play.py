"""Playing at the table in a browser: a whole deal with the keyboard alone, then the review;
the coach's quiz; screenshots at desktop and 360 px; no sideways scrolling; an axe scan."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.accessibility import axe_violations
from tests.browser.accounts import PASSWORD
from tests.browser.layout import assert_fits

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
CARD = "#south-hand button[data-action]"


@pytest.fixture(autouse=True)
def _seeds(monkeypatch):
    """Deals dealt in a known order (the live server runs in this process)."""
    from trainer.play import views

    seeds = itertools.count(3000)
    monkeypatch.setattr(views, "new_seed", lambda: next(seeds))


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("tablehand", password=PASSWORD)


def _page(browser: Browser, viewport: dict[str, int], *, reduced: bool = True) -> Page:
    # Reduced motion: the bots' steps are shown at once (the site honours the setting), so
    # the test need not wait out the animation between moves.
    context = browser.new_context(
        viewport=viewport, reduced_motion="reduce" if reduced else "no-preference"
    )
    context.set_default_timeout(15_000)
    return context.new_page()


def _log_in(page: Page, base: str) -> None:
    page.goto(base + "/accounts/login/?next=/play/")
    page.locator("input[name=username]").fill("tablehand")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    expect(page.locator("form[data-start]")).to_be_visible()


def _start(page: Page, *, coach: str = "on") -> None:
    page.locator(f"input[name=coach][value={coach}]").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page.locator("#table-area")).to_be_visible()


def _over(page: Page) -> bool:
    return page.locator("[data-result]").count() > 0


def _wait_for_turn(page: Page) -> None:
    """Until South's first playable card has the focus (play.js gives it once the bots'
    steps are shown), or Continue has it (the table pauses after a hand of South's side), or
    the deal is over."""
    page.wait_for_function(
        """card => document.querySelector('[data-result]') || (document.activeElement
        && document.activeElement.matches(card + ', [data-continue]'))""",
        arg=CARD,
    )


def _paused(page: Page) -> bool:
    return page.locator("[data-continue]").count() > 0


def _go_on(page: Page, *, key: str | None = "Enter") -> None:
    """Continue from the pause after a hand (by ``key``, else a click), until it is gone."""
    at = page.locator("#table-area").get_attribute("data-paused")
    if key:
        page.keyboard.press(key)
    else:
        page.locator("[data-continue]").click()
    page.wait_for_function(
        """at => { const a = document.querySelector('#table-area');
                   return a && a.getAttribute('data-paused') !== at; }""",
        arg=at,
    )


def _wait_for_version(page: Page, version: str | None) -> None:
    """Until the table has moved on from ``version`` (the swap or the new page is in)."""
    page.wait_for_function(
        """v => { const a = document.querySelector('#table-area');
                  return a && a.getAttribute('data-version') !== v; }""",
        arg=version,
    )


def _assert_winner_first(sentence: str) -> None:
    """A result in words names the winner's score first: "East–West win: 27 to 5"."""
    first, second = (int(n) for n in re.findall(r"(\d+) to (\d+)", sentence)[0])
    assert first >= second, sentence


def test_a_whole_deal_with_the_keyboard_alone_then_the_review(
    live_server, browser: Browser, player, shot
):
    page = _page(browser, DESKTOP)
    _log_in(page, live_server.url)
    _start(page)
    moves = 0
    quiz_shot = table_shot = False
    keys = ["Enter", "ArrowRight", "2", "p", "ArrowLeft", "f"]
    pauses = 0
    while not _over(page):
        _wait_for_turn(page)
        if _over(page):
            break
        if _paused(page):  # the summary of a hand of South's side: Enter goes on
            if not pauses:
                shot(page, "hand-pause-desktop")
            pauses += 1
            _go_on(page)
            continue
        version = page.locator("#table-area").get_attribute("data-version")
        if not table_shot and page.locator(".play-current .card").count() >= 1:
            shot(page, "table-mid-hand-desktop")
            table_shot = True
        if not quiz_shot and page.locator("[data-quiz]").count():
            shot(page, "coach-quiz-desktop")
            quiz_shot = True
        key = keys[moves % len(keys)]
        if (
            key in ("p", "f")
            and page.locator(f'button[data-action="{"pass" if key == "p" else "force"}"]').count()
        ):
            page.keyboard.press(key.upper() if moves % 2 else key)
        else:
            if key not in ("p", "f", "Enter"):
                page.keyboard.press(key)  # pick another card first
            page.keyboard.press("Enter")
        _wait_for_version(page, version)
        moves += 1
        assert moves < 60
    assert moves >= 4 and pauses >= 1
    result = page.locator("[data-result]")
    expect(result).to_be_visible()
    expect(page.locator("[data-record-url]")).to_have_attribute(
        "data-record-url", page.locator("[data-record-url]").get_attribute("data-record-url")
    )
    shot(page, "deal-over-desktop")
    _assert_winner_first(page.locator("[data-result-score]").inner_text())
    # Open the review with the keyboard too: the focus lands on the result, Tab to the
    # review link, Enter.
    expect(page.locator("[data-result] h2")).to_be_focused()
    link = page.locator("[data-review-link]").first
    for _ in range(12):
        if link.evaluate("el => el === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".play-review-hand")).to_have_count(8)
    _assert_winner_first(page.locator("[data-outcome]").inner_text())
    expect(page.locator("[data-frame='0']")).to_be_visible()
    page.locator("[data-frame-next]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-frame='1']")).to_be_visible()
    shot(page, "review-desktop")
    assert axe_violations(page) == []


def test_the_table_quiz_and_review_on_a_phone(live_server, browser: Browser, player, shot):
    page = _page(browser, PHONE)
    _log_in(page, live_server.url)
    assert_fits(page)
    shot(page, "start-phone")
    found: list[str] = axe_violations(page)
    for _deal in range(6):
        _start(page)
        answered = False
        while not _over(page):
            _wait_for_turn(page)
            if _over(page):
                break
            if _paused(page):
                assert_fits(page)
                shot(page, "hand-pause-phone")
                _go_on(page, key=None)
                continue
            if page.locator(".play-current .card").count() >= 2:
                assert_fits(page)
                shot(page, "table-mid-hand-phone")
            quiz = page.locator("[data-quiz] input[name=option]")
            if not answered and quiz.count():
                assert_fits(page)
                shot(page, "coach-quiz-phone")
                found += axe_violations(page)
                quiz.first.check()
                page.locator("[data-quiz-answer]").click()
                expect(page.locator("[data-quiz-result]")).to_be_visible()
                expect(page.locator(".odds-chart")).to_be_visible()
                assert_fits(page)
                shot(page, "coach-quiz-answered-phone")
                answered = True
                _wait_for_turn(page)
            version = page.locator("#table-area").get_attribute("data-version")
            pass_button = page.locator('button[data-action="pass"]')
            if pass_button.count():  # after partner's first card: let partner signal
                pass_button.click()
            else:
                page.locator(CARD).first.click()
            _wait_for_version(page, version)
        if answered:
            break
        page.goto(live_server.url + "/play/")
    assert answered, "no quiz came up in six deals"
    found += axe_violations(page)
    page.locator("[data-review-link]").click()
    expect(page.locator(".play-review-hand")).to_have_count(8)
    assert_fits(page)
    shot(page, "review-phone")
    shot(page, "review-phone-top", full_page=False)
    found += axe_violations(page)
    assert found == []


def test_the_bots_steps_are_shown_one_at_a_time(live_server, browser: Browser, player, shot):
    """With motion allowed, each step of the bots waits its turn: the later ones are still
    hidden while the first shows, and South's cards come last."""
    page = _page(browser, DESKTOP, reduced=False)
    _log_in(page, live_server.url)
    _start(page, coach="off")
    steps = page.locator(".play-step-list .play-step")
    assert steps.count() >= 2
    expect(steps.first).to_be_visible()
    assert not steps.last.is_visible()
    assert not page.locator(CARD).first.is_visible()
    shot(page, "steps-in-progress-desktop")
    expect(steps.last).to_be_visible(timeout=20_000)
    expect(page.locator(CARD).first).to_be_visible(timeout=20_000)


def test_a_move_works_without_javascript(live_server, browser: Browser, player, shot):
    """A plain form post: the page reloads at ``?step=`` and shows the bots' replies."""
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    context.set_default_timeout(15_000)
    page = context.new_page()
    _log_in(page, live_server.url)
    _start(page)
    assert "?step=0" in page.url
    version = page.locator("#table-area").get_attribute("data-version")
    page.locator(CARD).first.click()
    page.wait_for_url("**/?step=*")
    assert page.locator("#table-area").get_attribute("data-version") != version
    expect(page.locator(".play-step-list li").first).to_contain_text("You")
    shot(page, "after-a-plain-post-desktop")
    context.close()
