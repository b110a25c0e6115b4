"""Every page, rendered for a browser that prefers Japanese, shows no English from the UI
catalog (``locale/ja/LC_MESSAGES/django.po``).

Visitors, a student, a teacher and a club organiser (the demo data) open every page of the
site; a drill of each kind is answered (the feedback shown). The visible text of each page
(text nodes, and the ``title``, ``aria-label``, ``placeholder`` and ``alt`` attributes) is
checked for the English of every catalog entry: a page or a string that is not translated
fails with the page's address and the English it showed. Card notation, proper names and
the demo's own data (user, club, class and assignment names) are allowed.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.trainer.i18n.catalogs import ROOT, VisibleText, entries
from tests.trainer.i18n.site_pages import demo_data, html_pages, japanese_pages

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

JA = "ja,en;q=0.3"
CATALOG = ROOT / "locale/ja/LC_MESSAGES/django.po"
#: English that may stand on a Japanese page: the site's and the game's names, card notation.
ALLOWED = {"Concerto Trainer", "Concerto", "CSV", "Parlett 2008", "Teach Yourself 1994"}
#: Named URLs that are not pages: actions answering a POST, files, feeds and redirects.
NOT_PAGES = {
    "healthz": "a plain-text health check",
    "favicon": "a redirect to the icon",
    "review-goal": "POST only",
    "drill-practise-next": "a redirect to the set's next drill",
    "classes:export": "a CSV file",
    "teaching:delete": "POST only",
    "play:live-teach": "POST only",
    "classes:student-remove": "POST only",
    "classes:co-teacher-add": "POST only",
    "classes:archive": "POST only",
    "classes:restore": "POST only",
    "classes:join-code-rotate": "POST only",
    "classes:leave": "POST only",
    "classes:assignment-next": "a redirect to the next drill",
    "classes:assignment-delete": "POST only",
    "clubs:step-next": "a redirect to the step's next drill",
    "clubs:promote": "POST only",
    "clubs:invite-rotate": "POST only",
    "clubs:rules": "POST only",
    "start:step-next": "a redirect to the step's next drill",
    "play:act": "POST only",
    "play:advice": "a fragment for the table's script",
    "play:quiz": "POST only",
    "play:table-json": "JSON",
    "play:record": "JSON",
    "name-update": "POST only",
    "logout": "POST only",
    "set_language": "POST only",
    "classroom-language": "POST only",
    "drill-next": "a redirect to a fresh drill (drill-detail is checked)",
    "play:shared": "needs a finished deal its player shared (the table and review are checked)",
    "password_reset_confirm": "needs a reset token (checked with one below)",
    "play:live-partial": "the table fragment a live page reloads (play:live is checked)",
    "duplicate:enter": "POST only",
    "duplicate:partner": "POST only",
    "duplicate:here": "POST only",
    "duplicate:director-act": "POST only (its refusal is checked)",
    "duplicate:play": "POST only (the board's table is checked)",
    "duplicate:csv": "a CSV file",
    "play:live-begin": "POST only",
    "play:live-act": "POST only",
    "play:live-away": "POST only",
    "play:live-hand-over": "POST only",
    "play:live-watchable": "POST only",
    "play:live-coach": "POST only",
    "play:live-revoke": "POST only",
    "play:live-record": "JSON",
    "cards:check": "POST only: the card editor's live check (a fragment of cards:detail)",
    "cards:check-new": "POST only: the live check of a new card (a fragment of cards:new)",
    "cards:default": "POST only",
    "cards:evaluate": "POST only",
    "cards:evaluation": "a fragment of cards:detail that the page polls",
    "cards:schema": "JSON: the card file's schema",
}


def visible_text(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return [" ".join(p.split()) for p in parser.parts]


_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%%|<[^>]+>")


def _fragments(msgid: str) -> list[str]:
    """The literal English of a message, cut at its placeholders and tags. A piece counts when
    it has two words, or one word of four letters or more ("of", "the" alone say nothing)."""
    pieces = (" ".join(p.split()).strip(" .,:;·—–()“”?!") for p in _PLACEHOLDER.split(msgid))
    return [p for p in pieces if re.search(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}|[A-Za-z]{4,}", p)]


def english_phrases() -> dict[str, str]:
    """Fragment → the catalog message it comes from (format-only entries excluded)."""
    found: dict[str, str] = {}
    for entry in entries(CATALOG):
        if entry.context == "date format":
            continue
        for text in filter(None, (entry.msgid, entry.msgid_plural)):
            for fragment in _fragments(text):
                if fragment and fragment not in ALLOWED:
                    found.setdefault(fragment, text)
    return found


def english_on(html: str, phrases: dict[str, str], allowed: set[str]) -> list[str]:
    """Each catalog phrase found in the page's text, with the text it was found in."""
    texts = visible_text(html)
    for name in sorted(allowed, key=len, reverse=True):
        texts = [t.replace(name, " ") for t in texts]
    hits = []
    for fragment in phrases:
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(fragment) + r"(?![A-Za-z])")
        where = next((t for t in texts if pattern.search(t)), None)
        if where is not None:
            hits.append(f"{fragment!r} in {where[:90]!r}")
    return sorted(hits)


def _url_names(resolver=None, namespace="") -> set[str]:
    names = set()
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            if "admin" in str(p.pattern):
                continue
            names |= _url_names(p, namespace + (f"{p.namespace}:" if p.namespace else ""))
        elif isinstance(p, URLPattern) and p.name:
            names.add(namespace + p.name)
    return names


@pytest.fixture
def demo(settings):
    settings.TRAINER_DEMO_DATA = True
    return demo_data(ALLOWED)


def test_every_named_page_is_checked_or_said_not_to_be_a_page():
    checked = {
        "home", "review", "progress", "settings", "drill-menu", "drill-custom",
        "drill-practise", "drill-detail", "classes:list", "classes:create", "classes:join",
        "classes:join-link", "classes:detail", "classes:dashboard", "classes:student",
        "classes:assignment-create", "classes:assignment", "clubs:list", "clubs:create",
        "clubs:join", "clubs:detail", "clubs:path", "clubs:step", "clubs:members",
        "start:path", "start:step", "learn:list", "learn:lesson", "play:home", "play:table",
        "play:review", "cheatsheet", "glossary", "signup", "login",
        "cards:list", "cards:new", "cards:detail", "cards:diff",
        "play:live-new", "play:live", "play:live-join", "play:live-list",
        "password_reset", "password_change", "password_change_done", "password_reset_done",
        "password_reset_complete", "duplicate:club", "duplicate:session", "duplicate:traveller",
        "duplicate:director", "duplicate:class", "teaching:boards", "teaching:set",
        "teaching:compare", "teaching:student-pairs", "play:pairs",
    }  # fmt: skip
    assert _url_names() - checked - set(NOT_PAGES) == set()


def test_no_page_shows_english_from_the_ui_catalog(demo):
    pages = html_pages(japanese_pages(demo))
    phrases = english_phrases()
    problems = {}
    for label, html in pages.items():
        found = english_on(html, phrases, demo["allowed"])
        if found:
            problems[label] = found
    report = "\n".join(f"{page}:\n    " + "\n    ".join(hits) for page, hits in problems.items())
    assert not problems, "English from the UI catalog on Japanese pages:\n" + report


#: Latin words a Japanese page may show besides names: card notation (``c1``, ``c2``, shapes
#: ``XX.XX``, ranks, card codes), a paper size, file formats, a key's name, the rating system's
#: name, and what a visitor typed into an address (``?kind=nosuchkind``).
_NOTATION = re.compile(
    r"^(?:[cC][12]|X[X.]*|[AKQJ]|[2-9TJQKA][SHDC]|A4|CSV|JSON|Cookie|Enter|Glicko|nosuchkind)$"
)
#: Whole texts that are data, not words: an address, a join code, a card file's row id (a
#: tooltip), a book's title.
_DATA = re.compile(
    r"^(?:https?://\S+|[A-Z0-9]{4}(?:-[A-Z0-9]{2,4})+|[a-z0-9_]+(?::[A-Za-z0-9_.]+)*)$"
    r"|Teach Yourself Card Games"
)


def english_words_on(html: str, allowed: set[str]) -> list[str]:
    """Each word of two or more Latin letters in the page's text that is not notation, a
    proper name or the demo's own data, with the text it was found in."""
    texts = visible_text(html)
    for name in sorted(allowed | ALLOWED, key=len, reverse=True):
        texts = [t.replace(name, " ") for t in texts]
    hits = []
    for text in texts:
        text = _DATA.sub(" ", text.strip())
        for word in re.findall(r"[A-Za-z][A-Za-z0-9]+", text):
            if not _NOTATION.match(word):
                hits.append(f"{word!r} in {text[:90]!r}")
    return sorted(set(hits))


def test_no_page_shows_an_english_word(demo):
    """Beyond the catalogs: no engine sentence, error or data label left in English."""
    pages = html_pages(japanese_pages(demo))
    problems = {}
    for label, html in pages.items():
        found = english_words_on(html, demo["allowed"])
        if found:
            problems[label] = found
    report = "\n".join(f"{page}:\n    " + "\n    ".join(hits) for page, hits in problems.items())
    assert not problems, "English words on Japanese pages:\n" + report
