"""Partner's reply to a signal (docs/signals.md, *Partner's reply*).

>>> from engine.cards import card, parse_cards
>>> advice = reply_advice(parse_cards("9C 2D KH"), card("9H"), card("9S"), side_hand=1)
>>> advice.action, [str(c) for c in advice.cards]
('play', ['9C'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations, permutations

from engine.cards import Card, cards_mask
from engine.messages import Cards, Msg, Term, card_label
from engine.scoring import Combination, best_five
from engine.signals.checklist import card_at, hand_mask
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    Convention,
    require_convention,
)
from engine.signals.decoder import _placements, decode, holding_leads, primary_reading
from engine.signals.encoder import pattern_matches
from engine.signals.relations import signal_relations
from engine.signals.witness import sized_primary

__all__ = [
    "COMPLETE_THRESHOLD",
    "PROMISE",
    "Advice",
    "Holding",
    "best_completion",
    "completes_reading",
    "reply_advice",
    "signal_holdings",
]

#: What each item promises the side when partner completes it (compared before forcing).
PROMISE: dict[str, Combination] = {
    "five_sf": Combination.STRAIGHT_FLUSH,
    "fours": Combination.FOURS,
    "four_sf": Combination.STRAIGHT_FLUSH,
    "two_threes": Combination.FOURS,
    "full_house": Combination.FULL_HOUSE,
    "three_sf": Combination.STRAIGHT_FLUSH,
    "five_flush": Combination.FLUSH,
    "five_straight": Combination.STRAIGHT,
    "threes": Combination.THREES,
    "two_pair": Combination.TWO_PAIR,
    "four_flush": Combination.FLUSH,
    "four_straight": Combination.STRAIGHT,
    "three_flush": Combination.FLUSH,
    "three_straight": Combination.STRAIGHT,
    "one_pair": Combination.ONE_PAIR,
}


@dataclass(frozen=True, slots=True)
class Advice:
    """``action`` is ``play`` (the ``cards``, in order), ``pass`` or ``force`` (partner then
    plays ``cards``, a five-card combination of their own).

    ``accepted`` lists every reply as good as this one: card tuples for ``play``, and ``()``
    standing for the action itself for ``pass`` and ``force``. ``odds`` is
    ``(completed, holdings)`` when the advice rests on the holdings the signal allows.
    ``too_few`` is, for a pass, the card set completing the most holdings when that is fewer
    than :data:`COMPLETE_THRESHOLD` of them (what a bot may still try).
    """

    action: str
    cards: tuple[Card, ...]
    reason: Msg
    accepted: tuple[tuple[Card, ...], ...] = ((),)
    odds: tuple[int, int] | None = None
    too_few: tuple[Card, ...] = ()


#: A holding of the leader's, as the ways partner can complete it: each way a tuple of
#: *slots*, each slot a mask of the cards any one of which fills it.
Holding = tuple[tuple[int, ...], ...]

#: Play a completing card only when it completes at least this share of the holdings the
#: signal allows; otherwise pass and let the leader build the hand.
COMPLETE_THRESHOLD = 0.5

_SUIT_MASKS = [0x1FFF << (13 * s) for s in range(4)]


def _rank_mask(value: int) -> int:
    r = 14 if value == 1 else value
    return sum(1 << (s * 13 + r - 2) for s in range(4))


def _in_window(c: Card, base: int) -> bool:
    return base <= c.rank <= base + 4 or (c.rank == 14 and base == 1)


def _ways(
    c1: Card, c2: Card, window: Callable[[int], list[int]], held: int
) -> tuple[tuple[int, ...], ...]:
    """The ways partner completes a holding: for each five-rank window holding both signal
    cards (they are in the hand already), the slots of that window the holding leaves open.
    ``window(base)`` gives the window's five slot masks (0 for a slot the leader fills);
    ``held`` masks the leader's cards (for straight flushes, whose slots are single cards)."""
    ways: list[tuple[int, ...]] = []
    for base in range(1, 11):
        if not (_in_window(c1, base) and _in_window(c2, base)):
            continue
        slots = tuple(m for m in window(base) if m and not m & held)
        if slots and slots not in ways:
            ways.append(slots)
    return tuple(ways)


def _windows(values: Iterable[int]) -> list[int]:
    """Lowest values (1 = Ace low) of the five-rank windows holding every one of ``values``."""
    vs = list(values)
    return list(range(max(1, max(vs) - 4), min(10, min(vs)) + 1))


#: How many cards of a reading's holding the leader holds besides the two signal cards, for
#: the items whose holding is not placed by a straight-flush shape.
_EXTRA_HELD = {"four_flush": 2, "three_flush": 1}


def signal_holdings(
    item: str,
    shapes: Iterable[str | None],
    c1: Card,
    c2: Card,
    convention: Convention,
    seen: int,
) -> list[Holding]:
    """Every leader holding the reading ``item`` (with one of ``shapes``) admits, each as its
    ways of being completed by partner's cards.

    ``seen`` is the mask of every card the reader sees: their own hand and the completed
    hands (the two signal cards may be in it or not). A holding is kept only when each card
    it needs beyond the two signal cards can still be in the leader's hand. This is the one
    enumeration behind reply advice, its "X of N holdings" sentences, the coach and the bots.

    >>> from engine.cards import card, parse_cards
    >>> from engine.signals.conventions import get_convention
    >>> len(signal_holdings("three_straight", {None}, card("5D"), card("3C"),
    ...     get_convention("parlett-2008"), hand_mask(parse_cards("AS 2H 4S 4H 4D"))))
    1
    """
    played = c1.bit | c2.bit
    seen &= ~played
    if item in ("four_sf", "three_sf"):
        wanted = set(shapes)
        placements: list[tuple[int, ...]] = []
        for row in convention.rows_for(item):
            if row.shape not in wanted or not pattern_matches(row.pattern, c1, c2):
                continue
            for _, held in _placements(row, c1, c2):
                if held not in placements:
                    placements.append(held)
        out: list[Holding] = []
        for held in placements:
            held_mask = hand_mask(card_at(c1.suit, v) for v in held)
            if held_mask & ~played & seen:
                continue  # a card the holding needs is in sight
            out.append(
                _ways(
                    c1,
                    c2,
                    lambda base: [card_at(c1.suit, v).bit for v in range(base, base + 5)],
                    held_mask,
                )
            )
        return out
    if item in _EXTRA_HELD:
        suit = _SUIT_MASKS[c1.suit] & ~played
        if not _realizable(item, c1, c2, convention, suit & ~seen, _EXTRA_HELD[item]):
            return []
        return [((suit,) * (1 if item == "four_flush" else 2),)]
    rel = signal_relations(c1, c2)
    if item in ("four_straight", "three_straight") and rel.in_range:
        lo, hi = sorted((int(rel.value1), int(rel.value2)))  # type: ignore[arg-type]
        extra = 2 if item == "four_straight" else 1
        sets: set[tuple[int, ...]] = set()
        for base in _windows((lo, hi)):
            inner = [v for v in range(base, base + 5) if v not in (lo, hi)]
            for more in combinations(inner, extra):
                vals = tuple(sorted((lo, hi, *more)))
                if item == "three_straight" and (vals[0], vals[-1]) != (lo, hi):
                    continue  # three to a straight is shown highest then lowest
                sets.add(vals)
        out = []
        for vals in sorted(sets):
            if any(not _rank_mask(v) & ~seen & ~played for v in vals if v not in (lo, hi)):
                continue  # every card of a rank the leader needs besides the signal is in sight
            held_ranks = {14 if v == 1 else v for v in vals}
            out.append(
                _ways(
                    c1,
                    c2,
                    lambda base, held=held_ranks: [  # type: ignore[misc]
                        0 if (14 if v == 1 else v) in held else _rank_mask(v)
                        for v in range(base, base + 5)
                    ],
                    0,
                )
            )
        return out
    r1 = _rank_mask(c1.rank) & ~played
    r2 = _rank_mask(c2.rank) & ~played

    def unseen(mask: int, k: int) -> bool:
        return (mask & ~seen).bit_count() >= k

    if item == "two_threes":
        return [((r1,), (r2,))] if unseen(r1, 2) and unseen(r2, 2) else []
    if item == "full_house":
        return [((r1,), (r2, r2))] if unseen(r1, 2) and unseen(r2, 1) else []
    if item == "two_pair":
        if c1.rank == c2.rank:
            return [((r1,),)]  # a third of the shown rank: a full house
        if not _realizable(item, c1, c2, convention, (r1 | r2) & ~seen, 2):
            return []
        return [((r1,), (r2,))]
    return []


def _realizable(item: str, c1: Card, c2: Card, convention: Convention, free: int, k: int) -> bool:
    """Whether ``k`` more cards from the mask ``free`` make, with c1 and c2, a holding of
    ``item`` whose encoding plays exactly this signal: the decoder's rule
    (:func:`~engine.signals.decoder.holding_leads`), so the guide and the reading agree."""
    return holding_leads(item, None, c1, c2, convention, (((free, k),),), _ALL & ~free)


_ALL = (1 << 52) - 1


def _fills(cards: tuple[Card, ...], way: tuple[int, ...]) -> bool:
    """Whether ``cards`` fill the slots of ``way``, one card to a slot."""
    if len(cards) != len(way):
        return False
    if len(cards) == 1:
        return bool(cards[0].bit & way[0])
    return any(
        all(c.bit & m for c, m in zip(order, way, strict=True)) for order in permutations(cards)
    )


def _completes(cards: tuple[Card, ...], holding: Holding) -> bool:
    """Whether ``cards`` complete ``holding`` with none to spare (no smaller part of them
    completes it: a card that is not needed is not part of the reply)."""
    if not any(_fills(cards, way) for way in holding):
        return False
    return not any(
        _fills(part, way)
        for k in range(1, len(cards))
        for part in combinations(cards, k)
        for way in holding
        if len(way) == k
    )


def best_completion(
    hand: list[Card], holdings: list[Holding]
) -> tuple[list[tuple[Card, ...]], int]:
    """Partner's card sets completing the most holdings, and how many holdings that is."""
    sizes = {len(way) for h in holdings for way in h}
    useful = 0
    for h in holdings:
        for way in h:
            for m in way:
                useful |= m
    ordered = sorted((c for c in hand if c.bit & useful), key=lambda c: (c.rank, c.suit))
    candidates: list[tuple[Card, ...]] = []
    for k in sorted(sizes):
        candidates += list(combinations(ordered, k))
    best: list[tuple[Card, ...]] = []
    top = 0
    for cand in candidates:
        n = sum(1 for h in holdings if _completes(cand, h))
        if n > top:
            best, top = [cand], n
        elif n == top and n:
            best.append(cand)
    return best, top


def _covers(cards: tuple[Card, ...], holding: Holding) -> bool:
    """Whether some of ``cards`` complete ``holding`` (spare cards allowed)."""
    return any(
        _fills(part, way)
        for way in holding
        if len(way) <= len(cards)
        for part in combinations(cards, len(way))
    )


def completes_reading(
    cards: Iterable[Card],
    item: str,
    shapes: Iterable[str | None],
    c1: Card,
    c2: Card,
    convention: Convention,
    seen: int,
) -> bool:
    """Whether some of ``cards`` (partner's answer to the signal ``c1``, ``c2``) complete a
    holding the reading ``item`` (with one of ``shapes``) admits: the reading partner's answer
    implies. ``seen`` is the mask of the cards partner saw (as :func:`signal_holdings`)."""
    played = tuple(cards)
    holdings = signal_holdings(item, shapes, c1, c2, convention, seen)
    return any(_covers(played, h) for h in holdings)


def _some(
    title: Term,
    cards: list[Card],
    best: list[tuple[Card, ...]],
    top: int,
    holdings: list[Holding],
) -> Msg:
    """Partner's best cards complete ``top`` of the holdings: the sentence says so, and, when
    one more of partner's ``cards`` with them completes more (♥7 completes one of two
    holdings, ♥J the other, and partner holds both), what the two do together."""
    total = len(holdings)
    shown = Cards(tuple(best[0]))
    extra, both = None, top
    for card in sorted(cards, key=lambda c: (c.rank, c.suit)):
        if card in best[0]:
            continue
        n = sum(1 for h in holdings if _covers((*best[0], card), h))
        if n > both:
            extra, both = card, n
    if extra is None:
        return Msg("advice.complete.some", item=title, cards=shown, top=top, n=total)
    more = Cards((extra,))
    if both == total:
        return Msg(
            "advice.complete.some.with_every", item=title, cards=shown, top=top, n=total, more=more
        )
    return Msg(
        "advice.complete.some.with_more",
        item=title,
        cards=shown,
        top=top,
        n=total,
        more=more,
        both=both,
    )


def reply_advice(
    hand: Iterable[Card],
    c1: Card,
    c2: Card | None,
    side_hand: int,
    convention: Convention = DEFAULT_CONVENTION,
    visible: Iterable[Card] = (),
    *,
    leader_cards: int | None = None,
) -> Advice:
    """What partner (holding ``hand``) should do after the leader's signal.

    After ``c1`` and pass partner must play: a third pass is not allowed and neither is
    "Play!" (nor when the leader has no cards left, ``leader_cards == 0``). The primary
    reading is the first one a hand of the leader's size can show, when ``leader_cards``
    (the leader's cards left after the signal) is given. Completing cards
    are judged over every holding the primary reading admits: the card set completing the
    most of them is advised when that is at least :data:`COMPLETE_THRESHOLD` of them, and
    ``odds`` says how many.
    """
    convention = require_convention(convention, "reply_advice")
    cards = [] if isinstance(hand, str) else list(hand)
    cards_mask(hand if isinstance(hand, str) else cards, "reply_advice")
    seen_cards = (*cards, *visible)
    if leader_cards is None:
        reading = primary_reading(c1, c2, side_hand, convention, seen_cards)
    else:  # the leader's hand size is known: its first reading a hand of that size can show
        size = leader_cards + (1 if c2 is None else 2)
        reading = sized_primary((c1, c2), side_hand, size, seen_cards, convention)
    must_play = c2 is None or leader_cards == 0
    if not cards:
        return Advice("pass", (), Msg("advice.no_cards"))
    if not must_play and len(cards) >= 5:
        own, five = best_five(cards)
        promised = PROMISE[reading.item] if reading else Combination.NOTHING
        if own > promised:
            return Advice(
                "force",
                five,
                Msg(
                    "advice.force",
                    own=Term("combo_lower", own.value),
                    cards=Cards(tuple(five)),
                    promised=Term("combo_lower", promised.value),
                ),
            )
    if reading is not None and c2 is not None:
        seen = hand_mask(seen_cards)
        shapes = {
            r.shape
            for r in decode(c1, c2, side_hand, convention, seen_cards)
            if r.item == reading.item
        }
        holdings = signal_holdings(reading.item, shapes, c1, c2, convention, seen)
        best, top = best_completion(cards, holdings) if holdings else ([], 0)
        title = Term("item_lower", str(reading.item))
        total = len(holdings)
        if best and top >= COMPLETE_THRESHOLD * total:
            shown = Cards(tuple(best[0]))
            if top == total == 1:
                how = Msg("advice.complete.one", item=title, cards=shown)
            elif top == total:
                how = Msg("advice.complete.every", item=title, cards=shown, n=total)
            else:
                how = _some(title, cards, best, top, holdings)
            return Advice(
                "play",
                best[0],
                how,
                tuple(best),
                (top, total),
            )
        if best and not must_play:
            return Advice(
                "pass",
                (),
                Msg("advice.too_few", item=title, cards=Cards(tuple(best[0])), top=top, n=total),
                odds=(top, total),
                too_few=tuple(best[0]),
            )
    if must_play:
        same = _of_rank(cards, c1.rank)
        if same:
            return Advice(
                "play",
                (same[0],),
                Msg("advice.add_rank", rank=Term("rank", str(c1.rank))),
                tuple((c,) for c in same),
            )
        pairs = [r for r in sorted({c.rank for c in cards}) if len(_of_rank(cards, r)) >= 2]
        if pairs:
            pair = tuple(_of_rank(cards, pairs[0])[:2])
            return Advice(
                "play",
                pair,
                Msg("advice.own_pair", ranks=Term("ranks", str(pairs[0]))),
                (pair,),
            )
        least = _least_useful(cards)
        ties = [c for c in cards if _usefulness(cards, c)[:2] == _usefulness(cards, least)[:2]]
        return Advice(
            "play",
            (least,),
            Msg("advice.least_useful", card=card_label(least)),
            tuple((c,) for c in sorted(ties, key=lambda c: c.index)),
        )
    if reading is None:
        return Advice("pass", (), Msg("advice.nothing_to_add.no_signal"))
    return Advice(
        "pass", (), Msg("advice.nothing_to_add", item=Term("item_lower", str(reading.item)))
    )


def _of_rank(hand: list[Card], rank: int) -> list[Card]:
    return [c for c in hand if c.rank == rank]


def _usefulness(hand: list[Card], c: Card) -> tuple[int, int, int, int]:
    same_rank = sum(1 for x in hand if x.rank == c.rank) - 1
    same_suit = sum(1 for x in hand if x.suit == c.suit) - 1
    near = sum(1 for x in hand if x.rank != c.rank and abs(x.rank - c.rank) <= 4)
    return (same_rank, same_suit + near, c.rank, c.suit)


def _least_useful(hand: list[Card]) -> Card:
    return min(hand, key=lambda c: _usefulness(hand, c))
