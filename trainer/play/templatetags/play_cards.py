"""``{% load play_cards %}``: the table's card buttons.

``{% play_button c key %}`` draws a card face as a submit button that plays it: ``name="action"``
``value="7H"`` and the stable hook ``data-action="7H"``; ``key`` is its number key (1–9).
``{% live_log v.completed %}``, ``{% live_seats shown %}`` and ``{% live_hand buttons %}`` draw a
live table's finished hands, who sits where and the seat's own cards. Every seat's frame of every
move draws them, so they are drawn here rather than by template loops (see each tag).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from engine.cards import DECK, Card
from engine.play import ShownHand
from trainer.core.game.suits import SUIT_CLASS
from trainer.core.templatetags.cards import card_face, card_label, drawn_cards
from trainer.wording.templatetags.wording import term

if TYPE_CHECKING:
    from trainer.play.live import LiveShown

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
            minis={(seat, c): _mini(seat, c) for seat in "NESW" for c in DECK},
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
    """A completed hand's cards, each small, with the seat that played it beneath."""
    minis = _drawn().minis
    return mark_safe("".join(minis[(seat, c)] for seat, c in cards))  # noqa: S308 - built by format_html


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
def live_log(completed: Sequence[ShownHand]) -> SafeString:
    """A live table's finished hands as list items: ``Hand 3: <cards>``. Drawn here rather
    than by nested template loops: every seat's frame of every move draws it, and the loops
    were about two fifths of the frame's rendering by the end of a deal."""
    drawn, title = drawn_cards(), gettext("Hand %(number)s")
    items = []
    for hand in completed:
        cards = "".join(drawn[c] for _, c in hand.cards)
        named = title % {"number": hand.number}
        items.append(format_html("<li>{}: {}</li>", named, mark_safe(cards)))  # noqa: S308 - drawn by format_html
    return mark_safe("".join(items))  # noqa: S308 - each item was built by format_html


@register.simple_tag
def live_seats(shown: LiveShown) -> SafeString:
    """A live table's "who sits where" list items: each seat's name, bot or player, presence
    and whose turn it is. Its template form was two fifths of a frame's rendering."""
    items = []
    for line in shown.seats:
        classes = (
            "live-seat"
            + (" mine" if line.mine else "")
            + (" to-move" if shown.to_move == line.seat else "")
        )
        who = (
            format_html('<span class="pill">{}</span>', gettext("bot"))
            if line.bot
            else SafeString()
        )
        if line.name:
            who += format_html(" {}", line.name)
        if line.mine:
            who += format_html(' <span class="muted">({})</span>', gettext("you"))
        presence = (
            format_html(
                '<span class="live-presence" data-connected="{}">{}</span>',
                "1" if line.connected else "0",
                ("● " + gettext("connected"))
                if line.connected
                else ("○ " + gettext("not connected")),
            )
            if not line.bot
            else ""
        )
        away = (
            format_html('<span class="muted">{}</span>', gettext("(a bot plays for now)"))
            if line.away
            else ""
        )
        items.append(
            format_html(
                '<li class="{}" data-seat-line="{}">\n      <strong>{}</strong>\n      {}\n'
                "      {}\n      {}\n    </li>",
                classes,
                str(line.seat),
                term(str(line.seat), "seat"),
                who,
                presence,
                away,
            )
        )
    return mark_safe("".join(items))  # noqa: S308 - each item was built by format_html


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
