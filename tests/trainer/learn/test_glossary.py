"""The glossary page (``/glossary/``): every game and card term in English and Japanese."""

import re
from html import unescape

import pytest
from django.conf import settings

from engine.scoring import Combination
from engine.signals import CONVENTIONS
from engine.signals.conventions import SF_SHAPES
from trainer.learn import glossary

pytestmark = pytest.mark.django_db
TERMS_DOC = settings.BASE_DIR / "docs" / "i18n-terms.md"
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _rows(html: str) -> dict[str, str]:
    """Term id → the visible text of its row."""
    return {
        term: " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())
        for term, row in re.findall(r'<tr id="[^"]+" data-term="([^"]+)">(.*?)</tr>', html, re.S)
    }


def _doc_pairs() -> set[tuple[str, str]]:
    """(English, 日本語) of every row of the term table."""
    pairs = set()
    for line in TERMS_DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= {"-"}:
            pairs.add((cells[0], cells[1]))
    return pairs


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_every_checklist_item_of_every_convention_is_in_the_glossary(client, convention):
    rows = _rows(client.get("/glossary/", **EN).text)
    for item in [*CONVENTIONS[convention].checklist, "none"]:
        term = glossary.terms()[f"item:{item}"]
        assert f"item:{item}" in rows, item
        assert term.names["en"] in rows[f"item:{item}"]
        assert term.names["ja"] in rows[f"item:{item}"]


def test_every_scored_combination_and_straight_flush_shape_is_in_the_glossary():
    ids = set(glossary.terms())
    assert {f"combination:{c.value}" for c in Combination} <= ids
    assert {f"shape:{s}" for shapes in SF_SHAPES.values() for s in shapes} <= ids
    for word in ("pass", "play-force", "side-hand", "strong-round", "weak-round", "left-overs"):
        assert word in ids
    for word in ("spades", "hearts", "diamonds", "clubs", "ace", "king", "queen", "jack"):
        assert word in ids
    for word in ("classic-scoring", "contribution-scoring", "left-over-bonus", "game-bonus"):
        assert word in ids


def test_glossary_in_english_shows_both_names_and_english_definitions(client):
    response = client.get("/glossary/", **EN)
    rows = _rows(response.text)

    assert response.status_code == 200
    assert "<h1>Glossary</h1>" in response.text
    assert rows["item:four_sf"].startswith("Four to a straight flush ストレートフラッシュ4枚")
    assert "four cards of one suit inside one window" in rows["item:four_sf"]
    assert '<th scope="col" lang="ja">日本語</th>' in response.text
    assert '<th scope="col" lang="en">English</th>' in response.text


def test_glossary_in_japanese_defines_terms_in_japanese(client):
    response = client.get("/glossary/", **JA)
    rows = _rows(response.text)

    assert response.status_code == 200
    assert "<h1>用語集</h1>" in response.text
    # The page's language leads: the Japanese name first, then the English one.
    assert rows["item:four_sf"].startswith("ストレートフラッシュ4枚 Four to a straight flush")
    assert response.text.index('<th scope="col" lang="ja">') < response.text.index(
        '<th scope="col" lang="en">'
    )
    assert "同じスートの4枚が一つのウィンドウ内にある" in rows["item:four_sf"]
    assert "four cards of one suit inside one window" not in rows["item:four_sf"]
    assert "パス" in rows["pass"] and "「プレイ！」" in rows["play-force"]


def test_every_term_has_a_name_and_a_definition_in_each_language():
    for term in glossary.terms().values():
        for code in ("en", "ja"):
            assert term.names.get(code), (term.id, code)
            assert term.definitions.get(code), (term.id, code)
        if not term.notation:
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", term.definitions["ja"]), term.id


def test_glossary_names_are_the_terms_of_the_term_table():
    """docs/i18n-terms.md and the glossary name every term the same way."""
    pairs = _doc_pairs()
    for term in glossary.terms().values():
        if not term.notation:
            assert (term.names["en"], term.names["ja"]) in pairs, term.id


def test_a_language_without_glossary_words_falls_back_to_english():
    term = glossary.terms()["item:two_threes"]

    assert term.name("fr") == "Two threes" and term.name("ja") == "スリーカード2組"
    assert term.definition("fr") == term.definitions["en"]


def test_glossary_ids_are_unique_and_anchors_too(client):
    html = client.get("/glossary/", **EN).text
    ids = re.findall(r'\bid="([^"]+)"', html)

    assert len(ids) == len(set(ids))
    assert sum(len(g.terms) for g in glossary.groups()) == len(glossary.terms())


def test_the_lessons_page_links_to_the_glossary_under_learn(client):
    english = client.get("/learn/", **EN).text
    japanese = client.get("/learn/", **JA).text
    assert re.search(r'<a class="button button-secondary" href="/glossary/">Glossary</a>', english)
    assert re.search(r'<a class="button button-secondary" href="/glossary/">用語集</a>', japanese)
    # The glossary belongs to the Learn section of the main navigation.
    nav = client.get("/glossary/", **EN).text.split('aria-label="Main"')[1].split("</nav>")[0]
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', nav) == ["/learn/"]
