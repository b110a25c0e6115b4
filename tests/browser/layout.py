"""One check that a page fits the screen it is drawn on, for every browser test.

The check first waits for the page's load event (every stylesheet in the head has arrived): a
page measured between its HTML and its last stylesheet is laid out without that sheet's rules
and can be wider than the finished page.
"""

from playwright.sync_api import Page


def assert_fits(page: Page) -> None:
    """Nothing on ``page`` reaches past the viewport's width (tables may scroll inside their own
    ``.table-wrap``); the message names the first elements that do."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        "[...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.sheet)"
    )
    width = page.evaluate("window.innerWidth")
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > w + 0.5)
        .filter(el => !el.closest('.table-wrap'))
        .map(el => el.tagName + '.' + el.className + ' ' + (el.textContent || '').slice(0, 40))
        .slice(0, 5)""",
        width,
    )
    overflow = page.evaluate("document.documentElement.scrollWidth") - width
    assert overflow <= 0, f"{page.url}: {overflow}px wider than the screen: {wide}"
