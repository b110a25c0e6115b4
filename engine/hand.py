"""A hand: an immutable set of cards that parses from and prints to card notation.

>>> hand = Hand.parse("KS 10d AS")
>>> str(hand), len(hand), Card.parse("TD") in hand
('AS KS TD', 3, True)
>>> hand
Hand.parse('AS KS TD')
>>> Hand.parse("AS KS") <= hand, str(hand - Hand.parse("AS"))
(True, 'KS TD')

A :class:`Hand` is an :class:`~collections.abc.Iterable` of cards, so every engine function
taking cards takes one (and reads its bit mask directly).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet

from engine.cards import Card, cards_mask, format_cards, iter_cards, parse_cards

__all__ = ["Hand"]


class Hand(AbstractSet[Card]):
    """An immutable set of cards, iterated (and printed) in display order: by suit ♠♥♦♣, high to
    low inside a suit. Equal hands hold the same cards; hands hash, so they can key a dict."""

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        object.__setattr__(self, "mask", cards_mask(cards, "Hand"))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Cards separated by spaces or commas, each as :meth:`Card.parse` reads it; a
        duplicate raises :class:`~engine.errors.InvalidCardsError`."""
        return cls(parse_cards(text))

    @classmethod
    def from_mask(cls, mask: int) -> Hand:
        hand = cls.__new__(cls)
        object.__setattr__(hand, "mask", mask)
        return hand

    @classmethod
    def _from_iterable(cls, it: Iterable[Card]) -> Hand:  # type: ignore[override]
        return cls(it)

    def __cards_mask__(self) -> int:
        """The bit mask of the cards (read by :func:`~engine.cards.cards_mask`)."""
        return self.mask

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"hands are immutable: cannot set {name!r}")

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Card) and bool(self.mask & item.bit)

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted(iter_cards(self.mask), key=lambda c: c.sort_key))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self.mask == other.mask
        return AbstractSet.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(("Hand", self.mask))

    # Set operations with another set of cards run on the masks.
    def __le__(self, other: AbstractSet[object]) -> bool:
        return self.mask & ~_mask(other) == 0

    def __or__(self, other: AbstractSet[Card]) -> Hand:  # type: ignore[override]
        return Hand.from_mask(self.mask | _mask(other))

    def __and__(self, other: AbstractSet[object]) -> Hand:
        return Hand.from_mask(self.mask & _mask(other))

    def __sub__(self, other: AbstractSet[object]) -> Hand:
        return Hand.from_mask(self.mask & ~_mask(other))

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # A module-level function, not the bound classmethod: pickling a bound method depends
        # on who registered a reducer for methods (Twisted, under the ASGI server, does).
        return (_hand_from_text, (str(self),))


def _hand_from_text(text: str) -> Hand:
    return Hand.parse(text)


def _mask(cards: AbstractSet[object]) -> int:
    if isinstance(cards, Hand):
        return cards.mask
    return cards_mask(c for c in cards if isinstance(c, Card))
