"""Hands that hold a chosen checklist item first, built rather than searched for."""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.cards import DECK, Card, Suit, sort_cards
from engine.drills.model import FILL_TRIES
from engine.errors import InvalidNotationError
from engine.signals import Convention, detect


def window_ranks(rng: random.Random) -> list[int]:
    low = rng.randint(1, 10)  # 1 = the Ace counted low (A-2-3-4-5)
    return [14 if r == 1 else r for r in range(low, low + 5)]


def card_of(rank: int, suit: Suit) -> Card:
    return DECK[int(suit) * 13 + rank - 2]


def _mixed_suits(rng: random.Random, n: int) -> list[Suit]:
    """Suits for ``n`` cards with no suit three times (three suited cards in one window would
    hold three to a straight flush, an earlier item)."""
    suits = [s for s in Suit for _ in range(2)]
    return rng.sample(suits, n)


def _window_count(ranks: list[int], low: int) -> int:
    """How many of ``ranks`` lie in the window starting at ``low`` (1 = A-2-3-4-5)."""
    return sum(1 for r in ranks if low <= r <= low + 4 or (low == 1 and r == 14))


def _spread_ranks(rng: random.Random, n: int) -> list[int]:
    """``n`` ranks with no three inside one window (so one suit of them holds no three to a
    straight flush)."""
    while True:
        chosen: list[int] = []
        for rank in rng.sample(range(2, 15), 13):
            trial = [*chosen, rank]
            if all(_window_count(trial, low) < 3 for low in range(1, 11)):
                chosen = trial
                if len(chosen) == n:
                    return chosen


#: Fewest cards that can hold each item.
MIN_CARDS = {
    "five_sf": 5,
    "fours": 4,
    "four_sf": 4,
    "two_threes": 6,
    "full_house": 5,
    "three_sf": 3,
    "five_flush": 5,
    "five_straight": 5,
    "threes": 3,
    "two_pair": 4,
    "four_flush": 4,
    "four_straight": 4,
    "three_flush": 3,
    "three_straight": 3,
    "one_pair": 2,
}
_GROUPS = {
    "two_threes": (3, 3),
    "full_house": (3, 2),
    "threes": (3,),
    "two_pair": (2, 2),
    "one_pair": (2,),
}
_RUN_LENGTH = {
    "five_flush": 5,
    "four_flush": 4,
    "three_flush": 3,
    "five_straight": 5,
    "four_straight": 4,
    "three_straight": 3,
}


def item_core(item: str, rng: random.Random) -> list[Card]:
    """A few cards that hold ``item`` (the fill may still reveal a higher item)."""
    suit = rng.choice(list(Suit))
    all_ranks = list(range(2, 15))
    if item == "five_sf":
        return [card_of(r, suit) for r in window_ranks(rng)]
    if item in ("four_sf", "three_sf"):
        window = window_ranks(rng)
        n = 4 if item == "four_sf" else 3
        span = 5 if n == 4 or rng.random() < 0.5 else 4  # shapes within four ranks are commoner
        return [card_of(window[i], suit) for i in sorted(rng.sample(range(span), n))]
    if item == "fours":
        rank = rng.choice(all_ranks)
        return [card_of(rank, s) for s in Suit]
    if item in _GROUPS:
        counts = _GROUPS[item]
        ranks = rng.sample(all_ranks, len(counts))
        return [
            card_of(r, s)
            for r, n in zip(ranks, counts, strict=True)
            for s in rng.sample(list(Suit), n)
        ]
    if item.endswith("_flush"):
        return [card_of(r, suit) for r in _spread_ranks(rng, _RUN_LENGTH[item])]
    if item.endswith("_straight"):
        window = window_ranks(rng)
        n = _RUN_LENGTH[item]
        ranks = [window[i] for i in sorted(rng.sample(range(5), n))]
        return [card_of(r, s) for r, s in zip(ranks, _mixed_suits(rng, n), strict=True)]
    raise InvalidNotationError(f"unknown checklist item: {item!r}")


def hand_with(
    item: str | None,
    size: int,
    rng: random.Random,
    convention: Convention,
    exclude: Iterable[Card] = (),
) -> tuple[Card, ...]:
    """A hand of ``size`` cards whose first checklist item is ``item`` (any when ``None``).

    The item's cards are placed first, then the rest added one at a time, skipping any card
    that would make an earlier checklist item appear (holding more cards can only move the first
    item earlier, so the hand keeps ``item`` first all along). When ``size`` cards cannot avoid a
    higher item (a 13-card hand always holds four of a suit, so ``one_pair`` lives only in small
    hands), the hand is smaller.
    """
    excluded = 0
    for c in exclude:
        excluded |= c.bit
    if item is None:
        pool = [c for c in DECK if not c.bit & excluded]
        return tuple(sort_cards(rng.sample(pool, size)))
    best: list[Card] = []
    target = max(size, MIN_CARDS[item])
    # A greedy pass ends with a hand no card can join without an earlier item, so a few passes
    # suffice; the core is redrawn when it alone shows an earlier item.
    attempts = 0
    for _ in range(FILL_TRIES):
        if attempts == 3:
            break
        core = item_core(item, rng)
        used = excluded
        for c in core:
            used |= c.bit
        if used & excluded or detect(core, convention).item != item:
            continue
        attempts += 1
        hand = list(core)
        pool = [c for c in DECK if not c.bit & used]
        rng.shuffle(pool)
        quick = hand + pool[: target - len(hand)]
        if detect(quick, convention).item == item:  # most fills of strong items just work
            return tuple(sort_cards(quick))
        for c in pool:
            if len(hand) == target:
                break
            hand.append(c)
            if detect(hand, convention).item != item:
                hand.pop()
        if len(hand) == target:
            return tuple(sort_cards(hand))
        if len(hand) > len(best):
            best = hand
    if not best:
        raise InvalidNotationError(f"no hand of {size} or fewer cards has {item!r} first")
    return tuple(sort_cards(best))
