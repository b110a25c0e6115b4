"""Japanese typography in a browser (docs/i18n.md, "Japanese style"), on a 360 px phone and a
desktop, screenshots under ``tests/browser/output/``: words are not broken inside
(クラシック得点, ストレートフラッシュ4枚, the cheat sheet's row heads), the cheat sheet fits a
phone without scrolling sideways, the glossary leads with the Japanese name, a drill's verdict
reads 「不正解です。正解は「…」です。」, a form refused for its CSRF token shows the site's own
page in Japanese, and a new account is welcomed (not "welcome back") by its name as written.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from tests.browser.layout import assert_fits
from trainer.core.seeding import discover_loaders, load_file

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
WHERE = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture
def lessons():
    discover_loaders()
    for path in sorted((settings.BASE_DIR / "seeds" / "lessons").rglob("*.md")):
        load_file(path)


def _japanese(browser: Browser, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(params=sorted(WHERE))
def ja(request, browser: Browser, live_server) -> Iterator[tuple[str, Page, str]]:
    """A Japanese browser page, on a phone and on a desktop: (where, page, the site's URL)."""
    for page in _japanese(browser, WHERE[request.param]):
        yield request.param, page, live_server.url


def _lines(page: Page, selector: str, word: str) -> int:
    """On how many lines ``word`` is drawn inside the first element matching ``selector``
    that holds it (1: the word is whole)."""
    return page.evaluate(
        """([sel, word]) => {
            for (const el of document.querySelectorAll(sel)) {
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    const at = node.data.indexOf(word);
                    if (at < 0) continue;
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + word.length);
                    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    return tops.size;
                }
            }
            return -1;
        }""",
        [selector, word],
    )


def test_the_cheat_sheet_fits_a_phone_and_keeps_words_whole(ja, shot):
    where, page, base = ja
    page.goto(f"{base}/cheatsheet/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("コンチェルトのシグナル")
    assert_fits(page)
    # Neither table scrolls sideways in its frame.
    widths = page.evaluate(
        "[...document.querySelectorAll('.sheet .table-wrap')]"
        ".map(e => e.scrollWidth - e.clientWidth)"
    )
    assert widths and max(widths) <= 0, widths
    # Row heads and items are whole words, not a character a line.
    assert _lines(page, ".sheet-table tbody th", "同じランク") == 1
    assert _lines(page, ".sheet-encoding tbody th", "ストレートフラッシュ4枚") == 1
    assert _lines(page, ".sheet-table td", "フォーカード") == 1
    assert "。 " not in page.locator(".sheet-intro").inner_text()  # no space between sentences
    expect(page.get_by_role("button", name="切り替え", exact=True)).to_be_visible()
    shot(page, f"cheatsheet-ja-{where}")


def test_the_glossary_leads_with_the_japanese_name(ja, shot):
    where, page, base = ja
    page.goto(f"{base}/glossary/")
    expect(page.locator("h1")).to_have_text("用語集")
    row = page.locator('[data-term="item:four_sf"]')
    expect(row.locator("th[scope=row]")).to_have_text("ストレートフラッシュ4枚")
    expect(row.locator("th[scope=row]")).to_have_attribute("lang", "ja")
    expect(page.locator('[data-term="shape:XX.X"] .term-definition')).to_have_text(
        "2枚連続、3枚目はその2つ上。"
    )
    assert _lines(page, ".glossary-table th", "ストレートフラッシュ4枚") == 1
    assert_fits(page)
    shot(page, f"glossary-ja-{where}")


def test_a_lesson_names_combinations_in_japanese_and_keeps_words_whole(lessons, ja, shot):
    where, page, base = ja
    page.goto(f"{base}/learn/scoring-and-leftovers/")
    expect(page.locator("h1#lesson-title")).to_have_text("得点とレフトオーバー")
    for summary in page.locator(".lesson-body details.example-why summary").all():
        summary.click()
    answers = page.locator(".lesson-body")
    expect(answers).to_contain_text("役なし")
    expect(answers).to_contain_text("スリーペア（レフトオーバー）")
    expect(page.locator(".lesson-body")).not_to_contain_text("Straight")
    expect(page.locator(".example-score .played-by").first).to_have_text("北が出した")
    assert _lines(page, ".example-table th", "クラシック") == 1
    assert _lines(page, ".example-table td", "ストレートフラッシュ") == 1
    assert_fits(page)
    shot(page, f"lesson-ja-{where}")
    # The reading grid: on a phone one block per rank class, its row heads whole words.
    page.goto(f"{base}/learn/reading-partner/")
    grid = page.locator(".example-grid .table-wrap").first
    assert grid.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    assert _lines(page, ".example-grid .reading-grid tbody th", "同じランク") == 1
    assert_fits(page)
    shot(page, f"lesson-grid-ja-{where}")


def test_a_drill_before_and_after_a_wrong_answer(ja, shot):
    where, page, base = ja
    page.goto(f"{base}/drills/reply/5/?v=2")
    expect(page.locator("#drill-area")).to_contain_text("自陣の回")
    assert_fits(page)
    shot(page, f"drill-ja-{where}-before")
    page.locator('#drill-area input[name="option"]').last.check()
    page.locator("#drill-area .actions button[type=submit]").click()
    verdict = page.locator("#drill-area .feedback").first
    expect(verdict).to_contain_text("不正解です。正解は「")
    expect(verdict).not_to_contain_text("惜しい")
    assert_fits(page)
    shot(page, f"drill-ja-{where}-after")


def test_a_form_refused_for_its_csrf_token_shows_the_sites_page_in_japanese(ja, shot):
    where, page, base = ja
    page.goto(f"{base}/accounts/login/")
    page.evaluate(
        "document.querySelector('form.form input[name=csrfmiddlewaretoken]').value = 'stale'"
    )
    page.locator("input[name=username]").fill("someone")
    page.locator("input[name=password]").fill("something")
    page.locator("form.form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("このフォームは期限切れです")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".site-header")).to_be_visible()  # the site's own styled page
    assert_fits(page)
    shot(page, f"csrf-ja-{where}")


def test_a_new_account_is_welcomed_by_its_name_as_written(ja, shot):
    where, page, base = ja
    name = f"jatester{where}"
    page.goto(f"{base}/accounts/signup/")
    expect(page.locator(".form")).not_to_contain_text("このフィールドは必須です")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password1]").fill("a-Long-unusual-passphrase-42")
    page.locator("input[name=password2]").fill("a-Long-unusual-passphrase-42")
    page.locator("form.form button[type=submit]").click()
    page.goto(f"{base}/")
    eyebrow = page.locator(".home-next .eyebrow")
    expect(eyebrow).to_have_text(f"ようこそ、{name}さん")
    assert name in eyebrow.inner_text()  # drawn as written, not upper-cased
    shot(page, f"home-new-ja-{where}")
