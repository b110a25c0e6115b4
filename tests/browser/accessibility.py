"""One accessibility check for every browser test: axe-core's WCAG 2.1 A and AA rules."""

from __future__ import annotations

from playwright.sync_api import Page


def axe_violations(page: Page) -> list[str]:
    """The serious and critical WCAG 2.1 A/AA violations axe finds on ``page``, one line each
    (the rule, its impact and the first elements it names); empty when it is clean."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page,
        options={
            "resultTypes": ["violations"],
            "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]},
        },
    )
    return [
        f"{page.url}: {v['id']} ({v['impact']}) {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


#: Every tap target smaller than 24 × 24 CSS px (WCAG 2.2, 2.5.8), one line each: links,
#: buttons, form fields, summaries. Links inside running text (a paragraph, a table cell's
#: sentence) are exempt, as the rule exempts them; so are elements hidden from view.
SMALL_TARGETS = """() => {
  const found = [];
  const targets = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  for (const el of document.querySelectorAll(targets)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest('.visually-hidden, [hidden]')) continue;
    if (el.tagName === 'A' && el.closest('p, blockquote, .prose, dd')) continue;
    if (box.width < 23.5 || box.height < 23.5) {
      const name = (el.textContent || el.value || el.name || '').trim().slice(0, 24);
      const where = el.parentElement.className || el.parentElement.tagName.toLowerCase();
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      found.push(`${el.tagName.toLowerCase()} in ${where} ${size} "${name}"`);
    }
  }
  return found;
}"""

#: The smallest font size (CSS px) of any text shown on the page, and where it is.
SMALLEST_TEXT = """() => {
  let least = [Infinity, ''];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.visually-hidden, [hidden]') || !el.getClientRects().length) continue;
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size >= least[0]) continue;
    const what = `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''}`;
    least = [size, `${what} "${el.textContent.trim().slice(0, 20)}"`];
  }
  return least;
}"""

#: The least font size a page may show (0.8rem).
LEAST_TEXT_PX = 12.8
