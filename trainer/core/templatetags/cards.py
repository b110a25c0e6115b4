"""Template tags that draw cards: ``{% load cards %}``.

``{% card c %}`` draws a card face (a span with the rank, the suit symbol and a text label for
screen readers); ``{% card_button c name="c1" %}`` draws the same face as a submit button.
``{{ text|suits }}`` wraps suit symbols in running text so they take the suit's colour.
"""

from __future__ import annotations

import re
from typing import Protocol

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext_lazy

from engine import drills
from engine.cards import DECK, Card
from trainer.core.game.suits import SUIT_CLASS, SYMBOL_CLASS

register = template.Library()


#: Rank and suit words for a card's spoken label, translated in the page's language.
_RANK_WORDS = {
    11: pgettext_lazy("rank", "Jack"),
    12: pgettext_lazy("rank", "Queen"),
    13: pgettext_lazy("rank", "King"),
    14: pgettext_lazy("rank", "Ace"),
}
_SUIT_WORDS = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}


def card_label(card: Card) -> str:
    """Words for screen readers in the active language: ``Ace of spades``, ``スペードのエース``."""
    rank = str(_RANK_WORDS.get(card.rank, card.rank))
    return gettext("%(rank)s of %(suit)s") % {"rank": rank, "suit": _SUIT_WORDS[card.suit.char]}


def card_face(card: Card) -> SafeString:
    """A card's rank and suit as shown, with its name for screen readers (in the page's
    language)."""
    rank = "10" if card.rank == 10 else card.rank_char
    return format_html(
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span>',
        rank,
        card.suit.symbol,
        card_label(card),
    )


#: The inside and the whole of each card, drawn once per language: every page shows many cards.
_FACES: dict[str, dict[Card, SafeString]] = {}
_CARDS: dict[str, dict[Card, SafeString]] = {}


def _faces() -> dict[Card, SafeString]:
    language = get_language() or "en"
    if language not in _FACES:
        _FACES[language] = {c: card_face(c) for c in DECK}
    return _FACES[language]


def drawn_cards() -> dict[Card, SafeString]:
    """Every card as ``{% card c %}`` draws it, in the active language: for tags that draw
    many (the language is looked up once, not once per card)."""
    return _cards()


def _cards() -> dict[Card, SafeString]:
    language = get_language() or "en"
    if language not in _CARDS:
        faces = _faces()
        _CARDS[language] = {
            c: format_html(
                '<span class="card {}" title="{}">{}</span>',
                SUIT_CLASS[c.suit],
                card_label(c),
                faces[c],
            )
            for c in DECK
        }
    return _CARDS[language]


@register.simple_tag
def card(c: Card, extra: str = "") -> SafeString:
    if not extra:
        return _cards()[c]
    return format_html(
        '<span class="card {} {}" title="{}">{}</span>',
        SUIT_CLASS[c.suit],
        extra,
        card_label(c),
        _faces()[c],
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
        _faces()[c],
    )


@register.simple_tag
def hand(cards: list[Card], label: str = "") -> SafeString:
    items = format_html_join("", "<li>{}</li>", ((card(c),) for c in cards))
    return format_html('<ul class="hand" aria-label="{}">{}</ul>', label or gettext("Cards"), items)


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


class Answered(Protocol):
    """What an answer in words needs of a stored answer (an Attempt)."""

    kind: str
    answer: str


@register.filter
def answer_words(attempt: Answered) -> str:
    """An attempt's answer in words (``{{ attempt|answer_words }}``)."""
    return drills.answer_words(attempt.kind, attempt.answer)


@register.filter
def percent(value: float | None) -> str:
    """A share as a whole percentage in the page's number format (``–`` when unknown)."""
    return "–" if value is None else f"{number_format(round(100 * value))}%"
