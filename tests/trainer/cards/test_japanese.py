"""The card editor in Japanese: rows are named by their item and shape (the id is a tooltip),
the checker's errors and the diff's changes are in the page's language."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from trainer.cards.models import ClubCard

from ..factories import user
from ..wording.helpers import english_words
from .factories import club_owner, form_post

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja", "HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client):
    organiser = user("olive")
    client.force_login(organiser)
    client.owner = club_owner(organiser)
    return client


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _check(client, **changes):
    url = reverse("cards:check-new") + f"?club={client.owner.club.slug}&from=parlett-2008"
    return client.post(url, form_post(**changes), **JA)


def test_an_error_names_its_row_in_japanese_with_the_id_as_a_tooltip(signed_in):
    page = _check(signed_in, **{"row:fours:dmin": "5", "row:fours:dmax": "2"})
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-row="fours"' in html and 'title="fours" data-file-id>フォーカード</span>：' in html
    assert "間隔は小さい数から大きい数へ（0〜12）指定してください。5〜2にはできません" in html
    assert not english_words(_text(html)), english_words(_text(html))
    assert ClubCard.objects.count() == 0


def test_saving_an_invalid_card_says_why_in_japanese(signed_in):
    url = reverse("cards:new") + f"?club={signed_in.owner.club.slug}&from=parlett-2008"
    post = form_post(title="Ours", **{"row:two_pair:dmin": "9", "row:two_pair:dmax": "3"})
    page = signed_in.post(url, post, HTTP_ACCEPT_LANGUAGE="ja")
    html = page.content.decode()
    assert page.status_code == 400 and ClubCard.objects.count() == 0
    # two_pair has three rows: the first is numbered among them.
    assert "ツーペア・1行目：間隔は" in html
    assert "row 'two_pair'" not in html


def test_the_editor_names_rows_and_changes_in_japanese(signed_in):
    page = _check(signed_in, **{"row:two_threes:suits": "different_suits"})
    html = page.content.decode()
    assert (
        'title="two_threes" data-file-id>スリーカード2組</span>：<span class="cards-change">スート'
        in html
    )
    assert "pattern.suits" not in html and "different_suits" not in html
    editor = signed_in.get(
        reverse("cards:new") + f"?club={signed_in.owner.club.slug}&from=parlett-2008",
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    legends = re.findall(r"<legend>(.*?)</legend>", editor, flags=re.S)
    assert legends and not any("<code>" in legend for legend in legends)
    assert any('title="four_sf:XXX.X"' in legend for legend in legends)
    assert not english_words(_text(" ".join(legends))), english_words(_text(" ".join(legends)))


def test_a_drill_that_cannot_be_built_says_why_in_japanese():
    from django.utils import translation

    from engine.drills import DrillParams
    from engine.drills.build import _make_drill
    from engine.errors import ConcertoError
    from trainer.wording.errors import sentence

    with pytest.raises(ConcertoError) as caught:
        _make_drill("score", 3, DrillParams(items=("four_flush",)))
    assert str(caught.value) == (
        "the card Parlett 2008 has no drill “Score the cards” for four to a flush"
    )
    with pytest.raises(ConcertoError) as too_many:
        _make_drill("lead", 3, DrillParams(side_hand=1, hand_size=5))
    with translation.override("ja"):
        said = sentence(caught.value) + sentence(too_many.value)
    assert said.startswith(
        "コンベンションParlett 2008には、フラッシュ4枚の「カードの得点を数える」"
    )
    assert "自陣の回1でリードする人の手札は13〜13枚" in said
    assert not english_words(said.replace("Parlett", "")), said
