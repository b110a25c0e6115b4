"""Issue #20, the user-testing report on drills and lessons: a wrong pick is red with ✗ (not
the green of the right cards) and the hand has a legend; N brings the next drill in at the top
of the screen with focus on its first control; the odds panel explains its shape codes; no
lesson is wider than a 360 px phone, in English or Japanese. Screenshots under
``tests/browser/output/`` (looked at: the marks sit on the cards' corners, the legend reads
under the hand, the lesson tables fit)."""

from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from engine.drills import DrillParams, make_drill
from engine.drills.kinds.reply import accepted_keys, advice_for
from engine.signals import encode
from tests.browser.accessibility import axe_violations
from tests.browser.layout import assert_fits
from tests.trainer.factories import right_option
from trainer.core.seeding import discover_loaders, load_file

pytestmark = pytest.mark.django_db(transaction=True)

LESSONS = sorted((settings.BASE_DIR / "seeds" / "lessons").rglob("*.md"))
PHONE = {"width": 360, "height": 740}
#: The lead drill of the report: K♠ then 3♠ is not the lead of this hand (J♥ then K♥ is).
LEAD_URL = "/drills/lead/21/?v=2&side_hand=1&items=four_sf"
LEAD = make_drill("lead", 21, DrillParams(side_hand=1, items=("four_sf",)))
#: A reply drill whose answers are cards of the learner's hand.
REPLY_URL = "/drills/reply/9/?v=2&side_hand=2"
REPLY = make_drill("reply", 9, DrillParams(side_hand=2))
#: A read drill whose odds include straight-flush shapes (X.XX, X..XX).
SHAPES_URL = "/drills/read/2/?v=2&side_hand=1"
SHAPES = make_drill("read", 2, DrillParams(side_hand=1))
#: A read drill with a long page (completed hands, partner's hand, the odds).
LONG_URL = "/drills/read/4/?v=2&side_hand=4&own_hand=1"

GREENS = ("rgb(22, 101, 52)", "rgb(20, 83, 45)")  # --ok, the items' cards; --felt, "selected"
RED = "rgb(159, 18, 57)"  # --bad


@pytest.fixture
def lessons():
    discover_loaders()
    for path in LESSONS:
        load_file(path)


@pytest.fixture
def ja_phone(browser: Browser, live_server) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _outline(page: Page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).outlineColor")


def _lead_wrongly(page: Page, base: str) -> None:
    assert ("KS", "3S") not in {(str(a), str(b)) for a, b in encode(LEAD.hand, 1).plays}
    page.goto(base + LEAD_URL)
    page.locator('button[name="c1"][value="KS"]').click()
    page.locator('button[name="c2"][value="3S"]').click()
    expect(page.locator("#feedback .feedback")).to_contain_text("Not quite")


def test_a_wrong_lead_pick_is_red_with_a_cross_and_a_legend(
    live_server, page: Page, phone_page: Page, shot
):
    for where, p in (("desktop", page), ("phone", phone_page)):
        _lead_wrongly(p, live_server.url)
        hand = p.locator('#drill-area ul.hand[aria-label="Your hand"]')
        king = hand.locator(".marked-card", has=p.locator('.card[title="King of spades"]'))
        expect(king).to_have_class("marked-card marked-wrong")
        expect(king.locator(".card-mark")).to_have_text("✗")
        expect(king.locator(".card-mark")).to_be_visible()
        expect(king.locator(".visually-hidden").last).to_have_text("your lead, not right")
        expect(hand.locator(".marked-wrong")).to_have_count(2)  # K♠ and 3♠

        wrong = _outline(p, '.marked-wrong .card[title="King of spades"]')
        right = _outline(p, '.marked-right .card[title="Jack of hearts"]')
        assert wrong == RED and wrong not in GREENS, wrong
        assert right in GREENS, right
        expect(hand.locator(".marked-right .card-mark").first).to_have_text("✓")

        legend = p.locator("#drill-area .mark-legend")
        expect(legend).to_be_visible()
        expect(legend.locator("[data-highlight-note]")).to_contain_text("Outlined in green")
        expect(legend.locator("[data-highlight-note] .card-mark")).to_have_text("✓")
        expect(legend.locator("[data-wrong-note]")).to_contain_text("Outlined in red")
        expect(legend.locator("[data-wrong-note] .card-mark")).to_have_text("✗")
        assert_fits(p)
        shot(p, f"lead-wrong-{where}")


def test_a_right_lead_is_green_with_ticks_and_no_red(live_server, page: Page):
    c1, c2 = encode(LEAD.hand, 1).plays[0]
    page.goto(live_server.url + LEAD_URL)
    page.locator(f'button[name="c1"][value="{c1}"]').click()
    page.locator(f'button[name="c2"][value="{c2}"]').click()
    expect(page.locator("#feedback .feedback")).to_contain_text("Right.")
    expect(page.locator("#drill-area .marked-wrong")).to_have_count(0)
    expect(page.locator("#drill-area [data-wrong-note]")).to_have_count(0)
    chosen = page.locator("#drill-area .marked-right", has=page.locator(".card.selected"))
    expect(chosen).to_have_count(2)
    expect(chosen.locator(".visually-hidden").last).to_have_text("your lead, right")


def test_a_wrong_reply_marks_the_chosen_cards_red_and_the_right_ones_green(
    live_server, page: Page, phone_page: Page, shot
):
    right = accepted_keys(advice_for(REPLY))
    hand = {str(c) for c in REPLY.hand}
    wrong = next(
        o.key
        for o in REPLY.options
        if o.key not in right and set(o.key.split()) <= hand and o.key not in ("pass", "force")
    )
    for where, p in (("desktop", page), ("phone", phone_page)):
        p.goto(live_server.url + REPLY_URL)
        p.locator(f'input[name="option"][value="{wrong}"]').check()
        p.get_by_role("button", name="Check answer").click()
        expect(p.locator("#feedback .feedback")).to_contain_text("Not quite")
        marked = p.locator('#drill-area ul.hand[aria-label="Your hand"] .marked-wrong')
        expect(marked).to_have_count(len(wrong.split()))
        for mark in marked.locator(".card-mark").all():
            expect(mark).to_have_text("✗")
        best = p.locator('#drill-area ul.hand[aria-label="Your hand"] .marked-right')
        expect(best).to_have_count(len(right[0].split()))
        colours = p.evaluate(
            """() => [...document.querySelectorAll('#drill-area .marked-wrong .card')]
                .map(el => getComputedStyle(el).outlineColor)"""
        )
        assert colours and all(c == RED for c in colours), colours
        legend = p.locator("#drill-area .mark-legend")
        expect(legend.locator("[data-wrong-note]")).to_contain_text("Outlined in red")
        expect(legend.locator("[data-highlight-note]")).to_contain_text("Outlined in green")
        assert_fits(p)
        shot(p, f"reply-wrong-{where}")


def _top_in_view(page: Page, selector: str) -> None:
    top, height = page.evaluate(
        "(sel) => [document.querySelector(sel).getBoundingClientRect().top, innerHeight]",
        selector,
    )
    assert 0 <= top < height, (selector, top, height)


def _first_control_focused(page: Page) -> None:
    expect(page.locator("#feedback")).to_have_text("")
    first = (
        page.locator("#drill-area").locator('button.card, input[type="radio"]:not(:disabled)').first
    )
    expect(first).to_be_focused()
    assert page.evaluate(
        """() => document.activeElement === document.querySelector('#drill-area')
            .querySelector('button.card, input[type=radio]:not(:disabled)')"""
    )


@pytest.mark.parametrize("how", ["key", "button"])
def test_next_drill_starts_at_the_top_with_focus_on_its_first_control(
    live_server, phone_page: Page, shot, how
):
    page = phone_page
    page.goto(live_server.url + LONG_URL)
    page.locator("body").press("1")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_focused()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 400
    if how == "key":
        page.keyboard.press("n")
    else:
        page.locator("#next-link").click()
    _first_control_focused(page)
    # The drill begins in the screen's upper third: the page's own top, breadcrumbs and all.
    assert page.evaluate("document.getElementById('drill-area').offsetTop < innerHeight / 3")
    assert page.evaluate("window.scrollY") == 0
    _top_in_view(page, "#drill-area .prompt")
    _top_in_view(page, "#drill-title")
    if page.locator("#drill-area .signal").count():
        _top_in_view(page, "#drill-area .signal")
    shot(page, f"next-by-{how}-phone")
    shot(page, f"next-by-{how}-phone-screen", full_page=False)


def test_keyboard_only_answers_and_moves_on(live_server, page: Page, shot):
    # A lead: Tab to the first card, Enter; the second card has focus: Enter; N moves on.
    page.goto(live_server.url + LEAD_URL)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name === 'c1'"):
            break
    else:
        raise AssertionError("Tab never reached a card")
    page.keyboard.press("Enter")
    expect(page.locator("#step")).to_contain_text("second card")
    expect(page.locator('button[name="c2"]').first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#feedback .feedback")).to_be_visible()
    expect(page.locator("#feedback")).to_be_focused()
    page.keyboard.press("n")
    _first_control_focused(page)
    _top_in_view(page, "#drill-area .prompt")

    # A read: a number key picks, Enter answers, N moves on to a new drill.
    page.goto(live_server.url + SHAPES_URL)
    index = [o.key for o in SHAPES.options].index(right_option(SHAPES)) + 1
    page.locator("body").press(str(index))
    expect(page.locator(f'input[data-option-index="{index}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_contain_text("Right.")
    expect(page.locator("#feedback")).to_be_focused()
    shot(page, "read-answered-by-keys")
    page.keyboard.press("n")
    _first_control_focused(page)
    _top_in_view(page, "#drill-area .prompt")


def test_the_odds_panel_explains_its_shape_codes(live_server, page: Page, phone_page, shot):
    for where, p in (("desktop", page), ("phone", phone_page)):
        p.goto(live_server.url + SHAPES_URL)
        p.locator(f'input[name="option"][value="{right_option(SHAPES)}"]').check()
        p.get_by_role("button", name="Check answer").click()
        # The page gives the focus to the feedback once the answer has settled in: wait for
        # it, so that the focus moved below is not taken back.
        expect(p.locator("#feedback")).to_be_focused()
        chart = p.locator("#feedback .odds-chart")
        expect(chart).to_contain_text("X.XX")  # a reading with its shape
        legend = chart.locator("[data-shape-legend]")
        expect(legend).to_have_count(1)
        summary = legend.locator("summary")
        expect(summary).to_have_text("What do shapes like X.XX mean?")
        summary.focus()
        p.keyboard.press("Enter")  # a <details>: opened from the keyboard
        expect(legend).to_have_attribute("open", "")
        expect(legend).to_contain_text("X is a card held")
        expect(legend).to_contain_text("X.XX with 5, 7 and 8 is 5, no 6, 7, 8")
        assert_fits(p)
        shot(p, f"odds-shapes-{where}")


def test_a_chart_without_shapes_has_no_shape_legend(live_server, page: Page):
    page.goto(live_server.url + LONG_URL)
    page.locator("body").press("1")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback .odds-chart")).to_be_visible()
    assert "X" not in page.locator("#feedback .odds-table").inner_text().replace("Xx", "")
    expect(page.locator("[data-shape-legend]")).to_have_count(0)


WIDE_IN_MAIN = """() => {
  const main = document.querySelector('main');
  const pad = parseFloat(getComputedStyle(main).paddingRight);
  const right = main.getBoundingClientRect().right - pad;
  const out = [];
  for (const el of main.querySelectorAll('*')) {
    if (el.closest('.visually-hidden')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > right + 0.5 && !out.some(o => o.contains(el))) out.push(el);
  }
  for (const wrap of main.querySelectorAll('.table-wrap')) {
    if (wrap.scrollWidth > wrap.clientWidth + 1) out.push(wrap);
  }
  return out.slice(0, 6).map(el => el.tagName + '.' + el.className + ' '
    + (el.textContent || '').trim().slice(0, 30));
}"""


@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_lesson_is_wider_than_a_phone(live_server, lessons, request, shot, language):
    # Only the context this case uses is opened.
    page: Page = request.getfixturevalue("phone_page" if language == "en" else "ja_phone")
    page.goto(live_server.url + "/learn/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    urls = list(
        dict.fromkeys(
            page.eval_on_selector_all(
                ".lesson-list h2 a", "links => links.map(a => a.getAttribute('href'))"
            )
        )
    )
    assert len(urls) == len(list((settings.BASE_DIR / "seeds" / "lessons").glob("*.md")))
    wide = []
    for url in urls:
        page.goto(live_server.url + url)
        # Every example's answer open: its table is what overflowed.
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        culprits = page.evaluate(WIDE_IN_MAIN)
        if scroll > inner or culprits:
            wide.append(f"{url}: {scroll} > {inner} {culprits}")
        shot(page, f"{language}{url.replace('/', '-').rstrip('-')}")
    assert wide == []


def test_graded_drill_pages_pass_axe(live_server, page: Page):
    found = []
    _lead_wrongly(page, live_server.url)
    found += axe_violations(page)
    page.goto(live_server.url + SHAPES_URL)
    page.locator(f'input[name="option"][value="{right_option(SHAPES)}"]').check()
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator("[data-shape-legend]")).to_have_count(1)
    page.locator("[data-shape-legend] summary").click()
    found += axe_violations(page)
    assert found == []
