"""The par solver: the best hands a side can make from its own cards.

A side's two players hold 26 cards and play four hands of five; the leader of each hand plays
its first card and the partners may then supply the other four in any split (passes and "Play!"
allow every order), a leader with no cards left is skipped. So a side's *par* is the best
partition of 20 of its cards into four hands, in order, each holding a card of its leader
unless that leader has run out; ties are broken by the weakest left-overs (the six cards
kept), under either scoring rule (under ``contribution`` each card counts for its holder).

>>> import random
>>> from engine.game import DealState
>>> par = solve_deal(DealState.deal("N", random.Random(7)))
>>> from engine.seats import Side
>>> par[Side.NS].hand_score, len(par[Side.NS].hands), len(par[Side.NS].leftovers)
(32, 4, 6)

How it is exact: a hand is worth the best combination its cards contain, so each hand has a
*core* (the cards forming its combination) and kickers that never lower it. Cores whose
cards only matter by rank (pairs, threes, two pair, full houses, straights) are searched as
rank demands, flushes as suit demands, and straight flushes and fours as the exact cards;
a branch-and-bound search over four cores (best first, each multiset once) keeps the best
total whose demands some assignment of real cards meets (a bipartite matching) and whose hands
can be led legally. Among the cores of that total, every left-over set is considered (a
depth-first search over the cards no exact core holds, kept consistent with the matching card
by card, see ``_Solver._weakest``), so the tie-break is exact too. ``tests/engine/test_par.py``
checks both against brute force on reduced decks, with up to six left-overs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.game import DealState
from engine.scoring import CLASSIC, Combination, ScoringRule, leftover_value
from engine.scoring import hand_points as points5
from engine.seats import SEATS, Seat, Side

__all__ = ["ParSolution", "brute_force", "solve", "solve_deal"]

#: A left-over value above any real one: no bound yet.
_NO_LIMIT = 1 << 30


@dataclass(frozen=True)
class ParSolution:
    """The par of one side: its hands in playing order (each as (holder, card) pairs), the hand
    score, the left-overs and their value."""

    hand_score: int
    hands: tuple[tuple[tuple[Seat, Card], ...], ...]
    leftovers: tuple[tuple[Seat, Card], ...]
    leftover_value: int

    def as_json(self) -> dict[str, object]:
        return {
            "hand_score": self.hand_score,
            "hands": [[str(c) for _, c in hand] for hand in self.hands],
            "leftovers": [str(c) for _, c in self.leftovers],
            "leftover_value": self.leftover_value,
        }


# A core: (value, kind, key, size, exact card mask or 0, rank demands, suit demand)
@dataclass(frozen=True, slots=True)
class _Core:
    value: int
    kind: str
    size: int
    exact: int  # card bits taken exactly (straight flush, fours)
    ranks: tuple[tuple[int, int], ...]  # (rank, count) demands
    suit: int  # suit of a flush demand, or -1
    order: int = 0


def _values(rank: int) -> tuple[int, ...]:
    return (1, 14) if rank == 14 else (rank,)


def _leftover_points(cards: Sequence[tuple[Seat, Card]], rule: ScoringRule) -> int:
    """What left-overs are worth: six cards by :func:`engine.scoring.leftover_value`; on
    reduced decks five cards as a hand, fewer by their pairs and threes."""
    if len(cards) < 5:
        return _small_leftover(cards)
    if len(cards) == 5:
        return points5([c for _, c in cards], [s for s, _ in cards], rule)
    return leftover_value([c for _, c in cards], rule, [s for s, _ in cards]).value


def _small_leftover(cards: Sequence[tuple[Seat, Card]]) -> int:
    """Fewer than five left-over cards (reduced decks only): their pairs and threes."""
    counts: dict[int, int] = {}
    for _, c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    top = sorted(counts.values(), reverse=True) or [0]
    if top[0] >= 4:
        return 12
    if top[0] == 3:
        return 3
    if top[0] == 2:
        return 2 if len(top) > 1 and top[1] == 2 else 1
    return 0


class _Solver:
    def __init__(
        self,
        cards: Sequence[tuple[Seat, Card]],
        leaders: Sequence[Seat],
        rule: ScoringRule,
    ) -> None:
        self.cards = list(cards)
        self.holder = {c: s for s, c in cards}
        self.leaders = list(leaders)
        self.rule = rule
        self.nhands = len(leaders)
        self.n_left = len(cards) - 5 * self.nhands
        if self.n_left < 0:
            raise ValueError(f"{len(cards)} cards cannot make {self.nhands} hands of five")
        self.by_rank: dict[int, list[Card]] = {}
        self.by_suit: dict[int, list[Card]] = {}
        for _, c in cards:
            self.by_rank.setdefault(c.rank, []).append(c)
            self.by_suit.setdefault(int(c.suit), []).append(c)
        self.cores = self._cores()
        self.best_score = -1
        self.best_left = _NO_LIMIT
        self._fruitless: dict[tuple[int, int, tuple[tuple[bool, int], ...]], int] = {}
        self.best: tuple[list[list[tuple[Seat, Card]]], list[tuple[Seat, Card]]] | None = None

    # -- cores -------------------------------------------------------------------------------

    def _cores(self) -> list[_Core]:
        vals = self.rule.values
        out: list[_Core] = []
        have = {r: len(cs) for r, cs in self.by_rank.items()}
        ranks = sorted(have)
        # straight flushes, exact
        for cs in self.by_suit.values():
            present = {c.rank: c for c in cs}
            for lo in range(1, 11):
                need = [14 if v == 1 else v for v in range(lo, lo + 5)]
                if all(r in present for r in need):
                    five = [present[r] for r in need]
                    value = points5(five, [self.holder[c] for c in five], self.rule)
                    out.append(_Core(value, "sf", 5, sum(c.bit for c in five), (), -1))
        for r in ranks:
            if have[r] == 4:
                four = self.by_rank[r]
                kicker_free = [self.holder[c] for c in four]
                value = _fours_value(kicker_free, self.rule)
                out.append(_Core(value, "fours", 4, sum(c.bit for c in four), (), -1))
        for r in ranks:
            for q in ranks:
                if q != r and have[r] >= 3 and have[q] >= 2:
                    out.append(
                        _Core(
                            vals[Combination.FULL_HOUSE], "full_house", 5, 0, ((r, 3), (q, 2)), -1
                        )
                    )
        for s, cs in self.by_suit.items():
            if len(cs) >= 5:
                out.append(_Core(vals[Combination.FLUSH], "flush", 5, 0, (), s))
        for lo in range(1, 11):
            need = [14 if v == 1 else v for v in range(lo, lo + 5)]
            if all(have.get(r, 0) >= 1 for r in need):
                out.append(
                    _Core(
                        vals[Combination.STRAIGHT],
                        "straight",
                        5,
                        0,
                        tuple((r, 1) for r in need),
                        -1,
                    )
                )
        for r in ranks:
            if have[r] >= 3:
                out.append(_Core(vals[Combination.THREES], "threes", 3, 0, ((r, 3),), -1))
        for i, r in enumerate(ranks):
            for q in ranks[i + 1 :]:
                if have[r] >= 2 and have[q] >= 2:
                    out.append(
                        _Core(vals[Combination.TWO_PAIR], "two_pair", 4, 0, ((r, 2), (q, 2)), -1)
                    )
        for r in ranks:
            if have[r] >= 2:
                out.append(_Core(vals[Combination.ONE_PAIR], "one_pair", 2, 0, ((r, 2),), -1))
        out = [c for c in out if c.value > 0]
        out.sort(key=lambda c: -c.value)
        return [
            _Core(c.value, c.kind, c.size, c.exact, c.ranks, c.suit, i) for i, c in enumerate(out)
        ]

    # -- search ------------------------------------------------------------------------------

    def run(self) -> None:
        all_bits = sum(c.bit for _, c in self.cards)
        self._dfs(0, [], 0, all_bits, {})

    def _fits(self, core: _Core, free: int, demand: dict[int, int]) -> bool:
        if core.exact:
            if core.exact & ~free:
                return False
            for r, cs in self.by_rank.items():
                taken = sum(1 for c in cs if c.bit & core.exact)
                if taken and demand.get(r, 0) > sum(1 for c in cs if c.bit & free) - taken:
                    return False
            return True
        for r, k in core.ranks:
            avail = sum(1 for c in self.by_rank[r] if c.bit & free)
            if demand.get(r, 0) + k > avail:
                return False
        return True

    def _dfs(
        self, start: int, chosen: list[_Core], score: int, free: int, demand: dict[int, int]
    ) -> None:
        left = self.nhands - len(chosen)
        self._leaf(chosen, score, free, demand)
        if left == 0:
            return
        for i in range(start, len(self.cores)):
            core = self.cores[i]
            bound = score + core.value * left
            if bound < self.best_score or (bound == self.best_score and self.best_left == 0):
                break
            if not self._fits(core, free, demand):
                continue
            new_demand = dict(demand)
            for r, k in core.ranks:
                new_demand[r] = new_demand.get(r, 0) + k
            self._dfs(i, [*chosen, core], score + core.value, free & ~core.exact, new_demand)

    def _leaf(self, chosen: list[_Core], score: int, free: int, demand: dict[int, int]) -> None:
        if score < self.best_score or (score == self.best_score and self.best_left == 0):
            return
        limit = self.best_left if score == self.best_score else _NO_LIMIT
        found = self._weakest(chosen, free, limit)
        if found is not None:
            value, hands, left = found
            self.best_score, self.best_left = score, value
            self.best = (
                [[(self.holder[c], c) for c in hand] for hand in hands],
                [(self.holder[c], c) for c in left],
            )

    def _weakest(
        self, chosen: list[_Core], free: int, limit: int
    ) -> tuple[int, list[list[Card]], list[Card]] | None:
        """The legal arrangement of ``chosen`` whose left-overs are worth least, if they are
        worth less than ``limit``: ``(value, hands, left-overs)``; None when the cores cannot
        all be made from the free cards, or nothing beats ``limit``.

        Exact: the rank and suit demands of the cores are matched to real cards (a bipartite
        matching). A first candidate is the weakest-looking set of the cards that matching leaves
        over; then a depth-first search tries every left-over set of the free cards (those no
        exact core holds), card by card. Taking a card keeps the matching whole by one
        augmenting path, or drops the set (the demands could not be met without it, nor with
        any larger set); a set whose cards already make a pair, two pairs or threes worth at
        least the best found is dropped too. A complete set counts when the hands can be led
        legally; the search stops at a set worth 0.
        """
        slots: list[tuple[int, bool, int]] = []  # (core, by rank?, rank or suit)
        for i, core in enumerate(chosen):
            for r, k in core.ranks:
                slots.extend((i, True, r) for _ in range(k))
            if core.suit >= 0:
                slots.extend((i, False, core.suit) for _ in range(5))
        # Cores with the same exact cards and the same demands (full houses regrouped, say)
        # leave the same left-over sets: a search that found none below a bound, no hand
        # being illegal, is not repeated.
        signature = (free, len(chosen), tuple(sorted((b, v) for _, b, v in slots)))
        if self._fruitless.get(signature, -1) >= limit:
            return None
        pool = sorted(
            (c for _, c in self.cards if c.bit & free),
            key=lambda c: (len(self.by_rank[c.rank]), c.rank, c.index),
        )
        opts = [
            [c for c in pool if (c.rank == v if by_rank else int(c.suit) == v)]
            for _, by_rank, v in slots
        ]
        match: dict[Card, int] = {}
        owner: list[Card | None] = [None] * len(slots)
        removed: set[Card] = set()

        def augment(j: int, seen: set[Card]) -> bool:
            for c in opts[j]:
                if c in seen or c in removed:
                    continue
                seen.add(c)
                other = match.get(c)
                if other is None or augment(other, seen):
                    match[c] = j
                    owner[j] = c
                    return True
            return False

        for j in range(len(slots)):
            if not augment(j, set()):
                return None
        missing: list[list[Card]] = [[] for _ in range(self.nhands - len(chosen))]

        def arrange(left: Sequence[Card]) -> list[list[Card]] | None:
            built = [[c for _, c in self.cards if c.bit & core.exact] for core in chosen]
            for j, (i, _, _) in enumerate(slots):
                card = owner[j]
                assert card is not None
                built[i].append(card)
            taken = set(match) | set(left)
            kickers = [c for c in pool if c not in taken]
            hands = self._legal_hands(built + missing, kickers, {self.holder[c] for c in left})
            if hands is None:
                illegal.append(True)
            return hands

        illegal: list[bool] = []
        n = self.n_left
        best: tuple[int, list[list[Card]], list[Card]] | None = None
        bound = limit
        first = self._weak_first([c for c in pool if c not in match])
        value = self._left_value(first)
        if value < bound:
            hands = arrange(first)
            if hands is not None:
                best, bound = (value, hands, first), value
        if bound == 0:
            return best
        counts: dict[int, int] = {}
        picked: list[Card] = []

        def go(start: int, pairs: int, top: int) -> bool:
            nonlocal best, bound
            depth = len(picked)
            if depth == n:
                value = self._left_value(picked)
                if value >= bound:
                    return False
                hands = arrange(picked)
                if hands is None:
                    return False
                best, bound = (value, hands, list(picked)), value
                return value == 0
            for j in range(start, len(pool) - (n - depth) + 1):
                c = pool[j]
                k = counts.get(c.rank, 0) + 1
                new_pairs = pairs + (k == 2)
                new_top = max(top, k)
                low = 3 if new_top >= 3 else 2 if new_pairs >= 2 else 1 if new_pairs else 0
                if low >= bound:
                    continue
                removed.add(c)
                slot = match.pop(c, None)
                if slot is not None:
                    owner[slot] = None
                    if not augment(slot, set()):
                        match[c] = slot
                        owner[slot] = c
                        removed.discard(c)
                        continue
                counts[c.rank] = k
                picked.append(c)
                stop = go(j + 1, new_pairs, new_top)
                picked.pop()
                counts[c.rank] = k - 1
                removed.discard(c)
                if stop:
                    return True
            return False

        go(0, 0, 0)
        if best is None and not illegal:
            self._fruitless[signature] = limit
        return best

    def _weak_first(self, rest: list[Card]) -> list[Card]:
        """``n_left`` of ``rest`` that look weak: distinct ranks, of ranks with few cards."""
        ordered = sorted(rest, key=lambda c: (len(self.by_rank[c.rank]), c.rank, c.index))
        out: list[Card] = []
        ranks: set[int] = set()
        for c in ordered:
            if c.rank not in ranks and len(out) < self.n_left:
                ranks.add(c.rank)
                out.append(c)
        out += [c for c in ordered if c not in out][: self.n_left - len(out)]
        return out

    def _left_value(self, cards: Sequence[Card]) -> int:
        """What left-overs are worth (:func:`engine.scoring.leftover_value`, on card indices)."""
        if len(cards) < 5:
            return _small_leftover([(self.holder[c], c) for c in cards])
        seats = [self.holder[c] for c in cards]
        best = 0
        for five in itertools.combinations(range(len(cards)), 5):
            pts = points5([cards[i] for i in five], [seats[i] for i in five], self.rule)
            best = max(best, pts)
        if len(cards) == 6:
            counts: dict[int, int] = {}
            for c in cards:
                counts[c.rank] = counts.get(c.rank, 0) + 1
            if sorted(counts.values()) == [2, 2, 2]:
                best = max(best, self.rule.values[Combination.THREE_PAIRS])
        return best

    def _legal_hands(
        self, cores: list[list[Card]], kickers: list[Card], left_holders: set[Seat]
    ) -> list[list[Card]] | None:
        """Put the cores in hand order and share out the kickers so that every hand holds a
        card of its leader, unless that leader has run out by then."""
        by_seat: dict[Seat, list[Card]] = {}
        for c in kickers:
            by_seat.setdefault(self.holder[c], []).append(c)
        seen: set[tuple[tuple[Card, ...], ...]] = set()
        for perm in itertools.permutations(range(len(cores))):
            order = tuple(tuple(cores[i]) for i in perm)
            if order in seen:
                continue
            seen.add(order)
            hands = self._share_kickers([list(h) for h in order], by_seat, left_holders)
            if hands is not None:
                return hands
        return None

    def _share_kickers(
        self, hands: list[list[Card]], by_seat: dict[Seat, list[Card]], left_holders: set[Seat]
    ) -> list[list[Card]] | None:
        seats = sorted({self.holder[c] for _, c in self.cards} | set(self.leaders), key=SEATS.index)
        pools = {s: list(by_seat.get(s, [])) for s in seats}

        def go(j: int, pools: dict[Seat, list[Card]], out: list[list[Card]]) -> bool:
            if j == len(hands):
                return all(not p for p in pools.values())
            hand = hands[j]
            slots = 5 - len(hand)
            leader = self.leaders[j]
            # cards the leader still holds at the start of hand j
            later = any(self.holder[c] is leader for h in hands[j:] for c in h)
            holds = later or bool(pools.get(leader)) or leader in left_holders
            a_seat, b_seat = seats[0], seats[-1]
            for x in range(min(slots, len(pools.get(a_seat, []))) + 1):
                y = slots - x
                if a_seat is b_seat:
                    if y:
                        continue
                elif y > len(pools.get(b_seat, [])):
                    continue
                new = hand + pools.get(a_seat, [])[:x]
                if a_seat is not b_seat:
                    new = new + pools[b_seat][:y]
                if holds and not any(self.holder[c] is leader for c in new):
                    continue
                rest = {a_seat: pools.get(a_seat, [])[x:]}
                if a_seat is not b_seat:
                    rest[b_seat] = pools[b_seat][y:]
                out.append(new)
                if go(j + 1, rest, out):
                    return True
                out.pop()
            return False

        out: list[list[Card]] = []
        return out if go(0, pools, out) else None

    def solution(self) -> ParSolution:
        assert self.best is not None
        hands, leftovers = self.best
        score = sum(points5([c for _, c in h], [s for s, _ in h], self.rule) for h in hands)
        return ParSolution(score, tuple(tuple(h) for h in hands), tuple(leftovers), self.best_left)


def _fours_value(holders: Sequence[Seat], rule: ScoringRule) -> int:
    if not rule.needs_split(Combination.FOURS):
        return rule.values[Combination.FOURS]
    share = max(holders.count(s) for s in set(holders))
    return rule.value(Combination.FOURS, share)


def solve(
    first: Sequence[Card],
    second: Sequence[Card],
    first_seat: Seat,
    rule: ScoringRule = CLASSIC,
    hands: int = 4,
) -> ParSolution:
    """Par of a side whose ``first_seat`` (holding ``first``) leads its first hand and whose
    partner (holding ``second``) leads the next, alternately, for ``hands`` hands."""
    second_seat = first_seat.partner
    cards = [(first_seat, c) for c in first] + [(second_seat, c) for c in second]
    leaders = [first_seat if k % 2 == 0 else second_seat for k in range(hands)]
    solver = _Solver(cards, leaders, rule)
    solver.run()
    return solver.solution()


def solve_deal(state: DealState) -> dict[Side, ParSolution]:
    """The par of both sides of a deal, from the cards dealt."""
    out: dict[Side, ParSolution] = {}
    for k in (1, 2):
        leader = state.dealer.after(k)
        out[leader.side] = solve(
            state.hands_dealt[leader], state.hands_dealt[leader.partner], leader, state.rule
        )
    return out


def brute_force(
    first: Sequence[Card],
    second: Sequence[Card],
    first_seat: Seat,
    rule: ScoringRule = CLASSIC,
    hands: int = 4,
) -> tuple[int, int]:
    """``(hand score, left-over value)`` of the par by trying every sequence of hands (small
    decks only): the reference :func:`solve` is tested against."""
    second_seat = first_seat.partner
    holder = {c: first_seat for c in first} | {c: second_seat for c in second}
    leaders = [first_seat if k % 2 == 0 else second_seat for k in range(hands)]
    best = (-1, 0)

    def go(j: int, remaining: frozenset[Card], score: int) -> None:
        nonlocal best
        if j == hands:
            left = [(holder[c], c) for c in sorted(remaining, key=lambda c: c.index)]
            key = (score, -_leftover_points(left, rule))
            if key > best:
                best = key
            return
        leader = leaders[j]
        has = [c for c in remaining if holder[c] is leader]
        for five in itertools.combinations(sorted(remaining, key=lambda c: c.index), 5):
            if has and not any(holder[c] is leader for c in five):
                continue
            pts = points5(list(five), [holder[c] for c in five], rule)
            go(j + 1, remaining - set(five), score + pts)

    go(0, frozenset(holder), 0)
    return best[0], -best[1]
