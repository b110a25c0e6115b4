"""Hand-building arithmetic shared by the bots: what five cards score, what a part-built hand
can still become, and the best way to complete the cards on the table from one's own.

Everything here works on cards the caller may see; nothing reads a deal.

>>> from engine.cards import parse_cards
>>> from engine.seats import Seat
>>> from engine.scoring import CLASSIC
>>> fill = best_fill((), parse_cards("7C 7D 7H KS KH 2C 9D"), Seat.N, CLASSIC)
>>> fill.points, sorted(str(c) for c in fill.cards)
(8, ['7C', '7D', '7H', 'KH', 'KS'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.scoring import ScoringRule, hand_points, rule_values
from engine.seats import Seat

__all__ = [
    "Fill",
    "Table",
    "best_fill",
    "keep_values",
    "made",
    "points5",
    "reach",
    "rule_values",
    "side_keep",
]

#: The cards of the hand being played, with who played each.
Table = Sequence[tuple[Seat, Card]]

#: What five cards score as one hand (see :func:`engine.scoring.hand_points`).
points5 = hand_points

_PARTIAL = {(1,): 0, (2,): 1, (3,): 3, (4,): 12}


def made(cards: Sequence[Card], seats: Sequence[Seat], rule: ScoringRule) -> int:
    """Points the cards already make: five cards as scored, fewer by their pairs, threes or
    fours (classic values; flushes and straights count only once complete)."""
    if len(cards) == 5:
        return points5(cards, seats, rule)
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    top = sorted(counts.values(), reverse=True)
    if not top:
        return 0
    if top[0] == 2 and len(top) > 1 and top[1] == 2:
        return 2
    return _PARTIAL[(top[0],)]


def _values(c: Card) -> tuple[int, ...]:
    return (1, 14) if c.rank == 14 else (c.rank,)


#: The ranks of the ten five-rank windows (A-5 .. T-A) as bit masks (bit r for rank r; the
#: Ace is bit 1 in A-5 and bit 14 in T-A).
_WINDOWS = tuple(0b11111 << lo for lo in range(1, 11))
_ACE_BITS = (1 << 1) | (1 << 14)


def _fits_window(cards: Sequence[Card]) -> bool:
    """Distinct ranks that some five-rank window (A-5 .. T-A) holds."""
    plain = 0
    ace = False
    for c in cards:
        if c.rank == 14:
            ace = True
        else:
            plain |= 1 << c.rank
    return any(not plain & ~w and (not ace or w & _ACE_BITS) for w in _WINDOWS)


def reach(cards: Sequence[Card]) -> int:
    """The most (classic) points the cards could still become with 5 - len(cards) more cards,
    whoever holds them: 15 for a straight-flush draw, 12 fours, 8 full house, ..."""
    n = len(cards)
    if n == 0:
        return 15
    k = 5 - n
    counts: dict[int, int] = {}
    suits = set()
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
        suits.add(c.index // 13)
    distinct = len(counts)
    top = max(counts.values())
    straight_draw = distinct == n and _fits_window(cards)
    if len(suits) == 1 and straight_draw:
        return 15
    if distinct <= 2 and any(v + k >= 4 and n - v <= 1 for v in counts.values()):
        return 12
    if distinct <= 2 and top <= 3:
        return 8
    if len(suits) == 1 and distinct == n:
        return 6
    if straight_draw:
        return 5
    if top + k >= 3 and n - top <= 2:
        return 3
    pairs = sum(1 for v in counts.values() if v >= 2)
    if pairs + k >= 2 and distinct <= 3:
        return 2
    return 1 if top >= 2 or k >= 1 else 0


def keep_values(own: Sequence[Card]) -> dict[Card, int]:
    """How much each card is worth keeping for later hands: partners of its rank count most,
    then cards of its suit and ranks in straight range. Lower is the better card to give."""
    ranks: dict[int, int] = {}
    suits: dict[int, int] = {}
    for c in own:
        ranks[c.rank] = ranks.get(c.rank, 0) + 1
        suits[c.index // 13] = suits.get(c.index // 13, 0) + 1
    # Cards of other ranks in straight range (within 4), counted once per rank.
    near = {r: sum(n for q, n in ranks.items() if q != r and -4 <= q - r <= 4) for r in ranks}
    return {c: 8 * (ranks[c.rank] - 1) + 2 * (suits[c.index // 13] - 1) + near[c.rank] for c in own}


def side_keep(own: Sequence[Card], side_hand: int) -> dict[Card, int]:
    """Keep values for a side's ``side_hand``: :func:`keep_values`, except in the side's last
    hand, where what stays becomes left-overs, so the cards that would make them strong
    (pairs, suit length, straight neighbours) are the ones to give."""
    values = keep_values(own)
    if side_hand == 4:
        return {c: -v for c, v in values.items()}
    return values


@dataclass(frozen=True, slots=True)
class Fill:
    """Cards from one's own hand completing the table: the hand's points, the cards (forming
    cards first, then kickers) and what they cost in keep value."""

    points: int
    cards: tuple[Card, ...]
    cost: int


def _window_cards(lo: int, need: Sequence[int], pool: dict[int, list[Card]]) -> list[Card] | None:
    out = []
    for v in need:
        cards = pool.get(14 if v == 1 else v)
        if not cards:
            return None
        out.append(cards[0])
    return out


def best_fill(
    table: Table,
    own: Sequence[Card],
    seat: Seat,
    rule: ScoringRule,
    keep: dict[Card, int] | None = None,
) -> Fill:
    """The best way for ``seat`` alone to finish the hand on ``table`` from ``own``: most
    points, then the cheapest cards by ``keep`` (default :func:`keep_values`).

    When ``own`` holds fewer cards than the hand needs, all of them are the fill (and the
    points are those of the cards made so far).
    """
    if keep is None:
        keep = keep_values(own)
    k = 5 - len(table)
    by_cost = sorted(own, key=lambda c: (keep[c], c.index))
    if k <= 0:
        return Fill(0, (), 0)
    t_cards = [c for _, c in table]
    t_seats = [s for s, _ in table]
    if len(by_cost) <= k:
        cards = tuple(by_cost)
        seats = t_seats + [seat] * len(cards)
        return Fill(made(t_cards + list(cards), seats, rule), cards, sum(keep[c] for c in cards))
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for c in by_cost:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.index // 13, []).append(c)
    t_ranks: dict[int, int] = {}
    for c in t_cards:
        t_ranks[c.rank] = t_ranks.get(c.rank, 0) + 1
    t_suits = {c.index // 13 for c in t_cards}
    cores: list[list[Card]] = [[]]
    # Same-rank groups: pairs, threes, fours (a group topped up from one's own cards).
    ranks = set(t_ranks) | {r for r, cs in by_rank.items() if len(cs) >= 2}
    for r in ranks:
        mine = by_rank.get(r, [])
        for m in (2, 3, 4):
            need = m - t_ranks.get(r, 0)
            if 0 < need <= min(len(mine), k):
                cores.append(mine[:need])
    # Two ranks: two pair and full house.
    rank_list = sorted(ranks)
    for i, r in enumerate(rank_list):
        for q in rank_list[i + 1 :]:
            for mr, mq in ((2, 2), (3, 2), (2, 3)):
                nr = mr - t_ranks.get(r, 0)
                nq = mq - t_ranks.get(q, 0)
                if nr < 0 or nq < 0 or nr + nq > k:
                    continue
                if nr > len(by_rank.get(r, ())) or nq > len(by_rank.get(q, ())):
                    continue
                cores.append(by_rank.get(r, [])[:nr] + by_rank.get(q, [])[:nq])
    distinct = len(t_ranks) == len(t_cards)
    if len(t_suits) <= 1 and distinct:
        suits = list(t_suits) if t_suits else [s for s, cs in by_suit.items() if len(cs) >= k]
        for s in suits:
            cs = by_suit.get(s, [])
            if len(cs) >= k:
                cores.append(cs[:k])  # flush
    if distinct:
        t_vals = [_values(c) for c in t_cards]
        t_plain = 0
        t_ace = False
        for c in t_cards:
            if c.rank == 14:
                t_ace = True
            else:
                t_plain |= 1 << c.rank
        for lo, window in zip(range(1, 11), _WINDOWS, strict=True):
            if t_plain & ~window or (t_ace and not window & _ACE_BITS):
                continue
            held = {v for vs in t_vals for v in vs if lo <= v <= lo + 4}
            wanted = [v for v in range(lo, lo + 5) if v not in held]
            if len(wanted) != k:
                continue
            straight = _window_cards(lo, wanted, by_rank)
            if straight is not None:
                cores.append(straight)
            for s in t_suits if t_suits else by_suit.keys():
                pool = {c.rank: [c] for c in by_suit.get(s, [])}
                suited = _window_cards(lo, wanted, pool)
                if suited is not None:
                    cores.append(suited)
    best: Fill | None = None
    seats = t_seats + [seat] * k
    for core in cores:
        picked = list(core)
        if len(picked) < k:
            used = set(picked)
            picked += [c for c in by_cost if c not in used][: k - len(picked)]
        pts = points5(t_cards + picked, seats, rule)
        cost = sum(keep[c] for c in picked)
        if best is None or pts > best.points or (pts == best.points and cost < best.cost):
            ordered = tuple(sorted(picked, key=lambda c: (c not in core, -keep[c], c.index)))
            best = Fill(pts, ordered, cost)
    assert best is not None
    return best


def table_cards(table: Iterable[tuple[Seat, Card]]) -> list[Card]:
    return [c for _, c in table]
