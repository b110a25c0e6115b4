"""One term per idea: the glossary's Japanese name is the word, everywhere.

Each glossary term lists the other words for the same idea that the project does not use
(``avoid`` in ``trainer/learn/glossary.yaml``: 持ち札 for 手札, 合図 for シグナル, ランク差 and
``d=4`` for 間隔, 自分の側の回 for 自陣の回, 「カード」 alone for the convention, suit-first
card notation …). No Japanese catalog entry, lesson or glossary definition may use one.
"""

from __future__ import annotations

import re

import pytest

from tests.trainer.i18n.catalogs import ROOT, catalogs, entries
from trainer.learn import glossary

LESSONS = ROOT / "seeds/lessons/ja"


def _avoided() -> list[tuple[str, str, re.Pattern[str]]]:
    """(term id, its Japanese name, a pattern of a word not to use instead)."""
    return [
        (term.id, term.name("ja"), re.compile(word))
        for term in glossary.terms().values()
        for word in term.avoid.get("ja", ())
    ]


def _texts() -> list[tuple[str, str]]:
    """(where, Japanese text) for every msgstr of every ja catalog, every Japanese lesson and
    every Japanese glossary definition."""
    out = []
    for path in catalogs("ja"):
        for entry in entries(path):
            for text in entry.msgstrs:
                out.append((f"{path.relative_to(ROOT)}: {entry.msgid[:40]!r}", text))
    for path in sorted(LESSONS.glob("*.md")):
        text = re.sub(r"`[^`\n]*`", "", path.read_text(encoding="utf-8"))
        lines = enumerate(text.split("\n"), 1)
        out += [(f"{path.relative_to(ROOT)}:{n}", line) for n, line in lines]
    for term in glossary.terms().values():
        out.append((f"glossary {term.id}", term.definition("ja")))
    return out


def test_every_avoided_word_is_a_pattern_and_not_the_term_itself():
    found = _avoided()
    assert len(found) >= 10
    for term_id, name, pattern in found:
        assert not pattern.search(name), (term_id, pattern.pattern)


def test_no_japanese_text_uses_a_word_the_glossary_avoids():
    hits = [
        f"{where}: {pattern.pattern!r} (say {name}) in {text[:70]!r}"
        for where, text in _texts()
        for _term, name, pattern in _avoided()
        if pattern.search(text)
    ]
    assert hits == [], "Words the glossary avoids:\n" + "\n".join(hits)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("持ち札のうち", "held-cards"),
        ("フォーカードと同じ合図", "signal"),
        ("4ランク差", "distance"),
        ("上向き、d=4", "distance"),
        ("自分の側の回 1", "side-hand"),
        ("パートナーの3回目の回で", "side-hand"),
        ("1994年版のカード", "convention"),
        ("Parlett 2008カードから生成", "convention"),
        ("カードの推奨するプレイ", "convention"),
        ("出す ♥6", "card-notation"),
        ("デイヴィッド・パーレット", "author"),
    ],
)
def test_the_check_finds_each_variant_the_issue_named(text, term):
    assert any(p.search(text) for t, _name, p in _avoided() if t == term), (text, term)
