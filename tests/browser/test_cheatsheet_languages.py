"""The cheat sheet in each language prints on one A4 page for every convention card; the
Japanese sheet is drawn with a CJK font Debian's Chromium has (Noto CJK)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from engine.signals import CONVENTIONS
from tests.browser.test_cheatsheet import _page_count

HEADINGS = {"en": "Concerto signals", "ja": "コンチェルトのシグナル"}


def _page_in(browser: Browser, language: str, width: int) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_cheatsheet_prints_on_one_a4_page_in_each_language(
    live_server, browser: Browser, shot, language, convention
):
    for page in _page_in(browser, language, 1280):
        page.goto(f"{live_server.url}/cheatsheet/?convention={convention}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_role("heading", level=1)).to_contain_text(HEADINGS[language])
        shot(page, f"{language}-desktop")

        assert _page_count(page.pdf(format="A4", print_background=True)) == 1


def test_the_japanese_sheet_uses_a_cjk_font_and_fits_a_phone(live_server, browser: Browser, shot):
    for page in _page_in(browser, "ja", 360):
        page.goto(f"{live_server.url}/cheatsheet/")
        expect(page.get_by_role("heading", level=1)).to_contain_text(HEADINGS["ja"])
        assert page.evaluate("document.fonts.check('16px \"Noto Sans CJK JP\"', 'リード')")
        family = page.evaluate("getComputedStyle(document.querySelector('.sheet')).fontFamily")
        assert "Noto Sans CJK JP" in family
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shot(page, "ja-phone")
