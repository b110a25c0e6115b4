"""Japanese lessons and the glossary in a browser whose language is Japanese: desktop and a
360 px phone, screenshots under ``tests/browser/output/`` (looked at: Japanese text in Noto CJK,
no boxes; nothing wider than the screen)."""

from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from tests.browser.layout import assert_fits
from trainer.core.seeding import discover_loaders, load_file

pytestmark = pytest.mark.django_db(transaction=True)
LESSONS = sorted((settings.BASE_DIR / "seeds" / "lessons").rglob("*.md"))
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def lessons():
    discover_loaders()
    for path in LESSONS:
        load_file(path)


def _japanese(browser: Browser, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def ja_page(browser, live_server):
    yield from _japanese(browser, DESKTOP)


@pytest.fixture
def ja_phone(browser, live_server):
    yield from _japanese(browser, NARROW)


def _no_tofu(page: Page, selector: str) -> None:
    """The Japanese text is drawn in a font that has the glyphs (a box would measure the same
    for every character; compare two different kanji with a Latin-only fallback)."""
    widths = page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            const c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(el).font;
            return [c.measureText('用').width, c.measureText('語集').width];
        }""",
        selector,
    )
    assert widths[0] > 0 and widths[1] > widths[0]


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_japanese_lesson_reads_in_japanese(live_server, lessons, request, shot, where):
    # Only the context this case uses is opened.
    page = request.getfixturevalue("ja_page" if where == "desktop" else "ja_phone")
    page.goto(live_server.url + "/learn/strong-signals/")

    expect(page.locator("h1#lesson-title")).to_have_text("強いシグナル")
    expect(page.locator("h2#straight-flush-shapes")).to_have_text("ストレートフラッシュの形")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.locator(".lesson-body details summary").first.click()
    assert_fits(page)
    _no_tofu(page, "h1#lesson-title")
    shot(page, f"lesson-ja-{where}")

    page.goto(live_server.url + "/learn/strong-signals/#fours")
    expect(page.locator("h2#fours")).to_be_in_viewport()

    page.goto(live_server.url + "/learn/")
    expect(page.locator(".lesson-list h2").first).to_have_text("ゲームの流れと1回のディール")
    assert_fits(page)
    shot(page, f"lessons-ja-{where}")


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_glossary_in_japanese_and_english(live_server, lessons, request, shot, where):
    # Only the context this case uses is opened.
    page = request.getfixturevalue("ja_page" if where == "desktop" else "ja_phone")
    page.goto(live_server.url + "/glossary/")

    expect(page.locator("h1")).to_have_text("用語集")
    expect(page.locator('[data-term="item:four_sf"] .term-definition')).to_contain_text(
        "ウィンドウ"
    )
    assert_fits(page)
    _no_tofu(page, "h1")
    shot(page, f"glossary-ja-{where}")


def test_glossary_in_english(live_server, page, phone_page, shot):
    for where, p in (("desktop", page), ("phone", phone_page)):
        p.goto(live_server.url + "/glossary/")
        expect(p.locator("h1")).to_have_text("Glossary")
        expect(p.locator('[data-term="item:four_sf"] [lang="ja"]')).to_have_text(
            "ストレートフラッシュ4枚"
        )
        assert_fits(p)
        shot(p, f"glossary-en-{where}")
