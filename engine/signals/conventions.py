"""Convention cards as data: the checklist and the named encoding rows.

A :class:`Convention` is a value. Each :class:`Row` names one way of showing one checklist item:
the *rule* that proposes candidate plays from the cards making the item (a word from the small
fixed vocabulary in :mod:`engine.signals.encoder`), and the *pattern* every play of the row obeys
(suit relation, rank relation, distance, particular suits). The encoder keeps only candidates
that match the row's pattern and the decoder reads a signal as every row whose pattern (and, for
straight-flush shapes, whose window geometry) it matches, so the two cannot drift apart.
A third convention is a third tuple of rows; no new code path is needed.

>>> get_convention("parlett-2008") is DEFAULT_CONVENTION
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Suit
from engine.errors import InvalidNotationError, UnknownConventionError, WrongTypeError
from engine.messages import reading_id, register, register_terms, register_words

__all__ = [
    "CONVENTIONS",
    "DEFAULT_CONVENTION",
    "ITEMS",
    "ITEM_FAMILY",
    "ITEM_TITLES",
    "SF_SHAPES",
    "ChecklistItem",
    "Convention",
    "Pattern",
    "Row",
    "get_convention",
    "require_convention",
]


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

_ALL_SUIT_RELATIONS = frozenset({"same_suit", "same_colour", "different_colour"})
SAME_SUIT = frozenset({"same_suit"})
SAME_COLOUR = frozenset({"same_colour"})
DIFFERENT_COLOUR = frozenset({"different_colour"})
DIFFERENT_SUITS = frozenset({"same_colour", "different_colour"})
SAME_SUIT_OR_COLOUR = frozenset({"same_suit", "same_colour"})
RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
BLACK_OR_DIAMOND = frozenset({Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS})


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
    the rule's arguments (e.g. suit tiers). ``positions`` (straight-flush rows) are the places of
    c1 and c2 in the shape, 0 = the lowest held rank. ``otherwise``: the row applies only when the
    row just above it (same item) gives no play for that holding. ``fallback`` (†): the row
    applies only when no regular row of the item gives any play, and its reading comes last.
    ``reading`` is the template of the decoder's sentence.
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


@dataclass(frozen=True, slots=True)
class Convention:
    """A whole convention card: a name, the checklist order and the encoding rows."""

    name: str
    title: str
    description: str
    checklist: tuple[str, ...]
    rows: tuple[Row, ...]
    no_signal_text: str = "Not a signal in this system."
    _by_item: dict[str, tuple[Row, ...]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )
    _lists: list[tuple[str, ...]] = field(
        default_factory=list, compare=False, repr=False, hash=False
    )

    def __post_init__(self) -> None:
        for row in self.rows:
            if row.item not in ITEMS:
                raise InvalidNotationError(f"row {row.id!r}: unknown item {row.item!r}")
        grouped: dict[str, list[Row]] = {}
        for row in self.rows:
            grouped.setdefault(row.item, []).append(row)
        self._by_item.update({k: tuple(v) for k, v in grouped.items()})
        self._lists.append(tuple(i for i in self.checklist if i in self._by_item))
        self._lists.append(tuple(i for i in self.checklist if i not in self._by_item))

    @property
    def signal_checklist(self) -> tuple[str, ...]:
        """The checklist without the items this card gives no signal (what the leader shows)."""
        return self._lists[0]

    @property
    def unsignalled_items(self) -> tuple[str, ...]:
        """Checklist items with no row: the holder plays them out and signals the next item."""
        return self._lists[1]

    def rows_for(self, item: str) -> tuple[Row, ...]:
        """The rows showing ``item``, in card order."""
        return self._by_item.get(item, ())

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        """Compact and pasteable for a shipped card: ``get_convention('parlett-2008')``."""
        if CONVENTIONS.get(self.name) is self:
            return f"get_convention({self.name!r})"
        return f"Convention({self.name!r}, {len(self.rows)} rows)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Convention) and other.name == self.name


def _sf(
    item: str,
    shape: str,
    positions: tuple[tuple[int, int], ...],
    rank: str,
    d: int,
    cards: str,
    reading: str,
    *,
    rid: str | None = None,
    note: str = "",
) -> Row:
    return Row(
        id=rid or f"{item}:{shape}",
        item=item,
        rule="positions",
        pattern=Pattern(rank, SAME_SUIT, d, d),
        shape=shape,
        positions=positions,
        cards=cards,
        reading=reading,
        note=note,
    )


_SF_ROWS_2008: tuple[Row, ...] = (
    _sf(
        "five_sf",
        "XXXXX",
        ((0, 4),),
        "up",
        4,
        "lowest then highest of the five",
        "Partner holds a complete straight flush in {suit}, {holdings}.",
    ),
    _sf(
        "four_sf",
        "XXXX",
        ((0, 3),),
        "up",
        3,
        "lowest then highest of the four",
        "Partner holds four {suit} in sequence, {holdings}: one card short of a straight flush.",
    ),
    _sf(
        "four_sf",
        "XXX.X",
        ((0, 2),),
        "up",
        2,
        "lowest then highest of the run of three (fourth card two above)",
        "Partner holds four {suit} to a straight flush, a run of three with one more card two "
        "above it: {holdings}.",
    ),
    _sf(
        "four_sf",
        "X.XXX",
        ((2, 4),),
        "up",
        2,
        "lowest then highest of the run of three (fourth card two below)",
        "Partner holds four {suit} to a straight flush, a run of three with one more card two "
        "below it: {holdings}.",
    ),
    _sf(
        "four_sf",
        "XX.XX",
        ((4, 1), (3, 0)),
        "down",
        3,
        "top of the upper two then top of the lower two (or bottom then bottom)",
        "Partner holds four {suit} to a straight flush, two and two around one hole: {holdings}.",
    ),
    _sf(
        "three_sf",
        "XXX",
        ((2, 0),),
        "down",
        2,
        "top then bottom",
        "Partner holds three {suit} in sequence, {holdings}, and nothing next to them.",
    ),
    _sf(
        "three_sf",
        "XX.X",
        ((0, 1),),
        "up",
        1,
        "the adjacent two, low then high (third card two above)",
        "Partner holds three {suit} to a straight flush, two adjacent with one more above: "
        "{holdings}.",
    ),
    _sf(
        "three_sf",
        "XX..X",
        ((0, 1),),
        "up",
        1,
        "the adjacent two, low then high (third card three above)",
        "Partner holds three {suit} to a straight flush, two adjacent with one more above: "
        "{holdings}.",
    ),
    _sf(
        "three_sf",
        "X.XX",
        ((3, 2),),
        "down",
        1,
        "the adjacent two, high then low (third card two below)",
        "Partner holds three {suit} to a straight flush, two adjacent with one more below: "
        "{holdings}.",
    ),
    _sf(
        "three_sf",
        "X..XX",
        ((4, 3),),
        "down",
        1,
        "the adjacent two, high then low (third card three below)",
        "Partner holds three {suit} to a straight flush, two adjacent with one more below: "
        "{holdings}.",
    ),
    _sf(
        "three_sf",
        "X.X.X",
        ((4, 0),),
        "down",
        4,
        "top then bottom",
        "Partner holds three {suit} to a straight flush with a hole between each: {holdings}.",
    ),
)

_FOURS_2008 = Row(
    id="fours",
    item="fours",
    rule="rank_pairs",
    pattern=Pattern("same", c1_suits=frozenset({Suit.HEARTS}), c2_suits=frozenset({Suit.DIAMONDS})),
    cards="the ♥ then the ♦ of the rank",
    reading="Partner holds all four {r1s}.",
)

_TWO_THREES = Row(
    id="two_threes",
    item="two_threes",
    rule="cross_groups",
    pattern=Pattern("different", SAME_COLOUR, 1),
    cards="one card from each three, either order",
    reading="Partner holds three {r1s} and three {r2s}: add a fourth of either.",
)

_FULL_HOUSE = Row(
    id="full_house",
    item="full_house",
    rule="three_then_pair",
    pattern=Pattern("different", DIFFERENT_COLOUR, 1),
    cards="a card of the three first, then a card of the pair",
    reading="Partner holds a full house, three {r1s} and two {r2s}.",
)

_WEAK_AND_PAIR_ROWS_2008: tuple[Row, ...] = (
    Row(
        id="five_flush",
        item="five_flush",
        rule="flush_ends",
        pattern=Pattern("up", SAME_SUIT, 5),
        cards="lowest then highest of the suit",
        reading="Partner holds five or more {suit}, the {r1} the lowest of them.",
    ),
    Row(
        id="five_flush:ace",
        item="five_flush",
        rule="flush_low_any",
        pattern=Pattern("up", SAME_SUIT, 5),
        otherwise=True,
        cards="if lowest and highest are in range (Ace effects): the lowest and a higher card "
        "at least five ranks away",
        reading="Partner holds five or more {suit}, the {r1} the lowest of them.",
    ),
    Row(
        id="five_straight",
        item="five_straight",
        rule="straight_ends",
        pattern=Pattern("up", DIFFERENT_SUITS, 4, 4),
        cards="lowest then highest of the five, regardless of suit",
        reading="Partner holds a complete straight, {r1} up to {r2}.",
    ),
    Row(
        id="five_straight:same_suit",
        item="five_straight",
        rule="straight_ends",
        pattern=Pattern("up", SAME_SUIT, 4, 4),
        otherwise=True,
        fallback=True,
        cards="lowest then highest of the five when they share a suit",
        reading="Partner may hold a complete straight, {r1} up to {r2}, whose end cards share "
        "a suit.",
    ),
    Row(
        id="threes",
        item="threes",
        rule="suit_and_pass",
        params=((Suit.HEARTS,), (Suit.DIAMONDS,)),
        pattern=Pattern("pass", c1_suits=RED),
        cards="a card of the three: the ♥ if held, else the ♦",
        reading="Partner holds three {r1s} and no other pair: add the fourth if you can.",
    ),
    Row(
        id="two_pair",
        item="two_pair",
        rule="rank_pairs",
        pattern=Pattern("same", not_suit_pairs=frozenset({(Suit.HEARTS, Suit.DIAMONDS)})),
        cards="both cards of one pair; preferred black before red, and with one colour minor "
        "before major",
        reading="Partner holds a pair of {r1s} and another pair.",
    ),
    Row(
        id="two_pair:out_of_range",
        item="two_pair",
        rule="high_pair_then_low",
        pattern=Pattern("down", SAME_SUIT, 5),
        cards="only when the two pair ranks are out of range: a card of the higher pair then "
        "one of the lower, same suit",
        reading="Partner holds two pair, {r1s} and {r2s}.",
    ),
    Row(
        id="two_pair:out_of_range_colour",
        item="two_pair",
        rule="high_pair_then_low",
        pattern=Pattern("down", SAME_COLOUR, 5),
        otherwise=True,
        cards="as above, same colour when no same-suit cards fit",
        reading="Partner holds two pair, {r1s} and {r2s}.",
    ),
    Row(
        id="four_flush",
        item="four_flush",
        rule="flush_up",
        pattern=Pattern("up", SAME_SUIT, 1, 4),
        cards="the lowest card of the suit that has a higher suit card in range, then that card",
        reading="Partner holds four {suit}: the {r1} is the lowest of them with a higher one "
        "in a straight's reach, and the {r2} is that one.",
    ),
    Row(
        id="four_straight",
        item="four_straight",
        rule="straight_up",
        pattern=Pattern("up", DIFFERENT_SUITS, 1, 3),
        cards="two of the four ranks, low then high, as close as possible",
        reading="Partner holds four cards to a straight including a {r1} and a {r2}.",
    ),
    Row(
        id="four_straight:same_suit",
        item="four_straight",
        rule="straight_up",
        pattern=Pattern("up", SAME_SUIT, 1, 3),
        otherwise=True,
        fallback=True,
        cards="the same, in one suit, only when no other pair fits",
        reading="Partner may hold four cards to a straight including the {r1} and the {r2}.",
    ),
    Row(
        id="three_flush",
        item="three_flush",
        rule="flush_down",
        pattern=Pattern("down", SAME_SUIT, 1, 4),
        cards="a higher then a lower card of the suit, in range",
        reading="Partner holds three {suit}, the {r1} and the {r2} among them.",
    ),
    Row(
        id="three_flush:wide",
        item="three_flush",
        rule="flush_top_bottom",
        pattern=Pattern("down", SAME_SUIT, 5),
        otherwise=True,
        fallback=True,
        cards="if no two are in range: highest then lowest (it reads as two pair first)",
        reading="Partner may hold three {suit} too far apart for a straight, the {r1} the "
        "highest and the {r2} the lowest.",
    ),
    Row(
        id="three_straight",
        item="three_straight",
        rule="straight_top_bottom",
        pattern=Pattern("down", DIFFERENT_SUITS, 2, 4),
        cards="highest then lowest of the three",
        reading="Partner holds three cards to a straight, the {r1} the highest and the {r2} "
        "the lowest.",
    ),
    Row(
        id="three_straight:same_suit",
        item="three_straight",
        rule="straight_top_bottom",
        pattern=Pattern("down", SAME_SUIT, 2, 4),
        otherwise=True,
        fallback=True,
        cards="the same, in one suit, only when no other pair fits",
        reading="Partner may hold three cards to a straight, the {r1} the highest and the "
        "{r2} the lowest.",
    ),
    Row(
        id="one_pair",
        item="one_pair",
        rule="suit_and_pass",
        params=((Suit.SPADES, Suit.CLUBS), (Suit.DIAMONDS,)),
        pattern=Pattern("pass", c1_suits=BLACK_OR_DIAMOND),
        cards="a card of the pair: a black one (the ♦ if the pair is ♥♦)",
        reading="Partner holds one pair of {r1s} and nothing better.",
    ),
)

PARLETT_2008 = Convention(
    name="parlett-2008",
    title="Parlett 2008",
    description="Parlett's own signals from his revised English rules (2008): the default.",
    checklist=ITEMS,
    rows=(
        _SF_ROWS_2008[0],
        _FOURS_2008,
        *_SF_ROWS_2008[1:5],
        _TWO_THREES,
        _FULL_HOUSE,
        *_SF_ROWS_2008[5:],
        *_WEAK_AND_PAIR_ROWS_2008,
    ),
)

_HOLED_FOUR_1994 = tuple(
    _sf(
        "four_sf",
        shape,
        ((4, 0),),
        "down",
        4,
        "top then bottom (one hole)",
        "Partner holds four {suit} to a straight flush with one hole: {holdings}.",
        rid=f"four_sf:{shape}:wide",
        note="1994: high-then-low d=4 also shows four with a hole",
    )
    for shape in ("XXX.X", "X.XXX", "XX.XX")
)

_TWO_PAIR_1994 = Row(
    id="two_pair",
    item="two_pair",
    rule="rank_pairs",
    pattern=Pattern("same"),
    cards="both cards of one pair in any suit order, then pass",
    reading="Partner holds a pair of {r1s} and another pair.",
    note="1994: no out-of-range alternative",
)


def _rows_1994() -> tuple[Row, ...]:
    rows: list[Row] = []
    for row in PARLETT_2008.rows:
        if row.item == "fours":
            continue  # four of a kind has no signal: the holder simply plays it out
        if row.item == "two_pair":
            if row.id == "two_pair":
                rows.append(_TWO_PAIR_1994)
        else:
            rows.append(row)
            if row.id == "four_sf:XX.XX":
                rows.extend(_HOLED_FOUR_1994)
    return tuple(rows)


TEACH_YOURSELF_1994 = Convention(
    name="teach-yourself-1994",
    title="Teach Yourself 1994",
    description="The signals of Parlett's 1994 book, as summarised in Japanese.",
    checklist=ITEMS,
    rows=_rows_1994(),
)

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (PARLETT_2008, TEACH_YOURSELF_1994)}
register_terms("item", ITEM_TITLES)
for _conv in CONVENTIONS.values():
    register_words({f"convention.{_conv.name}.description": _conv.description.replace("%", "%%")})
    for _row in _conv.rows:
        register(reading_id(_conv.name, _row.id), _row.reading)
DEFAULT_CONVENTION: Convention = PARLETT_2008


def get_convention(name: str | Convention) -> Convention:
    """The convention called ``name`` (a :class:`Convention` passes through).

    >>> get_convention("teach-yourself-1994").title
    'Teach Yourself 1994'
    """
    if isinstance(name, Convention):
        return name
    try:
        return CONVENTIONS[name]
    except (KeyError, TypeError):
        known = ", ".join(CONVENTIONS)
        raise UnknownConventionError(f"not a convention: {name!r} (known: {known})") from None


def require_convention(value: object, func: str) -> Convention:
    """``value`` if it is a :class:`Convention`; else a typed error naming ``func``: a
    :class:`WrongTypeError` (for a name, saying to look it up with :func:`get_convention`,
    or an :class:`UnknownConventionError` when no convention has that name).

    >>> require_convention("nope", "decode")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    engine.errors.UnknownConventionError: decode() takes a Convention; 'nope' is not one …
    """
    if isinstance(value, Convention):
        return value
    if isinstance(value, str):
        if value not in CONVENTIONS:
            known = ", ".join(CONVENTIONS)
            raise UnknownConventionError(
                f"{func}() takes a Convention; {value!r} is not one (known: {known})"
            )
        raise WrongTypeError(
            f"{func}() takes a Convention, not its name {value!r}: use get_convention({value!r})"
        )
    raise WrongTypeError(f"{func}() takes a Convention, not {type(value).__name__} {value!r}")
