"""``{% load play_cards %}``: the table's card buttons.

``{% play_button c key %}`` draws a card face as a submit button that plays it: ``name="action"``
``value="7H"`` and the stable hook ``data-action="7H"``; ``key`` is its number key (1–9).
``{% seat_hands seat.completed seat.name %}`` draws the finished hands a seat led, face up in its
box on the table (``{% played_cards h.cards %}`` one hand's cards), and
``{% live_hand buttons %}`` a live seat's own cards. Every seat's frame of every move draws them,
so they are drawn here rather than by template loops (see each tag).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from engine.cards import DECK, Card
from trainer.core.game.suits import SUIT_CLASS
from trainer.core.templatetags.cards import card_face, card_label, drawn_cards, suits
from trainer.play.table_view import LogDeal, SeatHand
from trainer.wording.render import say
from trainer.wording.templatetags.wording import term

register = template.Library()


def _button(card: Card, key: int | None) -> SafeString:
    return format_html(
        '<button type="submit" class="card {}" name="action" value="{}" data-action="{}"{}>'
        "{}</button>",
        SUIT_CLASS[card.suit],
        str(card),
        str(card),
        format_html(' data-key="{}"', key) if key else "",
        card_face(card),
    )


def _mini(seat: str, card: Card) -> SafeString:
    return format_html(
        '<li><span class="card {} card-mini" title="{}">{}</span>'
        '<span class="play-by" aria-hidden="true">{}</span></li>',
        SUIT_CLASS[card.suit],
        card_label(card),
        card_face(card),
        seat,
    )


def _idle(card: Card) -> SafeString:
    return format_html(
        '<span class="card {} play-idle" title="{}">{}</span>',
        SUIT_CLASS[card.suit],
        card_label(card),
        card_face(card),
    )


@dataclass(frozen=True)
class _Drawn:
    """Every card's button (with and without a number key), small face and idle face, drawn
    once per language: the table draws many per request."""

    buttons: dict[tuple[Card, int | None], SafeString]
    minis: dict[tuple[str, Card], SafeString]
    idle: dict[Card, SafeString]


_DRAWN: dict[str, _Drawn] = {}


def _drawn() -> _Drawn:
    language = get_language() or "en"
    if language not in _DRAWN:
        _DRAWN[language] = _Drawn(
            buttons={(c, k): _button(c, k) for c in DECK for k in (None, *range(1, 10))},
            minis={(seat, c): _mini(term(seat, "seat_short"), c) for seat in "NESW" for c in DECK},
            idle={c: _idle(c) for c in DECK},
        )
    return _DRAWN[language]


@register.simple_tag
def play_button(card: Card, key: int | None = None) -> SafeString:
    return _drawn().buttons[(card, key if key and key < 10 else None)]


@register.filter
def lookup(mapping: dict[str, str], key: str) -> str:
    """``{{ names|lookup:"NS" }}``: a mapping's value for a key, or the key itself."""
    return mapping.get(key, key)


@register.simple_tag
def played_cards(cards: list[tuple[str, Card]]) -> SafeString:
    """A completed hand's cards, each small, with the seat that played it beneath (its short
    name in the active language: ``N`` in English, 北 in Japanese)."""
    minis = _drawn().minis
    return mark_safe("".join(minis[(seat, c)] for seat, c in cards))  # noqa: S308 - built by format_html


@register.simple_tag
def seat_hands(hands: Sequence[SeatHand], seat_name: str) -> SafeString:
    """The finished hands a seat led (``seat_name``), face up in its box on the table: each
    hand's number, combination and points, and its cards with the seat that played each.
    Drawn here rather than by template loops: every seat's frame of every live move draws all
    of them, and their two translated strings a hand were most of the frame's rendering."""
    minis = _drawn().minis
    items = []
    for h in hands:
        fields = {
            "number": h.number,
            "seat": seat_name,
            "combination": h.combination_text,
            "side": h.side_name,
            "points": h.points,
        }
        label = gettext("Hand %(number)s · %(combination)s %(points)s") % fields
        aria = (
            ngettext(
                "Hand %(number)s, led by %(seat)s: %(combination)s for %(side)s, %(points)s point",
                "Hand %(number)s, led by %(seat)s: %(combination)s for %(side)s, %(points)s points",
                h.points,
            )
            % fields
        )
        cards = "".join(minis[(seat, c)] for seat, c in h.cards)
        items.append(
            format_html(
                '<div class="play-completed d{}{}" data-hand="{}">\n'
                '        <span class="play-completed-label">{}</span>\n'
                '        <ul class="hand play-mini" aria-label="{}">{}</ul>\n      </div>',
                h.delay,
                " play-step" if h.delay else "",
                h.number,
                label,
                aria,
                mark_safe(cards),  # noqa: S308 - each card was drawn by format_html
            )
        )
    return mark_safe("".join(items))  # noqa: S308 - each item was built by format_html


@register.simple_tag
def hand_log(log: Sequence[LogDeal], deals_named: bool) -> SafeString:
    """The hand log's lines, deal by deal (each deal headed when ``deals_named``): every
    finished hand's line, shown at its step (``delay``) on the solo table. Drawn here for the
    same reason as :func:`seat_hands`; the board draws it once and shows it twice (beside the
    table, and folded under it on a phone)."""
    parts = []
    for deal in log:
        if deals_named:
            parts.append(
                format_html(
                    '<h3 class="play-log-deal">{}</h3>',
                    gettext("Deal %(number)s") % {"number": deal.deal_number},
                )
            )
        lines = "".join(
            format_html(
                '<li class="{}" data-log-line="{}:{}">{}</li>',
                f"play-step d{line.delay}" if line.delay else "",
                deal.deal_number,
                line.hand_number,
                suits(say(line.text)),
            )
            for line in deal.lines
        )
        parts.append(format_html('\n    <ul class="play-log-lines">{}</ul>', mark_safe(lines)))  # noqa: S308 - built by format_html
    return mark_safe("".join(parts))  # noqa: S308 - each part was built by format_html


@register.simple_tag
def south_hand(hand: list[dict[str, object]]) -> SafeString:
    """South's cards as list items: a button for each card South may play now (with its
    number key), the card face alone for the others."""
    drawn = _drawn()
    items = []
    for h in hand:
        card = h["card"]
        assert isinstance(card, Card)
        key = h.get("key")
        inner = (
            drawn.buttons[(card, key if isinstance(key, int) and key < 10 else None)]
            if h["legal"]
            else drawn.idle[card]
        )
        items.append(f"<li>{inner}</li>")
    return mark_safe("".join(items))  # noqa: S308 - each piece was built by format_html


@register.simple_tag
def live_hand(buttons: Sequence[tuple[Card, bool]]) -> SafeString:
    """A live seat's own cards: a button that plays each legal one (``data-action``), the
    face alone for the others."""
    drawn = drawn_cards()
    return mark_safe(  # noqa: S308 - built by format_html
        "".join(
            format_html(
                '<button type="submit" name="action" value="{}" class="card-button" '
                'data-action="{}">{}</button>',
                str(c),
                str(c),
                drawn[c],
            )
            if legal
            else format_html('<span class="card-button" aria-disabled="true">{}</span>', drawn[c])
            for c, legal in buttons
        )
    )


@register.filter
def spaced(name: object) -> str:
    """``three_pairs`` → ``three pairs``: an engine name in words."""
    return str(name).replace("_", " ")
