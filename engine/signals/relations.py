"""How two played cards relate: distance, direction and suit relation.

These are the words of the convention card (``docs/signals.md``, *Words*)::

    >>> from engine.cards import card
    >>> rel = signal_relations(card("AS"), card("5S"))
    >>> rel.suit, rel.distance, rel.direction, rel.in_range
    ('same_suit', 4, 'up', True)

The Ace counts 1 when that puts the pair in range (A then 5 is *up*, distance 4) and 14
otherwise (A then K is *down*, distance 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DECK, Card, Suit, require_card
from engine.messages import Msg, register_words

__all__ = [
    "SUIT_RELATIONS",
    "SignalRelations",
    "rank_distance",
    "signal_relations",
]

#: The three suit relations of two cards, in the order of the cheat-sheet columns.
SUIT_RELATIONS: tuple[str, ...] = ("same_suit", "same_colour", "different_colour")

#: The largest distance that is still "in range" (both ranks fit in one straight).
IN_RANGE = 4


def rank_distance(x: int, y: int) -> int:
    """The smaller of ``|x - y|`` with an Ace (14) counted 14 and counted 1.

    >>> rank_distance(14, 5), rank_distance(14, 13), rank_distance(4, 4)
    (4, 1, 0)
    """
    d = abs(x - y)
    if x == 14 or y == 14:
        lx = 1 if x == 14 else x
        ly = 1 if y == 14 else y
        d = min(d, abs(lx - ly))
    return d


def suit_relation(s1: Suit, s2: Suit) -> str:
    """``same_suit``, ``same_colour`` (different suits) or ``different_colour``."""
    if s1 == s2:
        return "same_suit"
    return "same_colour" if s1.is_red == s2.is_red else "different_colour"


@dataclass(frozen=True, slots=True)
class SignalRelations:
    """What a learner needs to see in a signal.

    ``direction`` is ``"up"``, ``"down"`` or ``None`` (same rank, or a card-and-pass signal);
    ``low1`` and ``low2`` are the rank values the direction was judged with (an Ace as 1 or 14).
    For a card-and-pass signal everything but ``passes`` is empty.
    """

    passes: bool
    suit: str | None
    distance: int | None
    direction: str | None
    value1: int
    value2: int | None

    @property
    def same_rank(self) -> bool:
        return self.distance == 0

    @property
    def in_range(self) -> bool:
        return self.distance is not None and 1 <= self.distance <= IN_RANGE

    @property
    def out_of_range(self) -> bool:
        return self.distance is not None and self.distance > IN_RANGE

    @property
    def range_class(self) -> str | None:
        """``same_rank``, ``in_range`` or ``out_of_range`` (the cheat-sheet rows)."""
        if self.distance is None:
            return None
        if self.distance == 0:
            return "same_rank"
        return "in_range" if self.distance <= IN_RANGE else "out_of_range"

    def describe(self) -> str:
        """A short phrase: ``same suit, up, 4 apart, in range`` (a message)."""
        if self.passes:
            return Msg("relations.pass")
        suit = Msg(f"sheet.{self.suit}")
        if self.distance == 0:
            return Msg("relations.same_rank", suit=suit)
        return Msg(
            "relations.apart",
            suit=suit,
            direction=Msg(f"relations.{self.direction}"),
            n=self.distance or 0,
            range=Msg("sheet.in_range" if self.in_range else "sheet.out_of_range"),
        )


def _compute(c1: Card, c2: Card | None) -> SignalRelations:
    if c2 is None:
        return SignalRelations(True, None, None, None, c1.rank, None)
    d = rank_distance(c1.rank, c2.rank)
    v1, v2 = c1.rank, c2.rank
    if d and d <= IN_RANGE:
        # An Ace counts 1 when that is what puts the pair in range.
        if v1 == 14 and abs(1 - v2) == d:
            v1 = 1
        elif v2 == 14 and abs(v1 - 1) == d:
            v2 = 1
    direction = None if d == 0 else ("up" if v2 > v1 else "down")
    return SignalRelations(False, suit_relation(c1.suit, c2.suit), d, direction, v1, v2)


_TABLE: list[SignalRelations] = [_compute(a, b) for a in DECK for b in (*DECK, None)]


def signal_relations(c1: Card, c2: Card | None) -> SignalRelations:
    """The relations of the signal ``c1`` then ``c2`` (``None``: c1 and pass).

    >>> from engine.cards import card
    >>> signal_relations(card("AH"), card("KH")).direction
    'down'
    """
    try:
        return _TABLE[c1.index * 53 + (52 if c2 is None else c2.index)]
    except (AttributeError, TypeError):
        require_card(c1, "signal_relations")
        require_card(c2, "signal_relations")
        raise


register_words(
    {
        "relations.pass": "one card, then pass",
        "relations.same_rank": "%(suit)s, same rank",
        "relations.apart": "%(suit)s, %(direction)s, %(n)s apart, %(range)s",
        "relations.up": "up",
        "relations.down": "down",
    }
)
