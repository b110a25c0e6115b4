"""Can partner's hand, of the size it has, show this reading? A search for one such hand.

The decoder keeps a reading of a signal when some *holding* of it, from the cards the reader
cannot see, leads the signal (:func:`~engine.signals.decoder.holding_leads`). A hand is more
than its holding: partner's nine cards may hold J♥ 10♥ 5♥, yet every nine-card hand without a
straight flush three holds two pair or four to a straight first, so nine cards never *show*
three to a flush. :func:`witness` answers whether a whole hand of ``hand_size`` cards, drawn
from the cards the reader cannot see with the signal's cards in it, shows the reading and leads
the signal for it — exactly as the posterior weighs hands (:class:`~engine.signals.posterior`
under model ``any``: the signal is one of the hand's correct plays, for that item and shape).
So a reading with a witness has positive exact probability, and one proven to have none has
probability 0.

The search is exact, with a node budget:

1. it starts from each holding of the reading that leads the signal (every hand that shows the
   reading holds one), and tries a few random fillings first (a possible reading is usually
   found at once);
2. it then adds unseen cards one at a time, keeping only those that leave the hand free of
   every item the card lists earlier (such an item, once held, stays held in every larger
   hand, so the branch is dead), and drops a branch when no free hand can reach the size:
   per suit (the largest free set of each suit's cards, found exactly), and per rank (the
   largest rank multiset free of the earlier items that depend on ranks only: pairs, threes,
   straights);
3. a full hand is checked by the encoder, as the posterior checks it.

The answer is :data:`POSSIBLE` with the hand found, :data:`IMPOSSIBLE` when the search is
exhausted, or :data:`UNDECIDED` when it ran out of nodes (rare: the tests count them).

>>> from engine.cards import parse_cards
>>> from engine.signals.decoder import decode
>>> c1, c2 = parse_cards("JH TH")
>>> seen = parse_cards("JS AH 9H AD 6C AS TS 7S 3H 6D 8S KC QC JC 5C 6S 4S 3S 8D 2D")
>>> [(str(r.item), r.shape) for r in decode(c1, c2, 3, visible=seen)]
[('three_flush', None), ('three_sf', 'X.XX'), ('three_sf', 'X..XX')]
>>> witness(("three_flush", None), (c1, c2), 3, 9, seen).answer
'impossible'
>>> found = witness(("three_sf", "X.XX"), (c1, c2), 3, 9, seen)
>>> found.answer, len(found.hand)
('possible', 9)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from random import Random
from typing import Any

from engine.cards import DECK, Card, cards_mask
from engine.signals.conventions import DEFAULT_CONVENTION, Convention, require_convention
from engine.signals.decoder import (
    Reading,
    _choices,
    _holdings,
    decode,
    leading_holdings,
    readings_table,
)
from engine.signals.encoder import Play
from engine.signals.posterior import _Scorer

__all__ = [
    "IMPOSSIBLE",
    "POSSIBLE",
    "UNDECIDED",
    "Witness",
    "hand_readings",
    "sized_primary",
    "witness",
]

POSSIBLE = "possible"
IMPOSSIBLE = "impossible"
UNDECIDED = "undecided"

#: Nodes of the exhaustive search before it answers :data:`UNDECIDED`.
NODES = 20_000
#: Holdings the random fillings start from (the search takes every holding).
FIRST_HOLDINGS = 4
#: Random fillings of the first holdings tried before the exhaustive search.
TRIES = 24

_ALL = (1 << 52) - 1
_SUITS = tuple(0x1FFF << (13 * s) for s in range(4))
_RANKS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


#: The least numbers that pass each rank item's growing test: (ranks with 2+, with 3+, with 4+
#: cards, ranks in one straight window), for the rank bound (:func:`_ranks_reach`).
RANK_ITEM_NEEDS: dict[str, tuple[int, int, int, int]] = {
    "fours": (0, 0, 1, 0),
    "two_threes": (0, 2, 0, 0),
    "full_house": (2, 1, 0, 0),
    "threes": (0, 1, 0, 0),
    "two_pair": (2, 0, 0, 0),
    "one_pair": (1, 0, 0, 0),
    "five_straight": (0, 0, 0, 5),
    "four_straight": (0, 0, 0, 4),
    "three_straight": (0, 0, 0, 3),
}


@dataclass(frozen=True, slots=True)
class Witness:
    """The search's answer, and the hand found when it is :data:`POSSIBLE`."""

    answer: str
    hand: tuple[Card, ...] = ()

    @property
    def possible(self) -> bool | None:
        """True, False, or None when undecided."""
        return None if self.answer == UNDECIDED else self.answer == POSSIBLE


class _OutOfNodes(Exception):
    pass


def _window_counts(ranks: int) -> int:
    """Which numbers of these ranks (13 bits, 2 to Ace) the straight windows hold, as bits:
    bit n is set when some window holds exactly n of them."""
    line = (ranks << 1) | (ranks >> 12 & 1)  # the Ace counted low as well
    found = 0
    for i in range(10):
        found |= 1 << ((line >> i) & 0x1F).bit_count()
    return found


#: :func:`_window_counts` of every 13-bit rank mask.
_WINDOWS = tuple(_window_counts(m) for m in range(1 << 13))

#: A hand's numbers: the cards of each suit, the window counts of each suit and of the ranks
#: held (see :func:`_window_counts`), and how many ranks are held twice or more, three times
#: or more, four times.
_Profile = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]


def _profile(mask: int) -> _Profile:
    s0, s1, s2, s3 = (mask >> (13 * i) & 0x1FFF for i in range(4))
    two = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    three = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    suits = (s0, s1, s2, s3)
    return (
        tuple(s.bit_count() for s in suits),
        tuple(_WINDOWS[s] for s in suits),
        _WINDOWS[s0 | s1 | s2 | s3],
        two.bit_count(),
        three.bit_count(),
        (s0 & s1 & s2 & s3).bit_count(),
    )


def _in_suit_window(p: _Profile, n: int) -> bool:
    return any(w >> n & 1 for w in p[1])


def _at_least(windows: int, n: int) -> bool:
    return windows >> n != 0


#: Whether a hand's profile holds each item, as the checklist's finders find it (a window of
#: exactly three or four for the runs, exactly three or four of a suit for the flushes):
#: checked against the finders by the tests.
_HOLDS: dict[str, Callable[[_Profile], bool]] = {
    "five_sf": lambda p: _in_suit_window(p, 5),
    "four_sf": lambda p: _in_suit_window(p, 4),
    "three_sf": lambda p: _in_suit_window(p, 3),
    "five_flush": lambda p: max(p[0]) >= 5,
    "four_flush": lambda p: 4 in p[0],
    "three_flush": lambda p: 3 in p[0],
    "five_straight": lambda p: bool(p[2] >> 5 & 1),
    "four_straight": lambda p: bool(p[2] >> 4 & 1),
    "three_straight": lambda p: bool(p[2] >> 3 & 1),
    "fours": lambda p: p[5] >= 1,
    "two_threes": lambda p: p[4] >= 2,
    "full_house": lambda p: p[4] >= 1 and p[3] >= 2,
    "threes": lambda p: p[4] >= 1,
    "two_pair": lambda p: p[3] >= 2,
    "one_pair": lambda p: p[3] >= 1,
}


def holds(mask: int, item: str) -> bool:
    """Whether the hand (a 52-bit mask) holds ``item``, by numbers alone."""
    return _HOLDS[item](_profile(mask))


def _growing(test: Callable[[_Profile], bool], *items: str) -> tuple[Any, frozenset[str]]:
    return test, frozenset(items)


#: Tests that stay true as cards are added, each with the items that must all come earlier
#: on the card for a hand passing it to show one of them (and so does every larger hand): "at
#: least three of a suit" shows three, four or five to a flush, so it stops a search only
#: when the card lists all three before the reading.
_GROWING: dict[str, tuple[Callable[[_Profile], bool], frozenset[str]]] = {
    **{item: _growing(test, item) for item, test in _HOLDS.items()},
    "four_sf": _growing(lambda p: any(_at_least(w, 4) for w in p[1]), "four_sf", "five_sf"),
    "three_sf": _growing(
        lambda p: any(_at_least(w, 3) for w in p[1]), "three_sf", "four_sf", "five_sf"
    ),
    "four_flush": _growing(lambda p: max(p[0]) >= 4, "four_flush", "five_flush"),
    "three_flush": _growing(lambda p: max(p[0]) >= 3, "three_flush", "four_flush", "five_flush"),
    "four_straight": _growing(lambda p: _at_least(p[2], 4), "four_straight", "five_straight"),
    "three_straight": _growing(
        lambda p: _at_least(p[2], 3), "three_straight", "four_straight", "five_straight"
    ),
}


def _blocking(earlier: Iterable[str]) -> tuple[str, ...]:
    """The growing tests a hand must fail to show none of the ``earlier`` items, now or
    with more cards: those whose items all come earlier (a card listing four to a flush
    before five to a flush gives no test for four to a flush: a fifth card would leave it)."""
    before = frozenset(earlier)
    return tuple(sorted(item for item in before if _GROWING[item][1] <= before))


def _free(mask: int, blocking: tuple[str, ...]) -> bool:
    """Whether the hand passes none of the ``blocking`` tests (see :func:`_blocking`)."""
    profile = _profile(mask)
    return not any(_GROWING[item][0](profile) for item in blocking)


@lru_cache(maxsize=65_536)
def _suit_room(held: int, more: int, blocking: tuple[str, ...], cap: int) -> int:
    """The most cards of ``more`` (one suit's) that can join ``held`` (the same suit's)
    keeping it :func:`_free`, up to ``cap`` (the search stops there): an exact search over
    at most 13 cards."""
    cards = [c.bit for c in DECK if c.bit & more]
    best = 0

    def go(mask: int, start: int, n: int) -> bool:
        nonlocal best
        best = max(best, n)
        if best >= cap:
            return True
        for j in range(start, len(cards)):
            if n + len(cards) - j <= best:
                return False
            if _free(mask | cards[j], blocking) and go(mask | cards[j], j + 1, n + 1):
                return True
        return False

    go(held, 0, 0)
    return min(best, cap)


@lru_cache(maxsize=65_536)
def _ranks_reach(held: int, more: int, blocking: tuple[str, ...], need: int) -> bool:
    """Whether ``need`` cards of ``more`` can join ``held`` with the ranks alone free of the
    blocking rank items (:data:`RANK_ITEM_NEEDS`): a dynamic programme over the ranks, Ace
    low to Ace high, keeping the counts of pairs, threes and fours (capped at 2) and which of
    the last four ranks are held, for the most cards each state can take."""
    banned = [RANK_ITEM_NEEDS[i] for i in blocking if i in RANK_ITEM_NEEDS]
    if not banned:
        return True
    windows = any(b[3] for b in banned)
    lo = [(held & _RANKS[r]).bit_count() for r in range(13)]
    hi = [((held | more) & _RANKS[r]).bit_count() for r in range(13)]
    target = sum(lo) + need

    def bad(n2: int, n3: int, n4: int, run: int) -> bool:
        return any(n2 >= a and n3 >= b and n4 >= c and (not d or run >= d) for a, b, c, d in banned)

    best = -1
    for ace in range(lo[12], hi[12] + 1):
        a2, a3, a4 = min(2, int(ace >= 2)), int(ace >= 3), int(ace >= 4)
        start = (1 if ace and windows else 0, a2, a3, a4)
        states = {start: ace}
        for r in range(12):  # 2 .. K, after the Ace counted low
            grown: dict[tuple[int, int, int, int], int] = {}
            for (bits, n2, n3, n4), total in states.items():
                for n in range(lo[r], hi[r] + 1):
                    m2, m3, m4 = min(2, n2 + (n >= 2)), min(2, n3 + (n >= 3)), n4 + (n >= 4)
                    b = ((bits << 1) | (n > 0)) & 0x1F if windows else 0
                    if bad(m2, m3, min(m4, 1), b.bit_count()):
                        continue
                    key = (b & 0xF, m2, m3, min(m4, 1))
                    if grown.get(key, -1) < total + n:
                        grown[key] = total + n
            states = grown
        for (bits, n2, n3, n4), total in states.items():
            top = ((bits << 1) | (ace > 0)) & 0x1F if windows else 0  # 10-J-Q-K-A
            if not bad(n2, n3, n4, top.bit_count()):
                best = max(best, total)
        if best >= target:
            return True
    return best >= target


class _Search:
    def __init__(
        self,
        key: tuple[str, str | None],
        signal: Play,
        side_hand: int,
        hand_size: int,
        seen: int,
        conv: Convention,
        nodes: int,
    ) -> None:
        self.key = key
        self.signal = signal
        c1, c2 = signal
        self.shown = c1.bit | (c2.bit if c2 is not None else 0)
        self.size = hand_size
        self.blocking = _blocking(str(i) for i in conv.checklist[: conv.checklist.index(key[0])])
        self.pool = [c.bit for c in DECK if c.bit & _ALL & ~seen & ~self.shown]
        self.scorer = _Scorer(signal, side_hand, conv, "any")
        self.conv = conv
        self.side_hand = side_hand
        self.nodes = nodes

    def shows(self, mask: int) -> bool:
        weight, key = self.scorer.score_mask(mask)
        return weight > 0 and key == self.key

    def room(self, mask: int, more: list[int], need: int, *, ranks: bool = False) -> bool:
        """Whether the free cards ``more`` can still bring ``mask`` to the size (by suits;
        with ``ranks`` also by ranks, a dearer test)."""
        if len(more) < need:
            return False
        pool = 0
        for bit in more:
            pool |= bit
        if sum(_suit_room(mask & s, pool & s, self.blocking, need) for s in _SUITS) < need:
            return False
        return not ranks or _ranks_reach(mask, pool, self.blocking, need)

    def known_holdings(self) -> list[int]:
        """The holdings the decoder has already found leading the signal, still out of sight
        and not too many for the hand (the usual start: no search for them)."""
        c1, c2 = self.signal
        if c2 is None:
            return []
        item, shape = self.key
        entry = (self.conv.name, self.conv.version, item, shape, c1.index, c2.index)
        unseen = sum(self.pool)
        return [
            self.shown | m
            for m in leading_holdings(entry)
            if not m & ~unseen and (self.shown | m).bit_count() <= self.size
        ]

    def holdings(self, needs: Iterable[tuple[tuple[int, int], ...]]) -> Iterator[int]:
        """The signal and each holding of the reading that leads it (as masks)."""
        c1, c2 = self.signal
        unseen = sum(self.pool)
        item, shape = self.key
        if c2 is not None:
            for more in _holdings(item, shape, c1, c2, self.conv, tuple(needs), unseen):
                yield self.shown | more
            return
        found: set[int] = set()
        for alt in needs or ((),):  # c1 and pass: the needs carry the encoder's rule
            groups = [(m & unseen, k) for m, k in alt if k > 0]
            if any(m.bit_count() < k for m, k in groups):
                continue
            for more in _choices(groups):
                if more not in found:
                    found.add(more)
                    yield self.shown | more

    def run(self, needs: tuple[tuple[tuple[int, int], ...], ...]) -> Witness:
        known = [b for b in self.known_holdings() if _free(b, self.blocking)]
        found = self._fill(known)  # (the usual answer, from a holding the decoder found)
        if found:
            return self._found(found)
        free = [b for b in self.pool if _free(self.shown | b, self.blocking)]
        if not self.room(self.shown, free, self.size - self.shown.bit_count(), ranks=True):
            return Witness(IMPOSSIBLE)  # (no hand of the size holds nothing earlier)
        fitting = (
            b
            for b in self.holdings(needs)
            if b.bit_count() <= self.size and _free(b, self.blocking) and b not in known
        )
        first = list(islice(fitting, FIRST_HOLDINGS))  # (the rest only if these fail)
        found = self._fill(first)
        if found:
            return self._found(found)
        bases = [*known, *first, *fitting]
        if not bases:
            return Witness(IMPOSSIBLE)
        budget = [self.nodes]
        try:
            for base in bases:
                more = [b for b in self.pool if not b & base and _free(base | b, self.blocking)]
                if not self.room(base, more, self.size - base.bit_count(), ranks=True):
                    continue
                found = self._dfs(base, more, budget)
                if found:
                    return self._found(found)
        except _OutOfNodes:
            return Witness(UNDECIDED)
        return Witness(IMPOSSIBLE)

    def _fill(self, bases: list[int]) -> int:
        """A hand found by filling ``bases`` at random (:data:`TRIES` times), or 0."""
        rng = Random(0)
        for t in range(TRIES if bases else 0):
            mask = bases[t % len(bases)]
            order = self.pool[:]
            rng.shuffle(order)
            for bit in order:
                if mask.bit_count() == self.size:
                    break
                if not bit & mask and _free(mask | bit, self.blocking):
                    mask |= bit
            if mask.bit_count() == self.size and self.shows(mask):
                return mask
        return 0

    def _dfs(self, mask: int, more: list[int], budget: list[int]) -> int:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        need = self.size - mask.bit_count()
        if need == 0:
            return mask if self.shows(mask) else 0
        for i, bit in enumerate(more):
            if len(more) - i < need:
                return 0
            grown = mask | bit
            rest = [b for b in more[i + 1 :] if _free(grown | b, self.blocking)]
            if need > 1 and not self.room(grown, rest, need - 1):
                continue
            found = self._dfs(grown, rest, budget)
            if found:
                return found
        return 0

    def _found(self, mask: int) -> Witness:
        return Witness(POSSIBLE, tuple(c for c in DECK if c.bit & mask))


def witness(
    reading: tuple[str, str | None] | Reading,
    signal: Play,
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card] = (),
    convention: Convention | str = DEFAULT_CONVENTION,
    *,
    known: Iterable[Card] | None = None,
    nodes: int = NODES,
) -> Witness:
    """Whether a hand of ``hand_size`` cards (the signal's among them, the others unseen by
    the reader) shows ``reading`` (an ``(item, shape)`` or a :class:`Reading`) and leads
    ``signal`` for it. ``known``: a hand known to be partner's (a drill's hidden hand),
    tried first: when it shows the reading, that is the answer at once."""
    conv = require_convention(convention, "witness")
    key = (reading.item, reading.shape) if isinstance(reading, Reading) else reading
    c1, c2 = signal
    seen = cards_mask(visible, "witness") & ~(c1.bit | (c2.bit if c2 is not None else 0))
    search = _Search((str(key[0]), key[1]), signal, side_hand, hand_size, seen, conv, nodes)
    if known is not None:
        hand = cards_mask(known, "witness")
        if hand.bit_count() == hand_size and not hand & seen and search.shows(hand):
            return search._found(hand)
    table = readings_table(conv)[0 if side_hand <= 2 else 1]
    for entry, needs in table[c1.index * 53 + (52 if c2 is None else c2.index)]:
        if (entry.item, entry.shape) == search.key:
            return search.run(needs)
    return Witness(IMPOSSIBLE)  # (no row of the card reads the signal so)


def hand_readings(
    signal: Play,
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card] = (),
    convention: Convention | str = DEFAULT_CONVENTION,
    *,
    known: Iterable[Card] | None = None,
) -> Iterator[tuple[Reading, Witness]]:
    """The readings :func:`~engine.signals.decoder.decode` gives (pruned by the cards the
    reader sees), in the card's order, each with its :func:`witness` for the hand size:
    lazily, so a caller that needs only the first possible one searches no further."""
    conv = require_convention(convention, "hand_readings")
    visible = tuple(visible)
    known = tuple(known) if known is not None else None
    for r in decode(signal[0], signal[1], side_hand, conv, visible):
        yield r, witness(r, signal, side_hand, hand_size, visible, conv, known=known)


def sized_primary(
    signal: Play,
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card] = (),
    convention: Convention | str = DEFAULT_CONVENTION,
    *,
    known: Iterable[Card] | None = None,
) -> Reading | None:
    """The first reading a hand of ``hand_size`` cards can show (an undecided one counts:
    the card's order is kept when the search cannot tell), or ``None``: no signal."""
    for r, found in hand_readings(signal, side_hand, hand_size, visible, convention, known=known):
        if found.answer != IMPOSSIBLE:
            return r
    return None
