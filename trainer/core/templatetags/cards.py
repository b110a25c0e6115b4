"""Template tags that draw cards: ``{% load cards %}``.

``{% card c %}`` draws a card face (a span with the rank, the suit symbol and a text label for
screen readers); ``{% card_button c name="c1" %}`` draws the same face as a submit button.
``{{ text|suits }}`` wraps suit symbols in running text so they take the suit's colour.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from engine import drills
from engine.cards import DECK, Card
from trainer.core.suits import SUIT_CLASS, SYMBOL_CLASS

register = template.Library()


def _face(card: Card) -> SafeString:
    rank = "10" if card.rank == 10 else card.rank_char
    return format_html(
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span>',
        rank,
        card.suit.symbol,
        card.label,
    )


#: The inside of each card, drawn once: every page shows many cards.
_FACES = {c: _face(c) for c in DECK}
_CARDS = {
    c: format_html(
        '<span class="card {}" title="{}">{}</span>', SUIT_CLASS[c.suit], c.label, _FACES[c]
    )
    for c in DECK
}


@register.simple_tag
def card(c: Card, extra: str = "") -> SafeString:
    if not extra:
        return _CARDS[c]
    return format_html(
        '<span class="card {} {}" title="{}">{}</span>',
        SUIT_CLASS[c.suit],
        extra,
        c.label,
        _FACES[c],
    )


@register.simple_tag
def card_button(c: Card, name: str, selected: bool = False, key: str = "") -> SafeString:
    return format_html(
        '<button type="submit" class="card {}" name="{}" value="{}" aria-pressed="{}"{}>'
        "{}</button>",
        SUIT_CLASS[c.suit],
        name,
        str(c),
        "true" if selected else "false",
        format_html(' data-key="{}"', key) if key else "",
        _FACES[c],
    )


@register.simple_tag
def hand(cards: list[Card], label: str = "") -> SafeString:
    items = format_html_join("", "<li>{}</li>", ((card(c),) for c in cards))
    return format_html('<ul class="hand" aria-label="{}">{}</ul>', label or "Cards", items)


_SYMBOL = re.compile("([♠♥♦♣])")


@register.filter
def suits(text: str) -> SafeString:
    """Colour the suit symbols in escaped text."""
    escaped = str(format_html("{}", text))
    return mark_safe(  # noqa: S308 - the text was escaped above; only our spans are added
        _SYMBOL.sub(
            lambda m: f'<span class="suit-symbol {SYMBOL_CLASS[m[1]]}">{m[1]}</span>', escaped
        )
    )


@register.filter
def answer_words(attempt) -> str:
    """An attempt's answer in words (``{{ attempt|answer_words }}``)."""
    return drills.answer_words(attempt.kind, attempt.answer)


@register.filter
def percent(value: float | None) -> str:
    return "–" if value is None else f"{round(100 * value)}%"
