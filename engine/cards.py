"""Cards, suits and ranks as value types.

A :class:`Card` parses from and prints to a two-character form, rank then suit::

    >>> Card.parse("10d")
    Card.parse('TD')
    >>> str(Card.parse("9♥"))
    '9H'

There are exactly 52 card objects; :meth:`Card.parse` and :func:`card` return the shared
instance, so cards compare by identity as well as by value and hash cheaply.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Iterator

from engine.errors import InvalidCardsError, InvalidNotationError, WrongTypeError

__all__ = [
    "DECK",
    "RANKS",
    "RANK_CHARS",
    "Card",
    "Suit",
    "card",
    "cards_mask",
    "format_cards",
    "iter_cards",
    "not_cards_error",
    "parse_cards",
    "rank_char",
    "rank_name",
    "require_card",
    "shuffled_deck",
    "sort_cards",
]


class Suit(enum.IntEnum):
    """The four suits, in the order ♠ ♥ ♦ ♣ (the order used for sorting and display)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def char(self) -> str:
        """One-letter notation: ``S H D C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠ ♥ ♦ ♣``."""
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def is_major(self) -> bool:
        """Spades and hearts are major suits; diamonds and clubs minor."""
        return self in (Suit.SPADES, Suit.HEARTS)

    @property
    def colour(self) -> str:
        return "red" if self.is_red else "black"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (any case) or symbol.

        >>> Suit.parse("♦")
        <Suit.DIAMONDS: 2>
        """
        try:
            return _SUIT_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise InvalidNotationError(f"not a suit: {text!r}") from None

    def __str__(self) -> str:
        return self.char


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_s.char] = _s
    _SUIT_BY_TEXT[_s.symbol] = _s
_SUIT_BY_TEXT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})

#: Rank values, low to high. The Ace is 14 (it may also count 1 inside an A-2-3-4-5 straight).
RANKS: tuple[int, ...] = tuple(range(2, 15))
#: Rank characters indexed by rank value.
RANK_CHARS = {v: c for v, c in zip(RANKS, "23456789TJQKA", strict=True)}
_RANK_BY_TEXT = {c: v for v, c in RANK_CHARS.items()}
_RANK_BY_TEXT["10"] = 10  # documented: "10d" is TD (a lone "1" is not a rank)
_RANK_NAMES = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}


def rank_char(rank: int) -> str:
    """The one-character notation of a rank value (1 and 14 are both the Ace)."""
    return RANK_CHARS[14 if rank == 1 else rank]


def rank_name(rank: int, *, plural: bool = False) -> str:
    """A rank for prose: ``2``…``10``, ``Jack``, ``Queen``, ``King``, ``Ace`` (plural adds s)."""
    name = _RANK_NAMES[14 if rank == 1 else rank]
    return name + "s" if plural else name


class Card:
    """One playing card. Use :meth:`parse`, :func:`card` or ``Card(rank, suit)``.

    ``index`` runs 0..51 (suit-major), ``bit`` is ``1 << index`` for fast set arithmetic.
    The 52 instances are shared (the constructor, parsing, pickling and :data:`DECK` all return
    them), so equality and hashing are by identity: the fastest possible in sets and comparisons.

    Cards order by rank (the suit, ♠♥♦♣, breaks ties so the order is total);
    :attr:`sort_key` and :func:`sort_cards` give the display order instead.

    >>> Card(10, Suit.DIAMONDS) is Card.parse("TD")
    True
    >>> Card.parse("TS") < Card.parse("9S"), Card.parse("9S") <= Card.parse("9H")
    (False, True)
    """

    __slots__ = ("_order", "bit", "index", "rank", "suit")

    rank: int
    suit: Suit
    index: int
    bit: int
    _order: int

    def __new__(cls, rank: int, suit: Suit | int) -> Card:
        """The shared card of ``rank`` (2..14, the Ace is 14) and ``suit``."""
        if (
            isinstance(rank, bool)
            or not isinstance(rank, int)
            or rank not in RANK_CHARS
            or isinstance(suit, bool)
            or not isinstance(suit, int)
            or not 0 <= suit <= 3
        ):
            raise InvalidNotationError(f"not a card: rank {rank!r}, suit {suit!r}")
        return DECK[int(suit) * 13 + rank - 2]

    @classmethod
    def _make(cls, rank: int, suit: Suit) -> Card:
        """Build one of the 52 shared instances (only when the deck is made)."""
        self = object.__new__(cls)
        index = int(suit) * 13 + rank - 2
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", index),
            ("bit", 1 << index),
            ("_order", rank * 4 + int(suit)),
        ):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards are immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cards are immutable: cannot delete {name!r}")

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``AS``, ``TD``, ``10d``, ``9♥``, ``q♣`` (rank then suit, any case).

        >>> Card.parse("as").suit
        <Suit.SPADES: 0>
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a card: {text!r}")
        found = _CARD_BY_TEXT.get(text.strip().upper())
        if found is None:
            raise InvalidNotationError(f"not a card: {text!r}")
        return found

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank]

    @property
    def symbol(self) -> str:
        """Human form with the suit symbol and ``10``: ``10♦``."""
        return ("10" if self.rank == 10 else self.rank_char) + self.suit.symbol

    @property
    def label(self) -> str:
        """Words for screen readers: ``10 of diamonds``, ``Ace of spades``."""
        return f"{rank_name(self.rank)} of {self.suit.name.lower()}"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit order ♠♥♦♣, then rank high to low: the order hands are shown in."""
        return (self.suit, -self.rank)

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + self.suit.char

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    # Ordering by rank, then suit: consistent with identity equality (no two cards tie).
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._order < other._order

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._order <= other._order

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._order > other._order

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._order >= other._order

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (str(self),))


#: The 52 cards in index order: ♠2..♠A, then ♥, ♦, ♣ likewise.
DECK: tuple[Card, ...] = tuple(Card._make(rank, suit) for suit in Suit for rank in RANKS)

_CARD_BY_TEXT: dict[str, Card] = {}
for _c in DECK:
    for _rt, _rv in _RANK_BY_TEXT.items():
        if _rv != _c.rank:
            continue
        for _st, _sv in _SUIT_BY_TEXT.items():
            if _sv == _c.suit:
                _CARD_BY_TEXT[_rt + _st] = _c


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def parse_cards(
    items: str | Iterable[str | Card], *, count: int | None = None, unique: bool = True
) -> tuple[Card, ...]:
    """Parse many cards from a whitespace/comma separated string or an iterable.

    Raises :class:`InvalidNotationError` for an unknown card and :class:`InvalidCardsError` for a
    duplicate (when ``unique``) or a wrong ``count``.

    >>> [str(c) for c in parse_cards("AS 10d 9♥")]
    ['AS', 'TD', '9H']
    """
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    cards = tuple(c if isinstance(c, Card) else Card.parse(c) for c in items)
    if unique and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise InvalidCardsError(f"duplicate card: {c}")
            seen.add(c)
    if count is not None and len(cards) != count:
        raise InvalidCardsError(f"expected {count} cards, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical space-separated notation: ``AS TD 9H``."""
    return " ".join(str(c) for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by suit ♠♥♦♣, high to low inside a suit."""
    return sorted(cards, key=lambda c: c.sort_key)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A freshly shuffled deck drawn from the injected random source."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards whose bits are set in ``mask`` (in index order)."""
    while mask:
        low = mask & -mask
        yield DECK[low.bit_length() - 1]
        mask ^= low


def not_cards_error(value: object, func: str) -> WrongTypeError:
    """The typed error for ``func`` given something other than cards (e.g. a card string)."""
    if isinstance(value, str):
        return WrongTypeError(
            f"{func}() takes cards, not the string {value!r}: parse it first (parse_cards)"
        )
    if isinstance(value, Iterable) and not isinstance(value, (bytes, bytearray)):
        try:
            bad = next(v for v in value if not isinstance(v, Card))
        except (StopIteration, TypeError):
            bad = value
        else:
            if isinstance(bad, str):
                return WrongTypeError(
                    f"{func}() takes cards, not the string {bad!r}: parse it first (Card.parse)"
                )
        return WrongTypeError(f"{func}() takes cards, not {type(bad).__name__} {bad!r}")
    return WrongTypeError(f"{func}() takes cards, not {type(value).__name__} {value!r}")


def require_card(value: object, func: str) -> Card:
    """``value`` if it is a :class:`Card`, else a :class:`WrongTypeError` naming ``func``."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        raise WrongTypeError(
            f"{func}() takes a Card, not the string {value!r}: parse it first (Card.parse)"
        )
    raise WrongTypeError(f"{func}() takes a Card, not {type(value).__name__} {value!r}")


def cards_mask(cards: Iterable[Card], func: str = "cards_mask") -> int:
    """The bit mask of ``cards``; a :class:`WrongTypeError` naming ``func`` if they are not
    cards (a string of card names included).

    >>> cards_mask([Card.parse("3S"), Card.parse("2S")])
    3
    """
    if hasattr(type(cards), "__cards_mask__"):
        return int(cards.__cards_mask__())  # type: ignore[attr-defined]  # a Hand
    if isinstance(cards, str):
        raise not_cards_error(cards, func)
    mask = 0
    try:
        for c in cards:
            mask |= c.bit
    except (AttributeError, TypeError):
        raise not_cards_error(cards, func) from None
    return mask
