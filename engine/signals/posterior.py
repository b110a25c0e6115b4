"""What could partner hold? The odds of every reading of a signal.

Given partner's signal, the side hand, partner's hand size and the cards the reader can see,
:func:`posterior` estimates the probability of each checklist item (and straight-flush shape)
partner holds, assuming partner follows the convention card:

- partner's hand is drawn uniformly from the cards the reader cannot see (the two signal
  cards are in it: partner held them when leading);
- it is kept with the weight of partner leading exactly this signal from it: model
  ``preferred`` — 1 if the encoder's preferred play is the signal, else 0; model ``any`` —
  ``1 / len(plays)`` if the signal is one of the encoder's correct plays (partner picks one of
  them at random), else 0.

The estimate is exact in the limit: a defensive mixture importance sampler (see
``docs/posterior.md``) plants the cards each reading needs, and every hand carries the exact
ratio of the uniform law to the mixture it was drawn from, so that a signal only a rare hand
leads does not need millions of hands. When the unseen cards are few, every hand is enumerated
instead, and when one reading is left it is certain; both answers are exact.

The sampler works on 52-bit hand masks: it replays ``random.sample`` with ``getrandbits`` (the
same hands from the same random stream as the straightforward implementation kept as
``_reference_posterior``), skips the hands :mod:`engine.signals.lead_filter` proves cannot lead
the signal, and encodes the others once per *key* (the cards their encoding depends on); the
answer equals the reference's (``docs/posterior.md``, *The fast path*).

>>> from engine.cards import card, parse_cards
>>> post = posterior((card("2D"), card("5D")), side_hand=1, hand_size=13, samples=300)
>>> post.items[0].item, post.items[0].shape, post.samples
(ChecklistItem.FOUR_SF, 'XXXX', 300)
>>> round(sum(o.p for o in post.items), 9)
1.0
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from random import Random
from typing import Any

from engine.cards import DECK, Card
from engine.errors import ConcertoError
from engine.hand import Hand
from engine.messages import Msg, Term, Text
from engine.signals.checklist import find_instances
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    ITEM_TITLES,
    Convention,
    get_convention,
)
from engine.signals.decoder import holding_leads, readings_table
from engine.signals.encoder import Encoding, Play, check_side_hand, encode, instance_plays
from engine.signals.lead_filter import lead_filter

__all__ = [
    "METHODS",
    "MODELS",
    "InvalidPosteriorError",
    "Posterior",
    "ReadingOdds",
    "model_for",
    "posterior",
    "reading_label",
    "wilson_interval",
]

#: How partner chooses among the correct plays of a hand.
MODELS: tuple[str, ...] = ("preferred", "any")
#: ``auto`` enumerates every hand when that takes no more encodings than sampling would.
METHODS: tuple[str, ...] = ("auto", "sample", "enumerate")

#: Share of the proposal given to plain uniform hands: it keeps every weight below
#: ``1 / UNIFORM_SHARE`` and makes the sampler exact even where no reading plants cards.
UNIFORM_SHARE = 0.1
#: Attempts allowed per requested sample before giving up on a rare (or impossible) signal.
ATTEMPTS_PER_SAMPLE = 25
#: ``auto`` enumerates when there are at most this many hands per requested sample.
ENUMERATE_PER_SAMPLE = 2
#: Largest enumeration ``method="enumerate"`` accepts.
ENUMERATE_LIMIT = 2_000_000
#: Attempts after which the mixture's shares are re-fitted to the hands accepted so far.
ADAPT_AT: tuple[int, ...] = (200, 600)
#: Share of the initial mixture kept at each re-fit, so that a reading the first few hundred
#: hands missed keeps being looked for.
KEEP_INITIAL = 0.5
#: A planting with at most this many choices of cards is split into one proposal per choice.
SPLIT_WAYS = 66
Z95 = 1.959963984540054


class InvalidPosteriorError(ConcertoError):
    """Input the posterior cannot be asked about: a bad hand size, a visible signal card, …"""


@dataclass(frozen=True, slots=True)
class ReadingOdds:
    """One thing partner may hold, with its probability and a 95% interval."""

    item: str
    shape: str | None
    p: float
    ci95: tuple[float, float]

    @property
    def label(self) -> str:
        """Words for the item and shape: ``Four to a straight flush (XX.XX)``."""
        return reading_label(self.item, self.shape)

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "shape": self.shape, "p": self.p, "ci95": list(self.ci95)}


@dataclass(frozen=True, slots=True)
class Posterior:
    """The odds of every reading, most likely first.

    ``samples`` counts the hands drawn (or enumerated) that lead this signal; ``attempts`` the
    hands drawn in all; ``effective_samples`` is Kish's effective sample size of the weights
    (equal to ``samples`` when every weight is equal). ``how`` says how the odds were found:
    ``enumerated`` (every hand weighed), ``only_reading`` (one reading survives pruning and a
    hand leading the signal was found, or the witness leads it) or ``sampled``; ``exact`` is
    true for the first two (the intervals then have no width). No hand leading this way gives
    ``items == ()`` and ``empty`` true.
    """

    signal: Play
    side_hand: int
    hand_size: int
    convention: str
    model: str
    items: tuple[ReadingOdds, ...]
    samples: int
    attempts: int
    effective_samples: float
    exact: bool = False
    visible: tuple[Card, ...] = field(default=(), repr=False)
    how: str = "sampled"

    @property
    def empty(self) -> bool:
        return not self.items

    def to_json(self) -> dict[str, Any]:
        c1, c2 = self.signal
        return {
            "signal": [str(c1), "pass" if c2 is None else str(c2)],
            "side_hand": self.side_hand,
            "hand_size": self.hand_size,
            "samples": self.samples,
            "attempts": self.attempts,
            "items": [o.to_json() for o in self.items],
            "convention": self.convention,
            "model": self.model,
            "effective_samples": round(self.effective_samples, 1),
            "exact": self.exact,
            "how": self.how,
            "empty": self.empty,
        }


def reading_label(item: str, shape: str | None) -> str:
    """``ITEM_TITLES`` plus the straight-flush shape, if any (a message for a known item)."""
    if item not in ITEM_TITLES:
        return f"{item} ({shape})" if shape else item
    if shape:
        return Msg("with_shape", title=Term("item", str(item)), shape=Text(shape))
    return Msg("term", term=Term("item", str(item)))


def model_for(
    hand: Iterable[Card],
    signal: Play,
    side_hand: int,
    convention: Convention | str = DEFAULT_CONVENTION,
) -> str:
    """The model that explains a known lead: ``preferred`` when ``signal`` is the preferred
    play of ``hand`` (a drill's hidden leader's hand), else ``any``.

    >>> from engine.cards import card, parse_cards
    >>> model_for(parse_cards("2D 3D 4D 5D KS"), (card("2D"), card("5D")), 1)
    'preferred'
    """
    conv = get_convention(convention) if isinstance(convention, str) else convention
    return "preferred" if encode(hand, side_hand, conv).preferred == tuple(signal) else "any"


def wilson_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``p`` seen in ``n`` (effective) trials.

    >>> lo, hi = wilson_interval(0.5, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return (0.0, 1.0)
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


# ---------------------------------------------------------------------------------------------
# Input checks


def _check(
    signal: tuple[Card, Card | None],
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card],
    convention: Convention | str,
    samples: int,
    model: str,
    method: str,
) -> tuple[Card, Card | None, Convention, tuple[Card, ...]]:
    try:
        c1, c2 = signal
    except (TypeError, ValueError):
        raise InvalidPosteriorError(f"a signal is (c1, c2) or (c1, None), not {signal!r}") from None
    if not isinstance(c1, Card) or not (c2 is None or isinstance(c2, Card)):
        raise InvalidPosteriorError(f"a signal is two cards (or a card and pass): {signal!r}")
    if c1 is c2:
        raise InvalidPosteriorError(f"the same card twice in the signal: {c1}")
    check_side_hand(side_hand)
    conv = get_convention(convention) if isinstance(convention, str) else convention
    if not isinstance(conv, Convention):
        raise InvalidPosteriorError(f"not a convention: {convention!r}")
    shown = 1 if c2 is None else 2
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or not 1 <= hand_size <= 13:
        raise InvalidPosteriorError(f"hand size must be 1..13, not {hand_size!r}")
    if hand_size < shown:
        raise InvalidPosteriorError(f"a hand of {hand_size} card cannot lead a two-card signal")
    seen: list[Card] = []
    seen_set: set[Card] = set()
    for c in visible:
        if not isinstance(c, Card):
            raise InvalidPosteriorError(f"not a card: {c!r}")
        if c in seen_set:
            raise InvalidPosteriorError(f"a visible card twice: {c}")
        if c is c1 or c is c2:
            raise InvalidPosteriorError(
                f"partner led {c}, so the reader cannot also see it among the visible cards"
            )
        seen_set.add(c)
        seen.append(c)
    unseen = 52 - len(seen) - shown
    if hand_size - shown > unseen:
        raise InvalidPosteriorError(
            f"partner cannot hold {hand_size} cards: only {unseen + shown} are unseen"
        )
    if model not in MODELS:
        raise InvalidPosteriorError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
    if method not in METHODS:
        raise InvalidPosteriorError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InvalidPosteriorError(f"samples must be a whole number from 1, not {samples!r}")
    return c1, c2, conv, tuple(seen)


# ---------------------------------------------------------------------------------------------
# Likelihood of the signal for one hand


_NO_LEAD: tuple[float, tuple[str, str | None]] = (0.0, ("none", None))


class _Scorer:
    """Weight and (item, shape) of a hand of partner's, memoised by hand mask.

    ``lead`` is the signal's :func:`~engine.signals.lead_filter.lead_filter` (``None`` for
    the reference, or a checklist the filter does not know): :meth:`score_mask` gives the
    hands it rejects weight 0 without calling the encoder, and encodes the others by their
    key (the cards their encoding depends on), once per key.
    """

    __slots__ = ("conv", "lead", "memo", "model", "shapes", "side_hand", "signal")

    def __init__(
        self, signal: Play, side_hand: int, conv: Convention, model: str, reference: bool = False
    ) -> None:
        self.signal = signal
        self.side_hand = side_hand
        self.conv = conv
        self.model = model
        self.memo: dict[int, tuple[float, tuple[str, str | None]]] = {}
        self.shapes: dict[
            tuple[str, str | None, int, int], tuple[frozenset[Play], frozenset[Play]]
        ] = {}
        self.lead = None if reference else lead_filter(signal, conv, preferred=model == "preferred")

    def score(self, mask: int, cards: list[Card]) -> tuple[float, tuple[str, str | None]]:
        found = self.memo.get(mask)
        if found is None:
            enc = encode(cards, self.side_hand, self.conv)
            found = self.memo[mask] = self._weigh(enc, mask)
        return found

    def score_mask(self, mask: int) -> tuple[float, tuple[str, str | None]]:
        """:meth:`score` of the hand with this mask (the encoder reads only the mask), by
        the key the lead filter gives it: weight 0 when the filter rejects the hand."""
        if self.lead is not None:
            mask = self.lead(mask)
            if not mask:
                return _NO_LEAD
        return self.score_key(mask)

    def score_key(self, key: int) -> tuple[float, tuple[str, str | None]]:
        """:meth:`score` of a hand by its key (or its whole mask, without a lead filter)."""
        found = self.memo.get(key)
        if found is None:
            enc = encode(Hand.from_mask(key), self.side_hand, self.conv)
            found = self.memo[key] = self._weigh(enc, key)
        return found

    def _weigh(self, enc: Encoding, mask: int) -> tuple[float, tuple[str, str | None]]:
        plays = enc.plays
        key = (enc.item, enc.shape)
        if not plays:
            return 0.0, key
        if self.model == "preferred":
            return (1.0 if plays[0] == self.signal else 0.0), key
        if self.signal not in plays:
            return 0.0, key
        if enc.shape is not None and plays[0] != self.signal:
            key = (enc.item, self._shown_shape(mask, enc))
        return 1.0 / len(plays), key

    def _shown_shape(self, mask: int, enc: Encoding) -> str | None:
        """The shape of the holding this (not preferred) play shows, under model ``any``."""
        _, instances = find_instances(mask, (enc.item,))
        rows = self.conv.rows_for(enc.item)
        fallback_shape = None
        for inst in instances:
            k = (inst.item, inst.shape, inst.key, inst.lo)
            plays = self.shapes.get(k)
            if plays is None:
                regular, fallback = instance_plays(inst, rows)
                plays = self.shapes[k] = (
                    frozenset(p for p, _ in regular),
                    frozenset(p for p, _ in fallback),
                )
            if self.signal in plays[0]:
                return inst.shape
            if fallback_shape is None and self.signal in plays[1]:
                fallback_shape = inst.shape
        return fallback_shape if fallback_shape is not None else enc.shape


# ---------------------------------------------------------------------------------------------
# The proposal: a mixture of uniform hands and hands with one reading's cards planted


#: Per-suit counts of the cards to take, and the cumulative numbers of card choices.
_FillVectors = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _Component:
    """One proposal of the mixture: plant cards a reading needs, in a hand of short suits.

    ``groups`` are ``(cards, mask, k)`` with pairwise disjoint masks: ``k`` cards are planted
    from each, ``planted`` in all. Without a cap the rest of the hand is filled uniformly, and
    ``base`` is ``C(N, m) / C(N - K, m - K) / prod C(a, k)``, so that the component's
    probability of a hand R relative to the uniform law is ``base * prod C(|R & mask|, k)``.

    With ``cap`` (the items a long suit would hide: a hand with four cards of a suit shows a
    flush item first), the proposal is uniform over the pairs (planted cards, rest of the hand)
    whose hand holds at most ``cap`` cards of every suit, the signal's included: ``plants``
    lists every choice of planted cards that leaves room (its cards, mask and number of cards
    per suit) with ``cumulative`` counts of the hands completing each, ``fills`` the suit counts
    of the rest for each planted composition. Its relative probability of R is then ``base *
    prod C(|R & mask|, k)`` when R's suits are short enough (else 0), ``base`` being ``C(N, m)``
    over the number of pairs.

    ``share`` is the component's initial share of the mixture.
    """

    groups: tuple[tuple[tuple[Card, ...], int, int], ...]
    planted: int
    share: float
    base: float
    cap: int = 0
    plants: tuple[tuple[tuple[Card, ...], int, tuple[int, ...]], ...] = ()
    cumulative: tuple[int, ...] = ()
    fills: dict[tuple[int, ...], _FillVectors] = field(default_factory=dict)
    suits: tuple[tuple[Card, ...], ...] = ()


_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
#: Most choices of planted cards a short-suits component enumerates.
CAPPED_PLANTS = 2000


def _fill_vectors(sizes: list[int], room: list[int], count: int) -> _FillVectors:
    """Ways to take ``count`` cards with at most ``room[s]`` of suit s (``sizes[s]`` there):
    the per-suit counts and the cumulative numbers of card choices."""
    vectors: list[tuple[int, ...]] = []
    cumulative: list[int] = []
    total = 0
    r = [min(sizes[i], room[i]) for i in range(4)]
    for a in range(r[0] + 1):
        for b in range(r[1] + 1):
            for c in range(r[2] + 1):
                d = count - a - b - c
                if 0 <= d <= r[3]:
                    total += (
                        math.comb(sizes[0], a)
                        * math.comb(sizes[1], b)
                        * math.comb(sizes[2], c)
                        * math.comb(sizes[3], d)
                    )
                    vectors.append((a, b, c, d))
                    cumulative.append(total)
    return tuple(vectors), tuple(cumulative)


def _short_suits(
    cap: int,
    groups: tuple[tuple[int, int], ...],
    pool: list[Card],
    shown: list[Card],
    m: int,
    share: float,
    n: int,
) -> _Component | None:
    """The short-suits component, or ``None`` when no hand has suits that short."""
    suits = tuple(tuple(c for c in pool if c.suit == s) for s in range(4))
    sizes = [len(cards) for cards in suits]
    room = [cap - sum(1 for c in shown if c.suit == s) for s in range(4)]
    planted = sum(k for _, k in groups)
    if min(room) < 0 or planted > m:
        return None
    choices = [list(combinations([c for c in DECK if c.bit & mask], k)) for mask, k in groups]
    if math.prod(len(c) for c in choices) > CAPPED_PLANTS:
        return None
    plants = []
    cumulative = []
    fills: dict[tuple[int, ...], _FillVectors] = {}
    total = 0
    for chosen in _product(choices):
        cards = tuple(c for part in chosen for c in part)
        per_suit = tuple(sum(1 for c in cards if c.suit == s) for s in range(4))
        if any(per_suit[s] > room[s] for s in range(4)):
            continue
        if per_suit not in fills:
            fills[per_suit] = _fill_vectors(
                [sizes[s] - per_suit[s] for s in range(4)],
                [room[s] - per_suit[s] for s in range(4)],
                m - planted,
            )
        ways = fills[per_suit][1][-1] if fills[per_suit][1] else 0
        if ways:
            total += ways
            mask = sum(c.bit for c in cards)
            plants.append((cards, mask, per_suit))
            cumulative.append(total)
    if not total:
        return None
    cards_groups = tuple((tuple(c for c in DECK if c.bit & mask), mask, k) for mask, k in groups)
    return _Component(
        cards_groups,
        planted,
        share,
        math.comb(n, m) / total,
        cap,
        tuple(plants),
        tuple(cumulative),
        fills,
        suits,
    )


def _product(choices: list[list[tuple[Card, ...]]]) -> list[tuple[tuple[Card, ...], ...]]:
    out: list[tuple[tuple[Card, ...], ...]] = [()]
    for options in choices:
        out = [(*prefix, option) for prefix in out for option in options]
    return out


def _possible(
    c1: Card, c2: Card | None, side_hand: int, conv: Convention, unseen: int, m: int
) -> list[tuple[tuple[str, str | None], list[tuple[tuple[int, int], ...]]]]:
    """The readings a hand of ``m`` more unseen cards can still hold, each with the
    alternatives of its needs that fit (as disjoint ``(unseen mask, k)`` groups to plant).

    Same pruning as :func:`~engine.signals.decoder.decode` with ``visible``, plus the hand
    size: a reading needing more cards than partner holds besides the signal is dropped.
    """
    table = readings_table(conv)[0 if side_hand <= 2 else 1]
    entries = table[c1.index * 53 + (52 if c2 is None else c2.index)]
    size = m + (1 if c2 is None else 2)
    out = []
    seen = ((1 << 52) - 1) & ~unseen
    for reading, needs in entries:
        if size > largest_hand_showing(reading.item, conv):
            continue
        if c2 is not None and not holding_leads(
            reading.item, reading.shape, c1, c2, conv, needs, seen
        ):
            continue  # (no holding of it the reader cannot see leads this way)
        alts = []
        possible = not needs
        for alt in needs:
            groups = tuple(sorted((mask & unseen, k) for mask, k in alt if k > 0))
            if any(mask.bit_count() < k for mask, k in groups):
                continue  # the reader sees too many of these cards
            union = 0
            disjoint = True
            for mask, _ in groups:
                disjoint = disjoint and not union & mask
                union |= mask
            if not disjoint:
                possible = True  # cannot be planted, but the uniform hands cover it
                continue
            if sum(k for _, k in groups) > m:
                continue
            possible = True
            if groups:
                alts.append(groups)
        if possible:
            out.append(((reading.item, reading.shape), alts))
    if c2 is not None:
        for item in conv.unsignalled_items:
            played = _played_out_needs(str(item), c1, c2, unseen, m)
            if played is not None:
                out.append(((str(item), None), played))
    return out


def _played_out_needs(
    item: str, c1: Card, c2: Card, unseen: int, m: int
) -> list[tuple[tuple[int, int], ...]] | None:
    """The needs of holding ``item``, which the card gives no signal, with the signal's two
    cards among it: such a hand plays it out at once, leading any two of its cards, so it
    makes the same signal as some reading of the card's rows (the 1994 card's four 9s lead
    ♠9 ♥9 as two pair does). None when no such holding is possible. Four of a kind plants its
    other two cards; another item plants nothing (the uniform share of the proposal covers
    it, and its mere possibility keeps the one-reading shortcut from answering "certain")."""
    if item != "fours":
        return []
    if c1.rank != c2.rank:
        return None
    rest = sum(c.bit for c in DECK if c.rank == c1.rank) & ~(c1.bit | c2.bit) & unseen
    if rest.bit_count() < 2 or m < 2:
        return None
    return [((rest, 2),)]


def largest_hand_showing(item: str, convention: Convention = DEFAULT_CONVENTION) -> int:
    """The most cards a hand can hold and still show ``item`` first (pigeonhole).

    A hand with four or more cards of a suit shows a flush item (``four_flush``,
    ``five_flush``) or better, so an item the card lists after both needs at most three cards
    a suit: 12 cards. After ``three_flush`` too, at most two a suit: 8 cards.

    >>> largest_hand_showing("one_pair"), largest_hand_showing("four_straight")
    (8, 12)
    """
    signalled = [i for i in convention.checklist if convention.rows_for(i)]
    if item not in signalled:
        return 13
    before = set(signalled[: signalled.index(item)])
    if {"three_flush", "four_flush", "five_flush"} <= before:
        return 8
    if {"four_flush", "five_flush"} <= before:
        return 12
    return 13


def _components(
    possible: list[tuple[tuple[str, str | None], list[tuple[tuple[int, int], ...]]]],
    conv: Convention,
) -> list[tuple[tuple[int, tuple[tuple[int, int], ...]], float]]:
    """The proposals ``(cap, groups)`` with their initial shares.

    Every reading that can be planted or needs short suits has an equal share. A reading's
    share is split equally among its alternatives (``cap`` 0); for an item a long suit would
    hide, half of it goes to the same alternatives planted in hands of short suits (or all of
    it to plain short-suited hands, when the reading plants nothing).
    """
    units = []
    for key, alts in possible:
        cap = _CAPS[largest_hand_showing(key[0], conv)]
        if alts or cap:
            units.append((cap, alts))
    found: dict[tuple[int, tuple[tuple[int, int], ...]], float] = {}
    for cap, alts in units:
        share = 1.0 / len(units)
        if not alts:
            found[(cap, ())] = found.get((cap, ()), 0.0) + share
            continue
        parts = [0, cap] if cap else [0]
        for part in parts:
            for groups in alts:
                pieces = _split((part, groups))
                each = share / (len(parts) * len(alts) * len(pieces))
                for spec in pieces:
                    found[spec] = found.get(spec, 0.0) + each
    return list(found.items())


def _split(
    spec: tuple[int, tuple[tuple[int, int], ...]],
) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """A planting of ``k`` of a few cards (two more spades for a four-card flush) as one
    proposal per exact choice, so that adaptation can learn which choices lead the signal."""
    cap, groups = spec
    if len(groups) != 1 or cap:
        return [spec]
    mask, k = groups[0]
    ways = math.comb(mask.bit_count(), k)
    if not 1 < ways <= SPLIT_WAYS:
        return [spec]
    bits = [c.bit for c in DECK if c.bit & mask]
    return [(cap, ((sum(chosen), k),)) for chosen in combinations(bits, k)]


#: Suit cap of the short-suits component for each ``largest_hand_showing`` (0: none).
_CAPS = {8: 2, 12: 3, 13: 0}


def _build_components(
    possible: list[tuple[tuple[str, str | None], list[tuple[tuple[int, int], ...]]]],
    conv: Convention,
    pool: list[Card],
    shown: list[Card],
    n: int,
    m: int,
) -> list[_Component]:
    out = []
    total = math.comb(n, m)
    for (cap, groups), share in _components(possible, conv):
        if cap:
            comp = _short_suits(cap, groups, pool, shown, m, share, n)
            if comp is not None:
                out.append(comp)
            continue
        planted = sum(k for _, k in groups)
        base = total / math.comb(n - planted, m - planted)
        for mask, k in groups:
            base /= math.comb(mask.bit_count(), k)
        cards = tuple((tuple(c for c in DECK if c.bit & mask), mask, k) for mask, k in groups)
        out.append(_Component(cards, planted, share, base))
    if out:
        # The shares of impossible proposals go to the others.
        scale = (1 - UNIFORM_SHARE) / sum(c.share for c in out)
        out = [
            _Component(
                c.groups,
                c.planted,
                c.share * scale,
                c.base,
                c.cap,
                c.plants,
                c.cumulative,
                c.fills,
                c.suits,
            )
            for c in out
        ]
    return out


_COMB = [[math.comb(r, k) for k in range(14)] for r in range(53)]


# ---------------------------------------------------------------------------------------------
# The estimate


class _Tally:
    """Weighted counts per (item, shape): sum of weights and of squared weights."""

    __slots__ = ("accepted", "total", "total2", "w", "w2")

    def __init__(self) -> None:
        self.w: dict[tuple[str, str | None], float] = {}
        self.w2: dict[tuple[str, str | None], float] = {}
        self.total = 0.0
        self.total2 = 0.0
        self.accepted = 0

    def add(self, key: tuple[str, str | None], weight: float) -> None:
        self.accepted += 1
        self.w[key] = self.w.get(key, 0.0) + weight
        self.w2[key] = self.w2.get(key, 0.0) + weight * weight
        self.total += weight
        self.total2 += weight * weight

    def odds(
        self, exact: bool, order: dict[tuple[str, str | None], int]
    ) -> tuple[tuple[ReadingOdds, ...], float]:
        if self.total <= 0:
            return (), 0.0
        kish = self.total * self.total / self.total2
        out = []
        for key, w in self.w.items():
            p = w / self.total
            if exact:
                ci = (p, p)
            else:
                var = ((1 - p) ** 2 * self.w2[key] + p * p * (self.total2 - self.w2[key])) / (
                    self.total * self.total
                )
                n_eff = p * (1 - p) / var if var > 0 and 0 < p < 1 else kish
                ci = wilson_interval(p, n_eff)
            out.append(ReadingOdds(key[0], key[1], p, ci))
        out.sort(
            key=lambda o: (-o.p, order.get((o.item, o.shape), len(order)), o.item, o.shape or "")
        )
        return tuple(out), (float(self.accepted) if exact else kish)


def _reading_order(
    c1: Card, c2: Card | None, side_hand: int, conv: Convention
) -> dict[tuple[str, str | None], int]:
    table = readings_table(conv)[0 if side_hand <= 2 else 1]
    entries = table[c1.index * 53 + (52 if c2 is None else c2.index)]
    return {(r.item, r.shape): i for i, (r, _) in enumerate(entries)}


def posterior(
    signal: tuple[Card, Card | None],
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card] = (),
    convention: Convention | str = DEFAULT_CONVENTION,
    samples: int = 2000,
    seed: int = 0,
    model: str = "preferred",
    *,
    method: str = "auto",
    max_attempts: int | None = None,
    witness: Iterable[Card] | None = None,
) -> Posterior:
    """The odds of each (item, shape) partner holds, given partner led ``signal``.

    ``signal`` is ``(c1, c2)`` or ``(c1, None)`` (c1 and pass); ``hand_size`` counts partner's
    cards when leading (the signal cards included); ``visible`` are the cards the reader sees
    (own hand, completed hands), never the signal cards. Sampling draws until ``samples`` hands
    lead the signal or ``max_attempts`` hands (default ``25 * samples``) have been drawn; the
    same arguments and ``seed`` always give the same answer. ``method="enumerate"`` (or
    ``auto`` when there are at most ``2 * samples`` hands) weighs every possible hand exactly.
    When pruning leaves one reading, ``auto`` stops at the first hand that leads the signal
    (or at once, if ``witness`` — a hand known to be partner's, e.g. a drill's hidden hand —
    leads it): that reading is then certain. ``method="sample"`` always samples.

    Raises :class:`InvalidPosteriorError` (a :class:`ValueError`) for bad input.
    """
    return _posterior(
        signal,
        side_hand,
        hand_size,
        visible,
        convention,
        samples,
        seed,
        model,
        method=method,
        max_attempts=max_attempts,
        witness=witness,
        reference=False,
    )


def _reference_posterior(
    signal: tuple[Card, Card | None],
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card] = (),
    convention: Convention | str = DEFAULT_CONVENTION,
    samples: int = 2000,
    seed: int = 0,
    model: str = "preferred",
    *,
    method: str = "auto",
    max_attempts: int | None = None,
    witness: Iterable[Card] | None = None,
) -> Posterior:
    """:func:`posterior` as it was first written, kept as the slow reference of the tests:
    every hand drawn is a list of cards drawn with ``random.sample`` and weighed by the
    encoder. :func:`posterior` draws the same hands from the same random stream and weighs
    the same ones (its filter only skips hands the encoder would give weight 0), so both
    return equal answers."""
    return _posterior(
        signal,
        side_hand,
        hand_size,
        visible,
        convention,
        samples,
        seed,
        model,
        method=method,
        max_attempts=max_attempts,
        witness=witness,
        reference=True,
    )


def _posterior(
    signal: tuple[Card, Card | None],
    side_hand: int,
    hand_size: int,
    visible: Iterable[Card],
    convention: Convention | str,
    samples: int,
    seed: int,
    model: str,
    *,
    method: str,
    max_attempts: int | None,
    witness: Iterable[Card] | None,
    reference: bool,
) -> Posterior:
    c1, c2, conv, seen = _check(
        signal, side_hand, hand_size, visible, convention, samples, model, method
    )
    play: Play = (c1, c2)
    shown_mask = c1.bit | (c2.bit if c2 is not None else 0)
    seen_mask = shown_mask
    for c in seen:
        seen_mask |= c.bit
    pool = [c for c in DECK if not c.bit & seen_mask]
    n, m = len(pool), hand_size - (1 if c2 is None else 2)
    shown = [c1] if c2 is None else [c1, c2]
    hands = math.comb(n, m)
    order = _reading_order(c1, c2, side_hand, conv)
    scorer = _Scorer(play, side_hand, conv, model, reference)
    tally = _Tally()

    def result(attempts: int, how: str) -> Posterior:
        exact = how != "sampled"
        items, effective = tally.odds(exact, order)
        return Posterior(
            play,
            side_hand,
            hand_size,
            conv.name,
            model,
            items,
            tally.accepted,
            attempts,
            effective,
            exact,
            seen,
            how,
        )

    if method == "enumerate" and hands > ENUMERATE_LIMIT:
        raise InvalidPosteriorError(
            f"{hands} possible hands are too many to enumerate (at most {ENUMERATE_LIMIT})"
        )
    if method == "enumerate" or (method == "auto" and hands <= ENUMERATE_PER_SAMPLE * samples):
        if reference:
            for rest in combinations(pool, m):
                mask = shown_mask
                for c in rest:
                    mask |= c.bit
                weight, key = scorer.score(mask, [*shown, *rest])
                if weight > 0:
                    tally.add(key, weight)
        else:
            _enumerate(pool, m, shown_mask, scorer, tally)
        return result(hands, "enumerated")

    possible = _possible(c1, c2, side_hand, conv, ((1 << 52) - 1) & ~seen_mask, m)
    if not possible:
        # Every correct play decodes to its own item and shape (the encoder/decoder round
        # trip), and pruning drops a reading only when the hand cannot hold it: no hand
        # leads this way.
        return result(0, "sampled")
    limit = max_attempts if max_attempts is not None else ATTEMPTS_PER_SAMPLE * samples
    components = _build_components(possible, conv, pool, shown, n, m)
    sampler = _sample_reference if reference else _sample
    if len(possible) == 1 and method == "auto":
        # One reading left: once one hand is known to lead the signal, the answer is exact.
        if witness is not None:
            w_cards = list(witness)
            w_mask = 0
            for c in w_cards:
                w_mask |= c.bit
            if (
                len(w_cards) == hand_size
                and w_mask & shown_mask == shown_mask
                and not w_mask & seen_mask & ~shown_mask
                and scorer.score(w_mask, w_cards)[0] > 0
            ):
                tally.add(possible[0][0], 1.0)
                return result(0, "only_reading")
        attempts = sampler(
            Random(seed), pool, m, shown, shown_mask, components, scorer, tally, 1, limit
        )
        return result(attempts, "only_reading" if tally.accepted else "sampled")
    attempts = sampler(
        Random(seed), pool, m, shown, shown_mask, components, scorer, tally, samples, limit
    )
    return result(attempts, "sampled")


def _sample_reference(
    rng: Random,
    pool: list[Card],
    m: int,
    shown: list[Card],
    shown_mask: int,
    components: list[_Component],
    scorer: _Scorer,
    tally: _Tally,
    samples: int,
    limit: int,
) -> int:
    """Draw hands until ``samples`` lead the signal or ``limit`` were drawn; returns the
    number drawn. Every accepted hand is tallied with weight ``likelihood / density``, where
    ``density`` is the mixture's probability of the hand relative to the uniform law."""
    uniform = UNIFORM_SHARE if components else 1.0
    shares = [c.share for c in components]
    initial = list(shares)
    cumulative = _cumulative(uniform, shares)
    comb = _COMB
    pilot: list[tuple[float, list[float], float]] = []
    drawn = [0] * (len(components) + 1)
    kept = [0] * (len(components) + 1)
    adapt_at = list(ADAPT_AT) if components else []
    attempts = 0
    while tally.accepted < samples and attempts < limit:
        if adapt_at and attempts == adapt_at[0]:
            adapt_at.pop(0)
            shares = _adapted(shares, initial, pilot, drawn[1:], kept[1:])
            cumulative = _cumulative(uniform, shares)
        attempts += 1
        j = bisect_right(cumulative, rng.random())
        drawn[j] += 1
        if j == 0:
            rest = rng.sample(pool, m)
        elif components[j - 1].cap:
            comp = components[j - 1]
            cards, taken, per_suit = comp.plants[
                bisect_right(comp.cumulative, rng.randrange(comp.cumulative[-1]))
            ]
            rest = list(cards)
            vectors, counts = comp.fills[per_suit]
            vector = vectors[bisect_right(counts, rng.randrange(counts[-1]))]
            for suit_cards, k in zip(comp.suits, vector, strict=True):
                if k:
                    rest += rng.sample([c for c in suit_cards if not c.bit & taken], k)
        else:
            comp = components[j - 1]
            rest = []
            taken = 0
            for cards, _, k in comp.groups:
                for c in rng.sample(cards, k):
                    rest.append(c)
                    taken |= c.bit
            need = m - comp.planted
            if need:
                # The first cards of a uniform ordering of the pool that are not planted: a
                # uniform choice among the cards left.
                for c in rng.sample(pool, m):
                    if not c.bit & taken:
                        rest.append(c)
                        need -= 1
                        if not need:
                            break
        mask = shown_mask
        for c in rest:
            mask |= c.bit
        weight, key = scorer.score(mask, [*shown, *rest])
        if weight <= 0:
            continue
        kept[j] += 1
        density = uniform
        terms = []
        for comp, share in zip(components, shares, strict=True):
            f = share * comp.base
            if comp.cap:
                cap = comp.cap
                for smask in _SUIT_MASKS:
                    if (mask & smask).bit_count() > cap:
                        f = 0.0
                        break
            if f:
                for _, gmask, k in comp.groups:
                    f *= comb[(mask & gmask).bit_count()][k]
                    if not f:
                        break
            terms.append(f)
            density += f
        weight /= density
        tally.add(key, weight)
        if adapt_at:
            pilot.append((weight, terms, density))
    return attempts


# ---------------------------------------------------------------------------------------------
# The fast path: the same hands from the same random stream, as bit masks


def _sample_steps(n: int, k: int) -> tuple[bool, tuple[tuple[int, int], ...]]:
    """How ``random.sample(population_of_n, k)`` draws (CPython 3.11–3.13): by swapping
    inside a copy of the population (``True``) or by re-drawing indices already taken, and
    the ``(bound, bits)`` of each index it draws with ``getrandbits``."""
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        return True, tuple((n - i, (n - i).bit_length()) for i in range(k))
    return False, ((n, n.bit_length()),)


def _randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random.randrange(n)`` (``n`` > 0) from the same random stream."""
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def _sample_bits(
    getrandbits: Callable[[int], int],
    population: list[int],
    k: int,
    steps: tuple[bool, tuple[tuple[int, int], ...]],
) -> list[int]:
    """``random.sample(population, k)`` from the same random stream (``steps`` from
    :func:`_sample_steps`), without the per-call checks: the chosen items in order."""
    swap, bounds = steps
    out = []
    if swap:
        pool = population[:]
        for bound, bits in bounds:
            j = getrandbits(bits)
            while j >= bound:
                j = getrandbits(bits)
            out.append(pool[j])
            pool[j] = pool[bound - 1]
        return out
    bound, bits = bounds[0]
    selected: set[int] = set()
    for _ in range(k):
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        while j in selected:
            j = getrandbits(bits)
            while j >= bound:
                j = getrandbits(bits)
        selected.add(j)
        out.append(population[j])
    return out


def _enumerate(pool: list[Card], m: int, shown_mask: int, scorer: _Scorer, tally: _Tally) -> None:
    """Weigh every hand, in the order of ``combinations(pool, m)``."""
    for rest in combinations([c.bit for c in pool], m):
        weight, key = scorer.score_mask(shown_mask | sum(rest))
        if weight > 0:
            tally.add(key, weight)


def _sample(
    rng: Random,
    pool: list[Card],
    m: int,
    shown: list[Card],
    shown_mask: int,
    components: list[_Component],
    scorer: _Scorer,
    tally: _Tally,
    samples: int,
    limit: int,
) -> int:
    """:func:`_sample_reference` on bit masks: the same draws from the same random stream
    (``random.sample``'s algorithm replayed with ``getrandbits``), the same hands weighed in
    the same order with the same floating-point operations, so the same tally. Hands the
    scorer's lead filter rejects cost a few bit operations instead of an encoding."""
    uniform = UNIFORM_SHARE if components else 1.0
    shares = [c.share for c in components]
    initial = list(shares)
    cumulative = _cumulative(uniform, shares)
    comb = _COMB
    pilot: list[tuple[float, list[float], float]] = []
    drawn = [0] * (len(components) + 1)
    kept = [0] * (len(components) + 1)
    adapt_at = list(ADAPT_AT) if components else []
    attempts = 0
    random = rng.random
    getrandbits = rng.getrandbits
    bits = [c.bit for c in pool]
    swap, bounds = pool_steps = _sample_steps(len(bits), m)
    lead = scorer.lead
    memo = scorer.memo
    score = scorer.score_key
    spades, hearts, diamonds, clubs = _SUIT_MASKS
    suit_bits = [[c.bit for c in pool if c.suit == suit] for suit in range(4)]
    # Per component: its groups (bits, k and how ``random.sample`` draws k of them) and the
    # number of cards to fill.
    # (A group planted whole needs no bookkeeping: its draws are made and its cards taken.)
    plans = [
        (
            [
                (
                    [c.bit for c in cards] if len(cards) != k else None,
                    k,
                    *_sample_steps(len(cards), k),
                )
                for cards, _, k in comp.groups
            ],
            sum(gmask for cards, gmask, k in comp.groups if len(cards) == k),
            m - comp.planted,
        )
        for comp in components
    ]
    # Density terms: share * base (recomputed when the shares change). A proposal planting
    # one whole set of k cards (most of them: see _split) without a suit cap adds its factor
    # exactly when the hand holds those k cards (C(k, k) = 1), else nothing: such "exact"
    # proposals are found from the planted cards the hand lacks (``lacking``), the others
    # are weighed one by one. Terms that are 0 are skipped: adding 0.0 changes no sum.
    factors = [s * c.base for s, c in zip(shares, components, strict=True)]
    exact = 0
    holders = [0] * 52
    weighed: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}
    for i, c in enumerate(components):
        if not c.cap and len(c.groups) == 1 and c.groups[0][1].bit_count() == c.groups[0][2]:
            exact |= 1 << i
            for card in c.groups[0][0]:
                holders[card.index] |= 1 << i
        else:
            weighed[i] = (c.cap, tuple((g, k) for _, g, k in c.groups))
    others = sum(1 << i for i in weighed)
    exact_cards = [
        sum(1 << b for b in range(13 * suit, 13 * suit + 13) if holders[b]) for suit in range(4)
    ]
    lacking: list[dict[int, int]] = [{}, {}, {}, {}]
    suit_masks = _SUIT_MASKS
    planted_cards = 0
    for c in components:
        for _, gmask, _ in c.groups:
            planted_cards |= gmask
    capped = any(c.cap for c in components)
    densities: dict[int, tuple[float, list[float] | None]] = {}
    add = tally.add
    while tally.accepted < samples and attempts < limit:
        if adapt_at and attempts == adapt_at[0]:
            adapt_at.pop(0)
            shares = _adapted(shares, initial, pilot, drawn[1:], kept[1:])
            cumulative = _cumulative(uniform, shares)
            factors = [s * c.base for s, c in zip(shares, components, strict=True)]
            densities = {}
        attempts += 1
        j = bisect_right(cumulative, random())
        drawn[j] += 1
        if j == 0:
            mask = shown_mask
            if swap:
                left = bits[:]
                for bound, nbits in bounds:
                    i = getrandbits(nbits)
                    while i >= bound:
                        i = getrandbits(nbits)
                    mask |= left[i]
                    left[i] = left[bound - 1]
            else:
                for b in _sample_bits(getrandbits, bits, m, pool_steps):
                    mask |= b
        elif components[j - 1].cap:
            comp = components[j - 1]
            _, taken, per_suit = comp.plants[
                bisect_right(comp.cumulative, _randbelow(getrandbits, comp.cumulative[-1]))
            ]
            mask = shown_mask | taken
            vectors, counts = comp.fills[per_suit]
            vector = vectors[bisect_right(counts, _randbelow(getrandbits, counts[-1]))]
            for suit, k in enumerate(vector):
                if k:
                    left = [b for b in suit_bits[suit] if not b & taken]
                    for b in _sample_bits(getrandbits, left, k, _sample_steps(len(left), k)):
                        mask |= b
        else:
            groups, taken, need = plans[j - 1]
            for group_bits, k, group_swap, group_bounds in groups:
                if group_bits is None:
                    for bound, nbits in group_bounds:
                        while getrandbits(nbits) >= bound:
                            pass
                elif group_swap:
                    left = group_bits[:]
                    for bound, nbits in group_bounds:
                        i = getrandbits(nbits)
                        while i >= bound:
                            i = getrandbits(nbits)
                        taken |= left[i]
                        left[i] = left[bound - 1]
                else:
                    for b in _sample_bits(getrandbits, group_bits, k, (group_swap, group_bounds)):
                        taken |= b
            mask = shown_mask | taken
            if need:
                # The first cards of a uniform ordering of the pool that are not planted: a
                # uniform choice among the cards left (the whole ordering is drawn, as
                # ``random.sample`` does).
                if swap:
                    left = bits[:]
                    for bound, nbits in bounds:
                        i = getrandbits(nbits)
                        while i >= bound:
                            i = getrandbits(nbits)
                        if need:
                            b = left[i]
                            left[i] = left[bound - 1]
                            if not b & taken:
                                mask |= b
                                need -= 1
                else:
                    for b in _sample_bits(getrandbits, bits, m, pool_steps):
                        if not b & taken:
                            mask |= b
                            need -= 1
                            if not need:
                                break
        # The encoding depends only on the hand's key (see engine.signals.lead_filter).
        hand_key = lead(mask) if lead is not None else mask
        if not hand_key:
            continue
        found = memo.get(hand_key)
        weight, key = found if found is not None else score(hand_key)
        if weight <= 0:
            continue
        kept[j] += 1
        # The mixture's density depends on the hand only through the planted cards it holds
        # (and its longest suit, for the short-suit proposals): computed once per phase.
        dkey = mask & planted_cards
        if capped:
            dkey |= (
                max(
                    (mask & spades).bit_count(),
                    (mask & hearts).bit_count(),
                    (mask & diamonds).bit_count(),
                    (mask & clubs).bit_count(),
                )
                << 52
            )
        known = densities.get(dkey)
        if known is None:
            # The nonzero terms of _sample_reference's sum, in the same order.
            missing = 0
            for suit in range(4):
                gone = exact_cards[suit] & ~mask
                if gone:
                    found_bits = lacking[suit].get(gone)
                    if found_bits is None:
                        found_bits = 0
                        rest = gone
                        while rest:
                            low = rest & -rest
                            found_bits |= holders[low.bit_length() - 1]
                            rest ^= low
                        lacking[suit][gone] = found_bits
                    missing |= found_bits
            density = uniform
            terms: list[float] | None = [0.0] * len(factors) if adapt_at else None
            todo = (exact & ~missing) | others
            while todo:
                low = todo & -todo
                todo ^= low
                i = low.bit_length() - 1
                f = factors[i]
                if i in weighed:
                    cap, gks = weighed[i]
                    if cap:
                        for smask in suit_masks:
                            if (mask & smask).bit_count() > cap:
                                f = 0.0
                                break
                    if f:
                        for gmask, k in gks:
                            f *= comb[(mask & gmask).bit_count()][k]
                            if not f:
                                break
                if f:
                    density += f
                    if terms is not None:
                        terms[i] = f
            known = densities[dkey] = (density, terms)
        density, terms = known
        weight /= density
        add(key, weight)
        if adapt_at:
            assert terms is not None  # densities is emptied at each re-fit
            pilot.append((weight, terms, density))
    return attempts


def _adapted(
    shares: list[float],
    initial: list[float],
    pilot: list[tuple[float, list[float], float]],
    drawn: list[int],
    kept: list[int],
) -> list[float]:
    """New component shares from the hands accepted so far.

    A component's *mass* is its importance-weighted responsibility for the accepted hands (one
    EM step of population Monte Carlo); dividing it by the square root of the component's
    acceptance rate gives rarely accepted components more draws, so that their hands do not
    carry outsize weights. ``KEEP_INITIAL`` of the initial shares is kept, so that no reading
    is dropped on the strength of a pilot. Shares only change the efficiency, never the limit:
    every hand is weighed with the shares it was drawn under.
    """
    resp = [0.0] * len(shares)
    for weight, terms, density in pilot:
        for j, t in enumerate(terms):
            if t:
                resp[j] += weight * t / density
    scaled = [r / math.sqrt((k + 0.5) / (d + 1)) for r, d, k in zip(resp, drawn, kept, strict=True)]
    total = sum(scaled)
    if total <= 0:
        return shares
    room = 1 - UNIFORM_SHARE
    return [
        room * (1 - KEEP_INITIAL) * r / total + KEEP_INITIAL * s
        for r, s in zip(scaled, initial, strict=True)
    ]


def _cumulative(uniform: float, shares: list[float]) -> list[float]:
    """Upper bounds of each proposal's slice of [0, 1): uniform hands first, then each
    component (the last bound is 1 exactly, so a draw always falls in some slice)."""
    if not shares:
        return []
    bounds = [uniform]
    for share in shares:
        bounds.append(bounds[-1] + share)
    bounds[-1] = 1.0
    return bounds
