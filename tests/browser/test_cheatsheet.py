"""The cheat sheet prints on exactly one A4 page for every convention card."""

import re

import pytest
from playwright.sync_api import Page, expect

from engine.signals import CONVENTIONS


def _page_count(pdf: bytes) -> int:
    """Pages of a PDF: its page objects (``/Type /Page``, not ``/Pages``)."""
    pages = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf)]
    assert not counts or max(counts) == pages
    return pages


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_cheatsheet_prints_on_one_a4_page(live_server, page: Page, shot, convention):
    page.goto(f"{live_server.url}/cheatsheet/?convention={convention}")
    expect(page.locator(".sheet-convention")).to_have_text(CONVENTIONS[convention].title)
    shot(page, "screen")

    pdf = page.pdf(format="A4", print_background=True)

    assert _page_count(pdf) == 1
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".site-footer")).to_be_hidden()
    expect(page.locator(".convention-picker")).to_be_hidden()
    expect(page.locator(".sheet-encoding")).to_be_visible()


def test_page_counting_sees_more_than_one_page(live_server, page: Page):
    page.goto(f"{live_server.url}/learn/")
    # No inline style: the site's Content-Security-Policy (style-src 'self') would drop it.
    page.set_content("<p>tall</p>" * 400)

    assert _page_count(page.pdf(format="A4")) > 1


def test_cheatsheet_at_phone_width(live_server, phone_page: Page, shot):
    phone_page.goto(f"{live_server.url}/cheatsheet/")

    expect(phone_page.get_by_role("heading", level=1)).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(phone_page, "phone")
