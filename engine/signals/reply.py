"""Partner's reply to a signal (SIGNALS.md, *Partner's reply*).

>>> from engine.cards import card, parse_cards
>>> advice = reply_advice(parse_cards("9C 2D KH"), card("9H"), card("9S"), side_hand=1)
>>> advice.action, [str(c) for c in advice.cards]
('play', ['9C'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, rank_name
from engine.scoring import Combination, best_five
from engine.signals.checklist import card_at, hand_mask
from engine.signals.conventions import DEFAULT_CONVENTION, ITEM_TITLES, Convention
from engine.signals.decoder import _placements, primary_reading
from engine.signals.encoder import pattern_matches
from engine.signals.relations import signal_relations

__all__ = ["Advice", "PROMISE", "reply_advice"]

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
    plays ``cards``, a five-card combination of their own)."""

    action: str
    cards: tuple[Card, ...]
    reason: str


def _of_rank(hand: list[Card], rank: int) -> list[Card]:
    return [c for c in hand if c.rank == rank]


def _fits(values: set[int], v: int) -> bool:
    allv = values | {v}
    return max(allv) - min(allv) <= 4


def _straight_helpers(hand: list[Card], lo: int, hi: int, inside: bool) -> list[Card]:
    """Partner's cards of ranks that fit one window with lo..hi, one per rank, best first."""
    picked: dict[int, Card] = {}
    for c in sorted(hand, key=lambda c: c.rank):
        for v in ((1, 14) if c.rank == 14 else (c.rank,)):
            if v in (lo, hi) or not _fits({lo, hi}, v) or v in picked:
                continue
            if (lo < v < hi) == inside:
                picked[v] = c
    return list(picked.values())


def _completion(reading, c1: Card, c2: Card | None, hand: list[Card], conv: Convention):
    item = reading.item
    if item in ("five_sf", "fours", "five_flush", "five_straight"):
        return None
    if reading.shape and c2 is not None:
        mask = hand_mask(hand)
        for row in conv.rows_for(item):
            if row.shape != reading.shape or not pattern_matches(row.pattern, c1, c2):
                continue
            for _, held in _placements(row, c1, c2):
                for base in range(max(1, max(held) - 4), min(10, min(held)) + 1):
                    need = [card_at(c1.suit, v) for v in range(base, base + 5) if v not in held]
                    if all(c.bit & mask for c in need):
                        return need
        return None
    if item in ("two_threes", "threes", "one_pair") or (item == "two_pair"):
        ranks = [c1.rank] + ([c2.rank] if c2 is not None and c2.rank != c1.rank else [])
        for r in ranks:
            mine = _of_rank(hand, r)
            if mine:
                return mine[:2] if item == "one_pair" else mine[:1]
        return None
    if item == "full_house":
        mine = _of_rank(hand, c1.rank)
        if mine:
            return mine[:1]
        mine = _of_rank(hand, c2.rank) if c2 else []
        return mine[:2] if len(mine) >= 2 else None
    if item in ("four_flush", "three_flush"):
        need = 1 if item == "four_flush" else 2
        suited = sorted((c for c in hand if c.suit == c1.suit), key=lambda c: c.rank)
        return suited[:need] if len(suited) >= need else None
    if item in ("four_straight", "three_straight") and c2 is not None:
        rel = signal_relations(c1, c2)
        lo, hi = sorted((rel.value1, rel.value2))  # type: ignore[type-var]
        if item == "four_straight":
            found = _straight_helpers(hand, lo, hi, True) + _straight_helpers(hand, lo, hi, False)
            return found[:1] or None
        found = _straight_helpers(hand, lo, hi, False)
        return found[:2] if len(found) >= 2 else None
    return None


def _least_useful(hand: list[Card]) -> Card:
    def usefulness(c: Card) -> tuple[int, int, int, int]:
        same_rank = sum(1 for x in hand if x.rank == c.rank) - 1
        same_suit = sum(1 for x in hand if x.suit == c.suit) - 1
        near = sum(1 for x in hand if x.rank != c.rank and abs(x.rank - c.rank) <= 4)
        return (same_rank, same_suit + near, c.rank, c.suit)

    return min(hand, key=usefulness)


def reply_advice(
    hand: Iterable[Card],
    c1: Card,
    c2: Card | None,
    side_hand: int,
    convention: Convention = DEFAULT_CONVENTION,
    visible: Iterable[Card] = (),
) -> Advice:
    """What partner (holding ``hand``) should do after the leader's signal."""
    cards = list(hand)
    reading = primary_reading(c1, c2, side_hand, convention, (*cards, *visible))
    if len(cards) >= 5:
        own, five = best_five(cards)
        promised = PROMISE[reading.item] if reading else Combination.NOTHING
        if own > promised:
            return Advice("force", five, f"You alone hold {own.label} ({_symbols(five)}), "
                          f"better than the {promised.label} partner's signal promises: say "
                          "“Play!” so partner completes this hand alone, and keep your "
                          "cards for a hand you lead.")
    if reading is not None:
        need = _completion(reading, c1, c2, cards, convention)
        if need:
            return Advice("play", tuple(need), f"Partner shows {ITEM_TITLES[reading.item].lower()}"
                          f"; {_symbols(need)} completes it.")
    if c2 is None and cards:
        fourth = _of_rank(cards, c1.rank)
        if fourth:
            return Advice("play", tuple(fourth), f"You must play after a card and pass: add "
                          f"your {rank_name(c1.rank, plural=len(fourth) > 1)}.")
        pairs = [r for r in sorted({c.rank for c in cards}) if len(_of_rank(cards, r)) >= 2]
        if pairs:
            pair = tuple(_of_rank(cards, pairs[0])[:2])
            return Advice("play", pair, f"You must play: a pair of your own, the "
                          f"{rank_name(pairs[0], plural=True)}.")
        least = _least_useful(cards)
        return Advice("play", (least,), f"You must play: the {least.label} is the card least "
                      "useful later.")
    what = ITEM_TITLES[reading.item].lower() if reading else "no signal"
    return Advice("pass", (), f"Partner shows {what} and you have nothing to add: pass and let "
                  "the leader complete the hand.")


def _symbols(cards: Iterable[Card]) -> str:
    """Cards as a reader sees them: ``10♠ J♠``."""
    return " ".join(c.symbol for c in cards)
