"""Every share a reply states is counted right: ``signal_holdings`` against brute force.

For reply drills after a two-card signal (both conventions, both scoring rules, side hands
1-4), an independent enumeration walks every set of cards the leader could hold besides the
signal (cards the replier cannot see), keeps the sets whose encoding plays the signal as the
reading's item, groups them into holdings (the ranks for straights, the cards for straight
flushes, one holding for flushes and for pairs), and asks the scorer which of the replier's
card sets turn each holding into the combination the item aims at. The advice's counts
("completes it in X of N", "only X of N", "nothing to add") and its answer key must equal
that enumeration.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest

from engine.cards import DECK, Card
from engine.drills import Drill, DrillParams, make_drill
from engine.drills.kinds.reply import advice_for
from engine.scoring import Combination, evaluate
from engine.signals import decode, get_convention
from engine.signals.checklist import find_instances, hand_mask
from engine.signals.encoder import instance_plays
from engine.signals.reply import COMPLETE_THRESHOLD
from engine.signals.witness import sized_primary

CONVENTIONS = ("parlett-2008", "teach-yourself-1994")
RULES = ("classic", "contribution")
SEEDS = 300
VOLUME_SEEDS = 1200

#: Cards the leader holds for the item besides the two signal cards.
EXTRA = {
    "four_sf": 2,
    "three_sf": 1,
    "two_threes": 4,
    "full_house": 3,
    "four_flush": 2,
    "three_flush": 1,
    "four_straight": 2,
    "three_straight": 1,
}
#: What partner's cards complete the item to (the checklist's aim, not its promise).
TARGET = {
    "four_sf": Combination.STRAIGHT_FLUSH,
    "three_sf": Combination.STRAIGHT_FLUSH,
    "two_threes": Combination.FOURS,
    "full_house": Combination.FOURS,
    "two_pair": Combination.FULL_HOUSE,
    "four_flush": Combination.FLUSH,
    "three_flush": Combination.FLUSH,
    "four_straight": Combination.STRAIGHT,
    "three_straight": Combination.STRAIGHT,
}


def _value_set(cards: tuple[Card, ...]) -> frozenset[int]:
    return frozenset(c.rank for c in cards)


def _candidates(item: str, c1: Card, c2: Card, unseen: list[Card]) -> list[Card]:
    """Cards that can belong to the holding: a cheap necessary filter before the encoder."""
    if item in ("four_sf", "three_sf", "four_flush", "three_flush"):
        return [c for c in unseen if c.suit == c1.suit]
    if item in ("four_straight", "three_straight"):

        def near(a: int, b: int) -> bool:
            return min(abs(a - b), abs((1 if a == 14 else a) - (1 if b == 14 else b))) <= 4

        return [c for c in unseen if near(c.rank, c1.rank) and near(c.rank, c2.rank)]
    if item in ("two_threes", "full_house"):
        return [c for c in unseen if c.rank in (c1.rank, c2.rank)]
    return unseen


def _group(item: str, held: tuple[Card, ...]) -> object:
    if item in ("four_sf", "three_sf"):
        return hand_mask(held)
    if item in ("four_straight", "three_straight"):
        return _value_set(held)
    return item  # flushes and pairs: one holding


def brute_holdings(
    item: str, c1: Card, c2: Card, seen: set[Card], convention: str
) -> dict[object, list[tuple[Card, ...]]]:
    """Every group of leader holdings showing ``item`` by exactly this signal."""
    conv = get_convention(convention)
    unseen = [c for c in DECK if c not in seen and c is not c1 and c is not c2]
    groups: dict[object, list[tuple[Card, ...]]] = {}
    if item == "two_pair" and c1.rank == c2.rank:
        # The other pair can be any rank: one holding, completed by a card of the shown rank.
        others = [
            (a, b) for a, b in combinations(unseen, 2) if a.rank == b.rank and a.rank != c1.rank
        ]
        if others:
            groups[item] = [(c1, c2, *o) for o in others]
        return groups
    extra = EXTRA.get(item, 2)
    for more in combinations(_candidates(item, c1, c2, unseen), extra):
        held = (c1, c2, *more)
        _, instances = find_instances(hand_mask(held), (item,))
        for inst in instances:
            if set(inst.cards) != set(held):
                continue
            regular, fallback = instance_plays(inst, conv.rows_for(item))
            if any(p == (c1, c2) for p, _ in (regular or fallback)):
                groups.setdefault(_group(item, held), []).append(held)
                break
    return groups


#: The combinations that count as the item completed.
MADE = {
    Combination.STRAIGHT_FLUSH: {Combination.STRAIGHT_FLUSH},
    Combination.FOURS: {Combination.FOURS},
    Combination.FULL_HOUSE: {Combination.FULL_HOUSE},
    Combination.FLUSH: {Combination.FLUSH, Combination.STRAIGHT_FLUSH},
    Combination.STRAIGHT: {Combination.STRAIGHT, Combination.STRAIGHT_FLUSH},
}


def completes(item: str, held: tuple[Card, ...], reply: tuple[Card, ...]) -> bool:
    """The hand's five cards are the two signal cards (``held[:2]``, already played), the
    reply, and the rest from the leader's holding: can they make the item's combination?"""
    need = 5 - 2 - len(reply)
    if need < 0:
        return False
    return any(
        evaluate(five) in MADE[TARGET[item]] and _builds_on_the_signal(item, held, five)
        for rest in combinations(held[2:], need)
        for five in [(*held[:2], *reply, *rest)]
    )


def _builds_on_the_signal(item: str, held: tuple[Card, ...], five: tuple[Card, ...]) -> bool:
    """Two pair is completed by a card of a shown pair's rank (the card's reply guide), not by
    three cards of partner's own beside the pair."""
    if item != "two_pair":
        return True
    ranks = [c.rank for c in five]
    return any(ranks.count(c.rank) == 3 for c in held[:2])


def minimal_completion(item: str, group: list[tuple[Card, ...]], reply: tuple[Card, ...]) -> bool:
    """``reply`` completes every holding of the group and no smaller part of it does."""
    if not all(completes(item, h, reply) for h in group):
        return False
    return not any(
        all(completes(item, h, part) for h in group)
        for k in range(1, len(reply))
        for part in combinations(reply, k)
    )


def brute_shares(
    item: str, groups: dict[object, list[tuple[Card, ...]]], hand: tuple[Card, ...]
) -> dict[frozenset[Card], int]:
    """For each of the replier's sets of one to three cards, how many holdings it completes."""
    out: dict[frozenset[Card], int] = {}
    for size in (1, 2, 3):
        for reply in combinations(hand, size):
            n = sum(1 for g in groups.values() if minimal_completion(item, g, reply))
            if n:
                out[frozenset(reply)] = n
    return out


@cache
def reply_drills(convention: str, rule: str, seeds: range) -> tuple[Drill, ...]:
    out = []
    for seed in seeds:
        params = DrillParams(convention=convention, rule=rule, side_hand=1 + seed % 4)
        drill = make_drill("reply", 4_100_000 + seed, params)
        if drill.signal is not None and drill.signal[1] is not None:
            out.append(drill)
    return tuple(out)


def mismatches(convention: str, rule: str, seeds: range) -> Iterator[str]:
    for drill in reply_drills(convention, rule, seeds):
        assert drill.signal is not None
        c1, c2 = drill.signal
        assert c2 is not None
        table = tuple(c for h in (*drill.completed, *drill.opponents) for c in h)
        seen = {*drill.hand, *table}
        advice = advice_for(drill)
        reading = sized_primary(  # the first reading a hand of the leader's size can show
            drill.signal, drill.side_hand, len(drill.source), tuple(seen), drill.convention
        )
        if advice.action == "force" or reading is None or reading.item not in TARGET:
            continue
        groups = brute_holdings(str(reading.item), c1, c2, seen, convention)
        shares = brute_shares(str(reading.item), groups, drill.hand)
        top = max(shares.values(), default=0)
        total = len(groups)
        where = (
            f"reply {drill.seed} --side-hand {drill.side_hand} --convention {convention}"
            f" --rule {rule}"
        )
        reason = advice.reason.id
        counted = reason.startswith("advice.complete") or reason == "advice.too_few"
        if counted and advice.odds != (top, total):
            yield f"{where}: says {advice.odds}, enumeration {(top, total)}"
            continue
        if reason == "advice.nothing_to_add" and top:
            yield f"{where}: says nothing to add, but {top} of {total} complete"
            continue
        if reason.startswith("advice.complete"):
            best = {k for k, n in shares.items() if n == top}
            accepted = {frozenset(cards) for cards in advice.accepted}
            if accepted != best or top < COMPLETE_THRESHOLD * total:
                yield f"{where}: accepts {sorted(map(sorted, accepted))}, enumeration best {best}"


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize(
    "seeds",
    [
        pytest.param(range(SEEDS), id="default"),
        pytest.param(range(SEEDS, SEEDS + VOLUME_SEEDS), id="volume", marks=pytest.mark.slow),
    ],
)
def test_every_stated_share_equals_the_enumeration(convention: str, rule: str, seeds: range):
    bad = list(mismatches(convention, rule, seeds))
    assert not bad, "\n".join(bad[:10])


@pytest.mark.parametrize(
    ("address", "accepted", "odds"),
    [
        # 5♦ then 3♣ is 3-4-5; the replier's A♠ 2♥ make A-2-3-4-5 in the only holding.
        ((4143603, 4, "parlett-2008", "contribution", None), {"2H AS"}, None),
        # 8♣ then 5♥: every 7 is in sight but the replier's own 7♦, so only 5-6-8 is left.
        ((4189344, 3, "teach-yourself-1994", "contribution", None), {"4C 7D", "7D 9D"}, None),
        # 6♣ then 3♣ as XX.XX: 3-4-6-7 needs the replier's own 4♣, so 1 of 1.
        ((4196615, 1, "parlett-2008", "contribution", 13), {"4C"}, None),
    ],
)
def test_the_reported_replies(address, accepted, odds):
    seed, side, convention, rule, size = address
    params = DrillParams(convention=convention, rule=rule, side_hand=side, hand_size=size)
    drill = make_drill("reply", seed, params)
    advice = advice_for(drill)
    assert {" ".join(str(c) for c in cards) for cards in advice.accepted} == accepted
    assert advice.reason.id in ("advice.complete.one", "advice.complete.every")


def test_readings_hold_for_the_enumerated_groups():
    """The decoder's readings and the enumeration agree on a hand-made case: with every other
    4 in sight, 5♦ then 3♣ has no three-to-a-straight holding."""
    from engine.cards import parse_cards

    seen = set(parse_cards("4S 4H 4C KS"))
    c1, c2 = parse_cards("5D 3C")
    assert brute_holdings("three_straight", c1, c2, seen, "parlett-2008") == {
        frozenset({3, 4, 5}): [(c1, c2, next(iter(parse_cards("4D"))))]
    }
    seen.add(next(iter(parse_cards("4D"))))
    assert "three_straight" not in {r.item for r in decode(c1, c2, 4, visible=tuple(seen))}
