"""The cheat sheet page in Japanese: every word of the sheet (grid, checklist, encoding rows,
the page's own words) comes from the catalogs, none left in English but card notation and
the cards' names; in English it reads as before."""

from __future__ import annotations

import re

import pytest

from engine.signals import CONVENTIONS
from tests.trainer.wording.helpers import english_words


def _sheet_text(html: str) -> str:
    """The printed sheet's text: from the sheet to the (screen-only) worked examples, or to
    the end of the page's content when their statistics are not stored."""
    sheet = html[html.index('<div class="sheet">') :]
    sheet = sheet.split('<section class="sheet-odds', 1)[0].split("</main>", 1)[0]
    sheet = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", sheet, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", sheet).split())


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_japanese_sheet_has_no_english_words(client, convention):
    response = client.get(f"/cheatsheet/?convention={convention}", HTTP_ACCEPT_LANGUAGE="ja")

    text = _sheet_text(response.text)
    assert response.status_code == 200
    assert "コンチェルトのシグナル" in text and "リードする人のチェックリスト" in text
    assert english_words(text) == []


def test_the_english_sheet_keeps_its_words(client):
    response = client.get("/cheatsheet/", HTTP_ACCEPT_LANGUAGE="en")

    text = _sheet_text(response.text)
    assert "Concerto signals" in text and "Reading the two cards" in text
    assert "five to a straight flush (up)" in text
    assert "strong round (1–2): strong, fours table, weak" in text
    assert "lowest then highest of the five" in text
