"""Playwright fixtures for end-to-end tests against pytest-django's ``live_server``.

Every test collected under ``tests/browser/`` is marked ``browser``; run only these with
``pytest -m browser`` or skip them with ``pytest -m "not browser"``.

    def test_home(live_server, page, shot):
        page.goto(live_server.url + "/")
        shot(page, "home")          # -> tests/browser/output/test_home/home.png

Screenshots are taken when ``SCREENSHOTS=1`` is set (``make screenshots``): a full-page PNG
costs Chromium about a fifth of a browser test's CPU, and the fast lane's assertions never read
them.
"""

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

# The live server and Playwright's sync API share the test thread's event loop, which trips
# Django's async-safety check on ORM calls made from tests.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, sync_playwright

#: Debian's full browser, and Debian's build of the same Chromium for headless use only (package
#: ``chromium-headless-shell``, what Playwright itself runs for headless tests): the shell does
#: the same work on about half the browser CPU, so the tests use it when it is installed
#: (``make test`` installs both). ``TEST_CHROMIUM=/usr/bin/chromium`` picks the full browser.
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("TEST_CHROMIUM") or (
    HEADLESS_SHELL if os.access(HEADLESS_SHELL, os.X_OK) else FULL_CHROMIUM
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
OUTPUT = Path(__file__).resolve().parent / "output"
#: Whether ``shot`` writes its PNGs (``SCREENSHOTS=1``, as ``make screenshots`` sets).
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")


class Shot(Protocol):
    def __call__(self, page: Page, name: str, *, full_page: bool = True) -> Path: ...


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium (Debian's, see ``CHROMIUM``) for the whole session."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


def _page(browser: Browser, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser, live_server) -> Iterator[Page]:
    """A desktop-sized page (1280×900) in a fresh browser context."""
    yield from _page(browser, DESKTOP)


@pytest.fixture
def phone_page(browser: Browser, live_server) -> Iterator[Page]:
    """A phone-sized page (360×740) in a fresh browser context."""
    yield from _page(browser, PHONE)


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Shot:
    """``shot(page, name)`` saves a full-page PNG (``full_page=False``: the screen only) as
    ``output/<test name>/<name>.png`` when screenshots are on, and returns that path."""
    folder = OUTPUT / re.sub(r"[^\w.-]+", "_", request.node.name)

    def take(page: Page, name: str, *, full_page: bool = True) -> Path:
        path = folder / f"{name}.png"
        if SCREENSHOTS:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
