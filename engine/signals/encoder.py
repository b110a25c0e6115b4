"""The encoder: which cards the leader plays to show the first checklist item.

Each convention row names a *rule* from the fixed vocabulary :data:`RULES`. A rule proposes
candidate plays from one :class:`~engine.signals.checklist.Instance` in order of preference;
the row keeps those matching its :class:`~engine.signals.conventions.Pattern` (see
:func:`pattern_matches`, which the decoder uses too).

>>> from engine.cards import parse_cards
>>> enc = encode(parse_cards("5S 4S 2S AS"), side_hand=1)
>>> enc.item, enc.shape, [(str(a), str(b)) for a, b in enc.plays]
(ChecklistItem.FOUR_SF, 'XX.XX', [('5S', '2S'), ('4S', 'AS')])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import ConcertoError
from engine.signals.checklist import Instance, card_at, find_instances, hand_mask
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    Convention,
    Pattern,
    Row,
    require_convention,
)
from engine.signals.relations import signal_relations

__all__ = [
    "PLAY_OUT",
    "RULES",
    "Encoding",
    "InvalidSideHandError",
    "Play",
    "check_side_hand",
    "encode",
    "is_strong_round",
    "pattern_matches",
]

#: The ``rows`` entry of a play that plays an unsignalled item out (:attr:`Encoding.played_out`).
PLAY_OUT = "play_out"

#: A signal: ``(c1, c2)``, or ``(c1, None)`` for "c1 and pass".
Play = tuple[Card, Card | None]


class InvalidSideHandError(ConcertoError):
    """A side hand outside 1..4."""


def check_side_hand(side_hand: int) -> int:
    if isinstance(side_hand, bool) or not isinstance(side_hand, int) or not 1 <= side_hand <= 4:
        raise InvalidSideHandError(f"side hand must be 1..4, not {side_hand!r}")
    return side_hand


def is_strong_round(side_hand: int) -> bool:
    """Side hands 1-2 are the strong round, 3-4 the weak round."""
    return check_side_hand(side_hand) <= 2


@dataclass(frozen=True, slots=True)
class Encoding:
    """The item shown, its shape, the cards making it, and every correct play (preferred first).

    ``rows`` names the row that produced each play (parallel to ``plays``). ``played_out``:
    the item has no signal in this convention (four of a kind in teach-yourself-1994), so the
    leader plays it out at once: ``plays`` are every two of its cards, in either order, and
    ``rows`` say :data:`PLAY_OUT`.
    """

    item: str
    shape: str | None
    cards: tuple[Card, ...]
    plays: tuple[Play, ...]
    rows: tuple[str, ...] = ()
    played_out: bool = False

    @property
    def preferred(self) -> Play | None:
        return self.plays[0] if self.plays else None


def pattern_matches(p: Pattern, c1: Card, c2: Card | None) -> bool:
    """Whether the signal ``c1, c2`` has the suit and rank relations ``p`` asks for."""
    if c2 is None:
        return p.rank == "pass" and (p.c1_suits is None or c1.suit in p.c1_suits)
    if p.rank == "pass" or c1 is c2:
        return False
    rel = signal_relations(c1, c2)
    if rel.suit not in p.suits:
        return False
    d = rel.distance
    if p.rank == "same":
        if d:
            return False
    elif p.rank == "different":
        if not d:
            return False
    elif rel.direction != p.rank:
        return False
    if not p.d_min <= d <= p.d_max:  # type: ignore[operator]
        return False
    if p.c1_suits is not None and c1.suit not in p.c1_suits:
        return False
    if p.c2_suits is not None and c2.suit not in p.c2_suits:
        return False
    return (c1.suit, c2.suit) not in p.not_suit_pairs


# ---------------------------------------------------------------------------------------------
# The rule vocabulary: candidates in order of preference, before the row's pattern filters them.


def _value(c: Card) -> int:
    return c.rank


def _pair_pref(a: Card, b: Card) -> int:
    """Two cards of one rank: black before red; within a colour, minor before major."""
    if a.suit.is_red != b.suit.is_red:
        return 0 if not a.suit.is_red else 1
    return 0 if not a.suit.is_major else 1


def _rule_positions(inst: Instance, row: Row) -> list[Play]:
    if inst.shape != row.shape:
        return []
    return [
        (card_at(inst.suit, inst.lo + p1), card_at(inst.suit, inst.lo + p2))
        for p1, p2 in row.positions
    ]


def _rule_rank_pairs(inst: Instance, row: Row) -> list[Play]:
    out: list[Play] = []
    for g in inst.groups:
        pairs = [(a, b) for a in g for b in g if a is not b]
        pairs.sort(key=lambda p: _pair_pref(*p))
        out.extend(pairs)
    return out


def _rule_cross_groups(inst: Instance, row: Row) -> list[Play]:
    out: list[Play] = []
    gs = inst.groups
    for i in range(len(gs)):
        for j in range(i + 1, len(gs)):
            out.extend((a, b) for a in gs[i] for b in gs[j])
            out.extend((b, a) for a in gs[i] for b in gs[j])
    return out


def _rule_three_then_pair(inst: Instance, row: Row) -> list[Play]:
    three = inst.groups[0]
    return [(a, b) for g in inst.groups[1:] for b in g for a in three]


def _rule_high_pair_then_low(inst: Instance, row: Row) -> list[Play]:
    gs = inst.groups
    return [
        (a, b) for i in range(len(gs)) for j in range(i + 1, len(gs)) for a in gs[i] for b in gs[j]
    ]


def _by_rank(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_value)


def _rule_flush_ends(inst: Instance, row: Row) -> list[Play]:
    cards = _by_rank(inst.pool)
    return [(cards[0], cards[-1])]


def _rule_flush_low_any(inst: Instance, row: Row) -> list[Play]:
    cards = _by_rank(inst.pool)
    return [(cards[0], c) for c in reversed(cards[1:])]


def _rule_flush_up(inst: Instance, row: Row) -> list[Play]:
    ups = []
    for a in inst.pool:
        for b in inst.pool:
            if a is not b:
                rel = signal_relations(a, b)
                if rel.direction == "up" and rel.in_range:
                    ups.append((rel.value1, -rel.distance, a, b))  # type: ignore[operator]
    if not ups:
        return []
    lowest = min(u[0] for u in ups)
    return [(a, b) for v, _, a, b in sorted(ups, key=lambda u: (u[0], u[1])) if v == lowest]


def _rule_flush_down(inst: Instance, row: Row) -> list[Play]:
    pairs = []
    for a in inst.pool:
        for b in inst.pool:
            if a is not b:
                rel = signal_relations(a, b)
                pairs.append((-rel.value1, -(rel.distance or 0), a, b))
    pairs.sort(key=lambda p: (p[0], p[1]))
    return [(a, b) for _, _, a, b in pairs]


def _rule_flush_top_bottom(inst: Instance, row: Row) -> list[Play]:
    cards = _by_rank(inst.pool)
    return [(cards[-1], cards[0])]


def _ends(inst: Instance) -> tuple[list[Card], list[Card]]:
    lo_rank = 14 if inst.values[0] == 1 else inst.values[0]
    hi_rank = inst.values[-1]
    lows = [c for c in inst.pool if c.rank == lo_rank]
    return lows, [c for c in inst.pool if c.rank == hi_rank]


def _rule_straight_ends(inst: Instance, row: Row) -> list[Play]:
    lows, highs = _ends(inst)
    return [(a, b) for a in lows for b in highs]


def _rule_straight_top_bottom(inst: Instance, row: Row) -> list[Play]:
    lows, highs = _ends(inst)
    return [(b, a) for b in highs for a in lows]


def _rule_straight_up(inst: Instance, row: Row) -> list[Play]:
    pairs = []
    for a in inst.pool:
        for b in inst.pool:
            if a.rank != b.rank:
                rel = signal_relations(a, b)
                pairs.append((rel.distance, rel.value1, a, b))
    pairs.sort(key=lambda p: (p[0], p[1]))
    return [(a, b) for _, _, a, b in pairs]


def _rule_suit_and_pass(inst: Instance, row: Row) -> list[Play]:
    group = inst.groups[0]
    for tier in row.params:
        found = [c for s in tier for c in group if c.suit == s]
        if found:
            return [(c, None) for c in found]
    return []


#: The rule vocabulary convention rows may name.
RULES: dict[str, Callable[[Instance, Row], list[Play]]] = {
    "positions": _rule_positions,
    "rank_pairs": _rule_rank_pairs,
    "cross_groups": _rule_cross_groups,
    "three_then_pair": _rule_three_then_pair,
    "high_pair_then_low": _rule_high_pair_then_low,
    "flush_ends": _rule_flush_ends,
    "flush_low_any": _rule_flush_low_any,
    "flush_up": _rule_flush_up,
    "flush_down": _rule_flush_down,
    "flush_top_bottom": _rule_flush_top_bottom,
    "straight_ends": _rule_straight_ends,
    "straight_top_bottom": _rule_straight_top_bottom,
    "straight_up": _rule_straight_up,
    "suit_and_pass": _rule_suit_and_pass,
}


def instance_plays(
    inst: Instance, rows: tuple[Row, ...]
) -> tuple[list[tuple[Play, Row]], list[tuple[Play, Row]]]:
    """``(regular, fallback)`` plays of one instance, each with the row producing it."""
    regular: list[tuple[Play, Row]] = []
    fallback: list[tuple[Play, Row]] = []
    last: list[Play] = []
    for row in rows:
        if row.shape is not None and row.shape != inst.shape:
            continue
        if row.otherwise and last:
            continue
        plays = [p for p in RULES[row.rule](inst, row) if pattern_matches(row.pattern, *p)]
        last = plays
        (fallback if row.fallback else regular).extend((p, row) for p in plays)
    return regular, fallback


_PlaysOf = tuple[list[tuple[Play, Row]], list[tuple[Play, Row]]]
_CACHE: dict[tuple[str, str, str, str | None, int, int], _PlaysOf] = {}
_CACHE_LIMIT = 200_000


def cached_plays(conv: Convention, inst: Instance) -> _PlaysOf:
    """:func:`instance_plays` of ``inst`` under ``conv``'s rows, kept (the encoder's, and the
    decoder's :func:`~engine.signals.decoder.holding_leads`, memo of plays by instance)."""
    key = (conv.name, conv.version, inst.item, inst.shape, inst.key, inst.lo)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        found = instance_plays(inst, conv.rows_for(inst.item))
        _CACHE[key] = found
    return found


def encode(
    hand: Iterable[Card], side_hand: int, convention: Convention = DEFAULT_CONVENTION
) -> Encoding:
    """The item the leader shows and every correct play, preferred first.

    Every holding of the first signalled item counts, whatever its shape: a hand holding
    ♦6-7-8-10 (``XXX.X``) beside ♠2-3-4-5 (``XXXX``) may show either, and both leads are right;
    ``shape`` and ``cards`` name the preferred holding. An item the convention gives no row
    (four of a kind in teach-yourself-1994) has no signal: the leader plays it out at once,
    any card of it, then another (partner passes after each), then the rest; every two of
    its cards in either order are correct and ``played_out`` is set.
    The side hand does not change what is shown (the same checklist applies in every round);
    it is checked and kept in the signature because readings depend on it.

    >>> from engine.cards import parse_cards
    >>> from engine.signals.conventions import get_convention
    >>> enc = encode(parse_cards("7S 7H 7D 7C 2D"), 1, get_convention("teach-yourself-1994"))
    >>> enc.item, enc.played_out, len(enc.plays), [str(c) for c in enc.plays[0]]
    (ChecklistItem.FOURS, True, 12, ['7S', '7H'])
    """
    check_side_hand(side_hand)
    convention = require_convention(convention, "encode")
    mask = hand_mask(hand, "encode")
    item, instances = find_instances(mask, convention.checklist)
    if not instances:
        return Encoding("none", None, (), ())
    if item in convention.unsignalled_items:
        out = tuple(
            (a, b) for inst in instances for a in inst.cards for b in inst.cards if a is not b
        )
        return Encoding(
            item, None, instances[0].cards, out, (PLAY_OUT,) * len(out), played_out=True
        )
    regular: list[tuple[Play, Row, Instance]] = []
    fallback: list[tuple[Play, Row, Instance]] = []
    for inst in instances:
        reg, fb = cached_plays(convention, inst)
        regular.extend((p, r, inst) for p, r in reg)
        fallback.extend((p, r, inst) for p, r in fb)
    chosen = regular or fallback
    seen: set[Play] = set()
    plays: list[Play] = []
    rows: list[str] = []
    for p, r, _ in chosen:
        if p not in seen:
            seen.add(p)
            plays.append(p)
            rows.append(r.id)
    best = chosen[0][2] if chosen else instances[0]
    return Encoding(item, best.shape, best.cards, tuple(plays), tuple(rows))
