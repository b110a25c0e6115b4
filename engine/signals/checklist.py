"""The leader's checklist: which item a set of cards holds, and the cards making it.

Works on bitmasks: a hand is a 52-bit mask (``Card.bit``), a suit or the set of ranks held is a
13-bit mask (bit ``rank - 2``). Runs inside five-rank windows are analysed once per 13-bit mask
and cached, so detection costs a few dictionary look-ups per suit.

>>> from engine.cards import parse_cards
>>> d = detect(parse_cards("5S 4S 2S AS KH"))
>>> d.item, d.shape, [str(c) for c in d.cards]
(ChecklistItem.FOUR_SF, 'XX.XX', ['AS', '2S', '4S', '5S'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.cards import DECK, Card, cards_mask
from engine.signals.conventions import DEFAULT_CONVENTION, Convention, require_convention

__all__ = ["Detection", "Instance", "card_at", "detect", "find_instances", "hand_mask"]

SUIT_BITS = 0x1FFF


def card_at(suit: int, value: int) -> Card:
    """The card of ``suit`` (0..3) and rank ``value`` (1 or 14 = Ace)."""
    return DECK[suit * 13 + (12 if value == 1 else value - 2)]


def hand_mask(cards: Iterable[Card], func: str = "hand_mask") -> int:
    """The bit mask of ``cards`` (a typed error naming ``func`` when they are not cards)."""
    return cards_mask(cards, func)


@dataclass(frozen=True, slots=True)
class Detection:
    """The first checklist item held, the cards making it, and its straight-flush shape."""

    item: str
    cards: tuple[Card, ...]
    shape: str | None


@dataclass(frozen=True, slots=True)
class Instance:
    """One way the hand holds an item.

    ``cards`` make the item; ``pool`` is every held card the item's rows may play from (all the
    cards of a straight's ranks, all of a flush suit); ``groups`` are same-rank groups, highest
    first; ``lo``/``values`` are the window ranks (Ace low = 1) of run items; ``suit`` the suit of
    suited items (else -1); ``key`` identifies the instance for caching.
    """

    item: str
    shape: str | None
    cards: tuple[Card, ...]
    pool: tuple[Card, ...] = ()
    groups: tuple[tuple[Card, ...], ...] = ()
    lo: int = 0
    values: tuple[int, ...] = ()
    suit: int = -1
    key: int = 0


@cache
def runs(mask13: int) -> tuple[tuple[Any, ...], ...]:
    """Runs of a 13-bit rank mask inside five-rank windows, best first.

    Returns ``(fives, fours, threes)``: ``fives`` lists the lowest value of each full window
    (highest window first); ``fours``/``threes`` list ``(lo, shape)`` for every window holding
    exactly four/three ranks, the shape drawn from the lowest to the highest held rank. Order:
    more ways to complete the run first, then the higher top rank (see *Decisions*).
    """
    ext = (mask13 << 1) | ((mask13 >> 12) & 1)  # bit v-1 <-> rank value v, Ace also as 1
    fives: list[int] = []
    found: dict[int, dict[tuple[int, str], int]] = {4: {}, 3: {}}
    for base in range(1, 11):
        w = (ext >> (base - 1)) & 31
        n = w.bit_count()
        if n == 5:
            fives.append(base)
        elif n in (3, 4):
            lo = base + ((w & -w).bit_length() - 1)
            hi = base + w.bit_length() - 1
            shape = "".join("X" if (ext >> (v - 1)) & 1 else "." for v in range(lo, hi + 1))
            if n == 4:
                outs = 1 if shape != "XXXX" else (lo > 1) + (hi < 14)
            else:
                outs = min(10, lo) - max(1, hi - 4) + 1  # windows that contain the three
            found[n][(lo, shape)] = outs
    fives.sort(reverse=True)

    def order(d: dict[tuple[int, str], int]) -> tuple[tuple[int, str], ...]:
        return tuple(sorted(d, key=lambda k: (-d[k], -(k[0] + len(k[1])))))

    return tuple(fives), order(found[4]), order(found[3])


def _rank_cards(mask: int, value: int) -> tuple[Card, ...]:
    r = 14 if value == 1 else value
    return tuple(DECK[s * 13 + r - 2] for s in range(4) if (mask >> (s * 13 + r - 2)) & 1)


def _ranks_desc(m13: int) -> list[int]:
    return [r for r in range(14, 1, -1) if (m13 >> (r - 2)) & 1]


def _sf_instances(item: str, sm: list[int], index: int) -> list[Instance]:
    found = []
    for s in range(4):
        for entry in runs(sm[s])[index]:
            lo, shape = (entry, "XXXXX") if index == 0 else entry
            cards = tuple(card_at(s, lo + i) for i, ch in enumerate(shape) if ch == "X")
            rank = index if index == 0 else runs(sm[s])[index].index(entry)
            found.append(
                (
                    rank,
                    -lo,
                    s,
                    Instance(item, shape, cards, cards, lo=lo, suit=s, key=hand_mask(cards)),
                )
            )
    if index != 0:
        # Across suits: more ways to complete first, then the higher top card.
        def outs(inst: Instance) -> tuple[int, int]:
            top = inst.lo + len(inst.shape or "") - 1
            if index == 1:
                o = 1 if inst.shape != "XXXX" else (inst.lo > 1) + (top < 14)
            else:
                o = min(10, inst.lo) - max(1, top - 4) + 1
            return (-o, -top)

        found.sort(key=lambda t: (*outs(t[3]), t[2]))
    else:
        found.sort(key=lambda t: (t[1], t[2]))
    return [t[3] for t in found]


def _straight_instances(item: str, mask: int, any13: int, index: int) -> list[Instance]:
    out = []
    for entry in runs(any13)[index]:
        lo, shape = (entry, "XXXXX") if index == 0 else entry
        values = tuple(lo + i for i, ch in enumerate(shape) if ch == "X")
        pool: tuple[Card, ...] = ()
        for v in values:
            pool += _rank_cards(mask, v)
        cards = tuple(_rank_cards(mask, v)[0] for v in values)
        out.append(Instance(item, None, cards, pool, lo=lo, values=values, key=hand_mask(pool)))
    return out


def _flush_instances(item: str, sm: list[int], sizes: tuple[int, ...]) -> list[Instance]:
    out = []
    for s in range(4):
        if sm[s].bit_count() in sizes:
            ranks = _ranks_desc(sm[s])
            cards = tuple(DECK[s * 13 + r - 2] for r in ranks)
            out.append(
                (
                    (-len(ranks), [-r for r in ranks], s),
                    Instance(item, None, cards, cards, suit=s, key=sm[s] << (13 * s)),
                )
            )
    out.sort(key=lambda t: t[0])
    return [t[1] for t in out]


def _groups(mask: int, ranks13: int) -> tuple[tuple[Card, ...], ...]:
    return tuple(_rank_cards(mask, r) for r in _ranks_desc(ranks13))


class _Hand:
    """Masks of one hand, computed once and shared by the item finders."""

    __slots__ = ("any13", "c2", "c3", "c4", "mask", "sm")

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self.sm = sm = [(mask >> (13 * s)) & SUIT_BITS for s in range(4)]
        a, b, c, d = sm
        self.any13 = a | b | c | d
        self.c4 = a & b & c & d
        self.c3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
        self.c2 = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)


def _grouped(item: str, h: _Hand, ranks13: int, first: int = 2) -> list[Instance]:
    groups = _groups(h.mask, ranks13)
    cards = tuple(c for g in groups[:first] for c in g)
    return [Instance(item, None, cards, cards, groups, key=h.mask & _rank_bits(ranks13))]


def _find_fours(h: _Hand) -> list[Instance]:
    return [Instance("fours", None, g, g, (g,), key=hand_mask(g)) for g in _groups(h.mask, h.c4)]


def _find_full_house(h: _Hand) -> list[Instance]:
    if not h.c3 or h.c2.bit_count() < 2:
        return []
    top = 1 << (h.c3.bit_length() - 1)
    groups = _groups(h.mask, top) + _groups(h.mask, h.c2 & ~top)
    cards = groups[0] + groups[1]
    return [Instance("full_house", None, cards, cards, groups, key=h.mask & _rank_bits(h.c2))]


def _find_threes(h: _Hand) -> list[Instance]:
    if not h.c3:
        return []
    g = _groups(h.mask, h.c3)
    return [Instance("threes", None, g[0], g[0], g[:1], key=hand_mask(g[0]))]


def _find_one_pair(h: _Hand) -> list[Instance]:
    if not h.c2:
        return []
    g = _groups(h.mask, h.c2)
    return [Instance("one_pair", None, g[0][:2], g[0], g[:1], key=hand_mask(g[0]))]


#: How to find each checklist item in a hand; a convention's checklist orders them.
FINDERS = {
    "five_sf": lambda h: _sf_instances("five_sf", h.sm, 0) if any(runs(m)[0] for m in h.sm) else [],
    "fours": _find_fours,
    "four_sf": lambda h: _sf_instances("four_sf", h.sm, 1) if any(runs(m)[1] for m in h.sm) else [],
    "two_threes": lambda h: _grouped("two_threes", h, h.c3) if h.c3.bit_count() >= 2 else [],
    "full_house": _find_full_house,
    "three_sf": lambda h: (
        _sf_instances("three_sf", h.sm, 2) if any(runs(m)[2] for m in h.sm) else []
    ),
    "five_flush": lambda h: _flush_instances("five_flush", h.sm, tuple(range(5, 14))),
    "five_straight": lambda h: _straight_instances("five_straight", h.mask, h.any13, 0),
    "threes": _find_threes,
    "two_pair": lambda h: _grouped("two_pair", h, h.c2) if h.c2.bit_count() >= 2 else [],
    "four_flush": lambda h: _flush_instances("four_flush", h.sm, (4,)),
    "four_straight": lambda h: _straight_instances("four_straight", h.mask, h.any13, 1),
    "three_flush": lambda h: _flush_instances("three_flush", h.sm, (3,)),
    "three_straight": lambda h: _straight_instances("three_straight", h.mask, h.any13, 2),
    "one_pair": _find_one_pair,
}


def find_instances(
    mask: int, checklist: tuple[str, ...] = DEFAULT_CONVENTION.checklist
) -> tuple[str, list[Instance]]:
    """The first checklist item of a 52-bit hand mask and every instance of it, best first."""
    h = _Hand(mask)
    for item in checklist:
        found = FINDERS[item](h)
        if found:
            return item, found
    return "none", []


def _rank_bits(m13: int) -> int:
    return m13 | (m13 << 13) | (m13 << 26) | (m13 << 39)


def detect(cards: Iterable[Card], convention: Convention = DEFAULT_CONVENTION) -> Detection:
    """The first checklist item the cards contain (any number of cards, 13 down to 1).

    Where several holdings fit, the one giving the best signal is shown (see *Decisions* in
    :mod:`engine.signals`). ``convention`` is accepted for symmetry: every convention shares
    the checklist, but the order is read from it.
    """
    convention = require_convention(convention, "detect")
    item, instances = find_instances(hand_mask(cards, "detect"), convention.checklist)
    if not instances:
        return Detection("none", (), None)
    best = instances[0]
    return Detection(item, best.cards, best.shape)
