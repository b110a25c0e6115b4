"""Every engine message renders in English and in Japanese through the catalogs: thousands of
random drills of every kind (both conventions, both scoring rules) and the coach's lines over
whole deals. English through Django is the engine's own English; Japanese has every id
translated, every field filled and no English word beyond card notation."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from engine.cards import card
from engine.drills import KINDS
from engine.messages import Cards, Msg, Term, Text
from tests.trainer.wording.helpers import (
    SETTINGS,
    drill_output,
    english_words,
    is_message,
    play_output,
    random_drills,
)
from trainer.wording.render import say

UNFILLED = re.compile(r"%\(|%s|\{\w*\}")
CARD = re.compile(r"(?:10|[2-9AKQJ])[♠♥♦♣]")
#: Drills per kind, convention and scoring rule: 5 kinds x 4 settings x 60 = 1200 drills.
PER_SETTING = 60


def check(value: object, where: object) -> tuple[str, str]:
    with translation.override("en"):
        english = say(value)
    with translation.override("ja"):
        japanese = say(value)
    assert english == str(value), where  # Django's English is the engine's English
    assert not UNFILLED.search(japanese), (where, japanese)
    if is_message(value):
        assert english_words(japanese) == [], (where, english, japanese)
        # No field dropped: the same cards are named in both languages.
        assert sorted(CARD.findall(japanese)) == sorted(CARD.findall(english)), (where, japanese)
        assert japanese != english or not english_words(english), (where, english)
    return english, japanese


@pytest.mark.slow
def test_thousands_of_random_drills_render_in_both_languages():
    count = messages = 0
    for drill in random_drills(PER_SETTING):
        count += 1
        for value in drill_output(drill):
            messages += is_message(value)
            check(value, (drill.kind, drill.seed, drill.params.key()))
    assert count == PER_SETTING * len(KINDS) * len(SETTINGS) and messages > 5 * count


@pytest.mark.slow
def test_the_coach_at_the_table_renders_in_both_languages():
    lines = 0
    for value in play_output(deals=2):
        lines += 1
        assert is_message(value), value
        check(value, "play")
    assert lines > 20


def test_a_message_in_japanese_keeps_its_cards_and_reorders_its_fields():
    m = Msg("signal.two_cards", c1=Cards((card("7H"),)), c2=Cards((card("9H"),)))
    with translation.override("ja"):
        text = say(m)
    assert text == "パートナーが7♥をリードし、あなたがパス、パートナーが9♥を出しました。"


def test_terms_and_plurals_use_the_term_table():
    with translation.override("ja"):
        assert say(Msg("term", term=Term("item", "four_sf"))) == "ストレートフラッシュ4枚"
        assert say(Msg("term", term=Term("suit", "diamonds"))) == "ダイアモンド"
        assert say(Msg("term", term=Term("ranks", "10"))) == "10"
        assert say(Msg("points", n=1)) == say(Msg("points", n=1)) == "1点"
        assert say(Msg("points", n=5)) == "5点"
        assert say(Msg("with_shape", title=Term("item", "three_sf"), shape=Text("XX.X"))) == (
            "ストレートフラッシュ3枚（XX.X）"
        )
    with translation.override("en"):
        assert say(Msg("points", n=5)) == "5 points"


def test_plain_text_and_nothing_pass_through():
    with translation.override("ja"):
        assert say("12") == "12" and say(None) == ""


def test_the_filter_colours_suits_and_escapes():
    from trainer.wording.templatetags.wording import say as say_filter
    from trainer.wording.templatetags.wording import term

    with translation.override("ja"):
        html = say_filter(Msg("reply.play", cards=Cards((card("7H"),))))
        assert "suit-symbol" in html and "を出す" in html
        assert str(say_filter("<b>")) == "&lt;b&gt;"
        assert term("N", "seat") == "北" and term("nope", "seat") == "nope"


def test_readings_advice_relations_and_the_cheat_sheet_render_in_both_languages():
    from engine.cards import DECK
    from engine.signals import CONVENTIONS, cheatsheet, decode, reply_advice, signal_relations

    hand = [card("5H"), card("6H"), card("9C"), card("9D"), card("KS")]
    for convention in CONVENTIONS.values():
        for c1 in DECK[::5]:
            for c2 in (*DECK[1::3], None):
                if c2 is c1 or c2 in hand or c1 in hand:
                    continue
                check(signal_relations(c1, c2).describe(), (c1, c2))
                for side_hand in (1, 3):
                    for reading in decode(c1, c2, side_hand, convention):
                        check(reading.text, (c1, c2, side_hand))
                    advice = reply_advice(hand, c1, c2, side_hand, convention)
                    check(advice.reason, (c1, c2, side_hand))
        sheet = cheatsheet(convention)
        for value in (*sheet.columns, sheet.pass_signals):
            check(value, convention.name)
        for row in sheet.grid:
            for value in (row.label, *row.cells):
                check(value, convention.name)
        for line in sheet.checklist:
            check(line.title, convention.name)
        for r in sheet.rows:
            for value in (r.suit_relation, r.rank_relation, r.cards, r.note):
                check(value, (convention.name, r.id))
