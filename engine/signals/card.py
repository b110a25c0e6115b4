"""A convention card as a value: the checklist's words, :class:`Pattern`, :class:`Row` and
:class:`Convention`, each written as JSON by ``to_json()``.

A card is data. Its JSON form (``docs/conventions.md``; schema :data:`SCHEMA`) is what the shipped
cards are stored as (``engine/signals/cards/*.json``) and what a club writes;
:func:`engine.signals.cardfile.load_convention` reads and checks it, and
:attr:`Convention.version` is a hash of it, so two versions of a card never compare equal.

>>> p = Pattern("up", SAME_SUIT, 4, 4)
>>> p.to_json()["distance"], p.describe_ranks()
([4, 4], 'up, d=4')
"""

from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Suit
from engine.errors import InvalidNotationError

__all__ = [
    "BLACK_OR_DIAMOND",
    "DIFFERENT_COLOUR",
    "DIFFERENT_SUITS",
    "ITEMS",
    "ITEM_FAMILY",
    "ITEM_LINE",
    "ITEM_TITLES",
    "RED",
    "SAME_COLOUR",
    "SAME_SUIT",
    "SAME_SUIT_OR_COLOUR",
    "SCHEMA",
    "SF_SHAPES",
    "SUIT_RELATION_NAMES",
    "ChecklistItem",
    "Convention",
    "Pattern",
    "Row",
    "canonical_json",
]

#: The version of the JSON form a card is written in (its ``schema`` field).
SCHEMA = 1


class ChecklistItem(enum.StrEnum):
    """The checklist items in checklist order. Each is its id string (``"four_sf"``), so stored
    answers, URLs and JSON keep working; ``"none"`` (nothing to signal) is not an item.

    >>> ChecklistItem("four_sf") == "four_sf", str(ChecklistItem.FOURS)
    (True, 'fours')
    """

    FIVE_SF = "five_sf"
    FOURS = "fours"
    FOUR_SF = "four_sf"
    TWO_THREES = "two_threes"
    FULL_HOUSE = "full_house"
    THREE_SF = "three_sf"
    FIVE_FLUSH = "five_flush"
    FIVE_STRAIGHT = "five_straight"
    THREES = "threes"
    TWO_PAIR = "two_pair"
    FOUR_FLUSH = "four_flush"
    FOUR_STRAIGHT = "four_straight"
    THREE_FLUSH = "three_flush"
    THREE_STRAIGHT = "three_straight"
    ONE_PAIR = "one_pair"

    def __repr__(self) -> str:
        return f"ChecklistItem.{self.name}"


#: Checklist ids in checklist order ("none" is not an item; see ``ITEM_TITLES``).
ITEMS: tuple[ChecklistItem, ...] = tuple(ChecklistItem)

#: The checklist line (1..12) of each item; alternatives on one line share a number.
ITEM_LINE: dict[str, int] = {
    "five_sf": 1,
    "fours": 2,
    "four_sf": 3,
    "two_threes": 4,
    "full_house": 5,
    "three_sf": 6,
    "five_flush": 7,
    "five_straight": 7,
    "threes": 8,
    "two_pair": 9,
    "four_flush": 10,
    "four_straight": 10,
    "three_flush": 11,
    "three_straight": 11,
    "one_pair": 12,
}

ITEM_FAMILY: dict[str, str] = {
    "five_sf": "strong",
    "fours": "strong",
    "four_sf": "strong",
    "two_threes": "strong",
    "full_house": "strong",
    "three_sf": "strong",
    "five_flush": "weak",
    "five_straight": "weak",
    "threes": "fours-table",
    "two_pair": "fours-table",
    "four_flush": "weak",
    "four_straight": "weak",
    "three_flush": "weak",
    "three_straight": "weak",
    "one_pair": "fours-table",
}

ITEM_TITLES: dict[str, str] = {
    "five_sf": "Five to a straight flush",
    "fours": "Four of a kind",
    "four_sf": "Four to a straight flush",
    "two_threes": "Two threes",
    "full_house": "Full house",
    "three_sf": "Three to a straight flush",
    "five_flush": "Five-card flush",
    "five_straight": "Five-card straight",
    "threes": "Three of a kind",
    "two_pair": "Two pair",
    "four_flush": "Four to a flush",
    "four_straight": "Four to a straight",
    "three_flush": "Three to a flush",
    "three_straight": "Three to a straight",
    "one_pair": "One pair",
    "none": "Nothing to signal",
}

#: Straight-flush shapes by number of cards held, from lowest to highest held rank.
SF_SHAPES: dict[int, tuple[str, ...]] = {
    5: ("XXXXX",),
    4: ("XXXX", "XXX.X", "X.XXX", "XX.XX"),
    3: ("XXX", "XX.X", "X.XX", "XX..X", "X..XX", "X.X.X"),
}

#: The suit relations of two cards, in the order a card's JSON lists them.
SUIT_RELATION_NAMES: tuple[str, ...] = ("same_suit", "same_colour", "different_colour")
_ALL_SUIT_RELATIONS = frozenset(SUIT_RELATION_NAMES)
SAME_SUIT = frozenset({"same_suit"})
SAME_COLOUR = frozenset({"same_colour"})
DIFFERENT_COLOUR = frozenset({"different_colour"})
DIFFERENT_SUITS = frozenset({"same_colour", "different_colour"})
SAME_SUIT_OR_COLOUR = frozenset({"same_suit", "same_colour"})
RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
BLACK_OR_DIAMOND = frozenset({Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS})


def _suit_chars(suits: frozenset[Suit] | None) -> list[str] | None:
    return None if suits is None else [s.char for s in sorted(suits)]


@dataclass(frozen=True, slots=True)
class Pattern:
    """The set of signals a row can give.

    ``rank`` is ``same``, ``different``, ``up``, ``down`` or ``pass`` (c1 and pass);
    distances are inclusive bounds; ``c1_suits``/``c2_suits`` restrict particular suits;
    ``not_suit_pairs`` forbids (c1 suit, c2 suit) combinations.
    """

    rank: str
    suits: frozenset[str] = _ALL_SUIT_RELATIONS
    d_min: int = 0
    d_max: int = 12
    c1_suits: frozenset[Suit] | None = None
    c2_suits: frozenset[Suit] | None = None
    not_suit_pairs: frozenset[tuple[Suit, Suit]] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """The pattern as JSON: suit relations in :data:`SUIT_RELATION_NAMES` order, suits as
        letters (``S H D C``), ``distance`` as ``[min, max]``."""
        return {
            "rank": self.rank,
            "suits": [s for s in SUIT_RELATION_NAMES if s in self.suits],
            "distance": [self.d_min, self.d_max],
            "c1_suits": _suit_chars(self.c1_suits),
            "c2_suits": _suit_chars(self.c2_suits),
            "not_suit_pairs": [[a.char, b.char] for a, b in sorted(self.not_suit_pairs)],
        }

    def describe_suits(self) -> str:
        if self.rank == "pass":
            return _suit_list(self.c1_suits) if self.c1_suits else "any"
        if self.c1_suits and self.c2_suits and len(self.c1_suits) == len(self.c2_suits) == 1:
            return f"{_suit_list(self.c1_suits)} then {_suit_list(self.c2_suits)}"
        if self.suits == _ALL_SUIT_RELATIONS:
            return "any"
        names = {
            "same_suit": "same suit",
            "same_colour": "same colour, different suits",
            "different_colour": "different colour",
        }
        if self.suits == DIFFERENT_SUITS:
            return "different suits"
        return " or ".join(names[s] for s in sorted(self.suits, key=list(names).index))

    def describe_ranks(self) -> str:
        if self.rank == "pass":
            return "then pass"
        if self.rank == "same":
            text = "same rank"
            if self.not_suit_pairs:
                text += ", any order but " + ", ".join(
                    f"{a.symbol} then {b.symbol}" for a, b in sorted(self.not_suit_pairs)
                )
            return text
        if self.rank == "different":
            return "different ranks"
        if self.d_min == self.d_max:
            dist = f"d={self.d_min}"
        elif self.d_min >= 5:
            dist = "out of range"
        elif self.d_min <= 1 and self.d_max == 4:
            dist = "in range"
        else:
            dist = f"d={self.d_min}..{self.d_max}"
        return f"{self.rank}, {dist}"


def _suit_list(suits: frozenset[Suit] | None) -> str:
    if not suits:
        return ""
    if suits == RED:
        return "red"
    return "/".join(s.symbol for s in sorted(suits))


@dataclass(frozen=True, slots=True)
class Row:
    """One encoding row of a convention card.

    ``rule`` proposes candidate plays (see :data:`engine.signals.encoder.RULES`); ``params`` are
    the rule's arguments (the suit tiers of ``suit_and_pass``: the suits of c1, most preferred
    first). ``positions`` (straight-flush rows) are the places of c1 and c2 in the shape,
    0 = the lowest held rank. ``otherwise``: the row applies only when the row just above it
    (same item) gives no play for that holding. ``fallback`` (†): the row applies only when no
    regular row of the item gives any play, and its reading comes last. ``reading`` is the
    template of the decoder's sentence.
    """

    id: str
    item: str
    rule: str
    pattern: Pattern
    cards: str
    reading: str
    shape: str | None = None
    positions: tuple[tuple[int, int], ...] = ()
    params: tuple[Any, ...] = ()
    otherwise: bool = False
    fallback: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if self.item not in ITEMS:
            raise InvalidNotationError(f"row {self.id!r}: unknown item {self.item!r}")
        object.__setattr__(self, "item", ChecklistItem(self.item))

    def to_json(self) -> dict[str, Any]:
        """The row as JSON (every field written; see ``docs/conventions.md``)."""
        params: dict[str, Any] = {}
        if self.params:
            params["suit_tiers"] = [[s.char for s in tier] for tier in self.params]
        return {
            "id": self.id,
            "item": str(self.item),
            "rule": self.rule,
            "shape": self.shape,
            "positions": [[p1, p2] for p1, p2 in self.positions],
            "params": params,
            "pattern": self.pattern.to_json(),
            "otherwise": self.otherwise,
            "fallback": self.fallback,
            "cards": self.cards,
            "reading": self.reading,
            "note": self.note,
        }


def canonical_json(data: Any) -> str:
    """``data`` as canonical JSON (sorted keys, no spaces, UTF-8 text): what versions hash."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True, eq=False)
class Convention:
    """A whole convention card: a name, the checklist order and the encoding rows.

    ``version`` is the first 12 hex digits of the SHA-256 of the card's canonical JSON
    (:meth:`to_json`), so any change to the card (a row, a word) gives a new version. Two cards
    are equal when their names and versions are: a club's card called ``parlett-2008`` that
    differs from the shipped one is not equal to it (nor hashes as it).
    """

    name: str
    title: str
    description: str
    checklist: tuple[str, ...]
    rows: tuple[Row, ...]
    no_signal_text: str = "Not a signal in this system."
    version: str = field(init=False, repr=False)
    #: Set on the cards the engine ships (:data:`engine.signals.conventions.CONVENTIONS`).
    shipped: bool = field(init=False, default=False, repr=False)
    _by_item: dict[str, tuple[Row, ...]] = field(init=False, repr=False)
    _lists: tuple[tuple[str, ...], tuple[str, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for item in self.checklist:
            if item not in ITEMS:
                raise InvalidNotationError(f"checklist: unknown item {item!r}")
        object.__setattr__(self, "checklist", tuple(ChecklistItem(i) for i in self.checklist))
        for row in self.rows:
            if row.item not in ITEMS:
                raise InvalidNotationError(f"row {row.id!r}: unknown item {row.item!r}")
        grouped: dict[str, list[Row]] = {}
        for row in self.rows:
            grouped.setdefault(row.item, []).append(row)
        by_item = {k: tuple(v) for k, v in grouped.items()}
        object.__setattr__(self, "_by_item", by_item)
        object.__setattr__(
            self,
            "_lists",
            (
                tuple(i for i in self.checklist if i in by_item),
                tuple(i for i in self.checklist if i not in by_item),
            ),
        )
        digest = hashlib.sha256(canonical_json(self.to_json()).encode("utf-8")).hexdigest()
        object.__setattr__(self, "version", digest[:12])

    @property
    def signal_checklist(self) -> tuple[str, ...]:
        """The checklist without the items this card gives no signal (what the leader shows)."""
        return self._lists[0]

    @property
    def unsignalled_items(self) -> tuple[str, ...]:
        """Checklist items with no row: they have no signal, and the holder plays them out at
        once, on the lead (see :attr:`engine.signals.encoder.Encoding.played_out`)."""
        return self._lists[1]

    def rows_for(self, item: str) -> tuple[Row, ...]:
        """The rows showing ``item``, in card order."""
        return self._by_item.get(item, ())

    def to_json(self) -> dict[str, Any]:
        """The card as JSON, in the form of ``docs/conventions.md`` (without ``version``)."""
        return {
            "schema": SCHEMA,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "no_signal_text": self.no_signal_text,
            "checklist": [str(i) for i in self.checklist],
            "rows": [row.to_json() for row in self.rows],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Convention):
            return NotImplemented
        return other.name == self.name and other.version == self.version

    def __hash__(self) -> int:
        return hash((self.name, self.version))

    def __repr__(self) -> str:
        """Compact and pasteable for a shipped card: ``get_convention('parlett-2008')``."""
        if self.shipped:
            return f"get_convention({self.name!r})"
        return f"Convention({self.name!r}, version {self.version}, {len(self.rows)} rows)"
