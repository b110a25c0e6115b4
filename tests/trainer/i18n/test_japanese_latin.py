"""No English words on Japanese pages, in the Japanese catalogs or in the Japanese lessons.

A Japanese reader meets Latin letters only where every language has them (card notation,
shapes, proper names, keyboard keys, technical names: :mod:`tests.trainer.i18n.latin`). The
catalog and lesson checks are fast; the walk over every page (:mod:`site_pages`, each role,
realistic data) is slow, like its sibling in ``test_japanese_pages``.
"""

from __future__ import annotations

import re

import pytest

from tests.trainer.i18n.catalogs import ROOT, catalogs, entries
from tests.trainer.i18n.latin import latin_in, latin_runs
from tests.trainer.i18n.site_pages import demo_data, html_pages, japanese_pages

LESSONS = ROOT / "seeds/lessons/ja"
#: Catalog entries that name what a person types or a file holds (an engine error about a
#: play record names its JSON fields and words; the site names its query string).
CODE_WORDS: dict[str, set[str]] = {
    "a record needs its setup and its actions": {"setup", "actions"},
    "a record's actions are a list of text (7H, pass, force)": {"actions", "pass", "force"},
    "a setup needs a seed": {"seed"},
    "game must be true or false, not %(value)s": {"game", "true", "false"},
    "not an action: %(text)s (a card such as AS, pass or force)": {"pass", "force"},
    "A cookie contains a NUL character, which this site does not accept.": {"Cookie"},
    "No lessons are loaded yet. Run <code>python manage.py seed</code>.": {"code"},
}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd%]|<[^>]+>")


def _card_file_words() -> tuple[frozenset[str], frozenset[str]]:
    """The card check's messages (their English) and the words of a card file they may name:
    its fields, their values (items, rules, orders, suit relations), the reading's fields, and
    JSON's ``null``, ``true`` and ``false`` — what the card's author types, not words to
    translate."""
    import trainer.wording.catalog  # noqa: F401  (every message registered)
    from engine.messages import Plural, templates
    from engine.signals.cardfile import READING_FIELDS, card_schema

    messages = frozenset(
        t.one if isinstance(t, Plural) else t
        for k, t in templates().items()
        if k.startswith(("card.error.", "card.schema.", "card.at.", "card.invalid"))
    )
    names: set[str] = {"null", "true", "false", "ID", "S", "H", "D", "C", *READING_FIELDS}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            names.update(node.get("properties", {}))
            names.update(v for v in node.get("enum", ()) if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(card_schema())
    words = frozenset(w for name in names for w in re.findall(r"[A-Za-z]+", name))
    return messages, words


CARD_MESSAGES, CARD_FILE_WORDS = _card_file_words()


def _catalog_hits(path) -> list[str]:
    hits = []
    for entry in entries(path):
        if entry.context == "date format":
            continue
        allowed = CODE_WORDS.get(entry.msgid, set())
        if entry.msgid in CARD_MESSAGES:
            allowed = allowed | CARD_FILE_WORDS
        for msgstr in entry.msgstrs:
            text = _PLACEHOLDER.sub(" ", re.sub(r"<code>.*?</code>", " ", msgstr))
            found = [w for w in latin_in(text) if w not in allowed]
            if found:
                hits.append(f"{' '.join(found)!r} in {msgstr[:90]!r} ({entry.msgid[:50]!r})")
    return hits


@pytest.mark.parametrize("path", catalogs("ja"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_japanese_catalog_entry_keeps_english_words(path):
    hits = _catalog_hits(path)
    assert hits == [], f"Latin words in {path.relative_to(ROOT)}:\n" + "\n".join(hits)


def _lesson_prose(text: str) -> str:
    """A lesson's Markdown without its front matter's keys, example blocks' keys, code spans
    and link addresses: the words a reader sees."""
    body = text.split("---", 2)[2]
    body = re.sub(r"^```(\w+).*?^```", lambda m: _captions(m[0]), body, flags=re.S | re.M)
    body = re.sub(r"`[^`]*`", " ", body)
    body = re.sub(r"\]\([^)]*\)", "]", body)
    body = re.sub(r"\{#[\w-]+\}", " ", body)
    front = text.split("---", 2)[1]
    titles = re.findall(r"^(?:title|summary): (.*)$", front, flags=re.M)
    return "\n".join([*titles, body])


def _captions(block: str) -> str:
    return "\n".join(re.findall(r"^caption: (.*)$", block, flags=re.M))


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.md")), ids=lambda p: p.name)
def test_no_japanese_lesson_keeps_english_words(path):
    hits = []
    for paragraph in re.split(r"\n\s*\n", _lesson_prose(path.read_text(encoding="utf-8"))):
        text = " ".join(paragraph.split())
        found = latin_in(text)
        if found:
            hits.append(f"{' '.join(found)!r} in {text[:90]!r}")
    assert hits == [], f"Latin words in {path.name}:\n" + "\n".join(hits)


def test_the_check_finds_english_and_lets_notation_through():
    assert latin_in("クラシック得点 Straight 5") == ["Straight"]
    assert latin_in("… four of a kind のシグナルがありません") == ["four", "of", "a", "kind"]
    assert latin_in("N が出した") == ["N"]
    assert latin_in("A♠ 10♥ K♦、AS、A-2-3-4-5、10-J-Q-K-A、XX.XX、c1 → c2") == []
    assert latin_in("Concerto Trainer · Parlett 2008 · Teach Yourself 1994 · A4 · CSV") == []
    assert latin_in("キー：Enter で出す。P でパス、F で「プレイ！」。") == []
    card = '<span class="card"><span class="rank">Q</span><span class="suit">♥</span></span>'
    assert latin_runs(f"<p>クラシック<code>d=4</code><kbd>N</kbd>{card}</p>") == []
    assert latin_runs('<p lang="en">Straight</p><p title="Fours">4</p>') == ["'Fours' in 'Fours'"]
    assert latin_runs("<p>自陣の回 3。パートナーがA<span>♠</span>を出す</p>") == []


@pytest.mark.django_db
@pytest.mark.slow
def test_no_japanese_page_shows_latin_words(settings):
    settings.TRAINER_DEMO_DATA = True
    demo = demo_data({"nosuchkind"})  # a page quotes the unknown kind the address asked for
    pages = japanese_pages(demo)
    problems = {}
    for label, html in html_pages(pages).items():
        assert 'lang="ja"' in html[:300], f"{label} is not in Japanese"
        found = latin_runs(html, demo["allowed"])
        if found:
            problems[label] = sorted(set(found))
    report = "\n".join(f"{page}:\n    " + "\n    ".join(hits) for page, hits in problems.items())
    assert not problems, "Latin words on Japanese pages:\n" + report
