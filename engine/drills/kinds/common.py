"""Positions shared by the kinds: a leader's hand that fits its side hand, partner's hand, the
table they sit at, and the signal the leader gives."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from engine.cards import DECK, Card, sort_cards
from engine.drills.hands import MIN_CARDS, hand_with
from engine.drills.model import SIGNAL_TRIES, DrillParams
from engine.drills.situation import LEADER_SIZES, Table, leader_sizes, side_total
from engine.errors import InvalidNotationError
from engine.signals import ITEM_FAMILY, Convention, decode, encode, get_convention
from engine.signals.encoder import Play

__all__ = ["Position", "leader_position", "max_first_size", "signal_position"]


@cache
def max_first_size(item: str, convention_name: str) -> int:
    """The most cards a hand can hold with ``item`` as its first checklist item (13 when a
    full hand can). Found by building: the builder shrinks a hand that cannot avoid an earlier
    item, so the largest hand it returns over a few tries is the bound."""
    convention = get_convention(convention_name)
    rng = random.Random(f"max-size:{item}:{convention_name}")
    return max(len(hand_with(item, 13, rng, convention)) for _ in range(12))


def fits(item: str, params: DrillParams, convention: Convention, min_partner: int = 0) -> bool:
    """Whether a leader can hold ``item`` first in the side hand (and hand size) ``params``
    fix, leaving partner at least ``min_partner`` cards."""
    top = max_first_size(item, convention.name)
    sides = [params.side_hand] if params.side_hand else [1, 2, 3, 4]
    return any(
        MIN_CARDS[item] <= n <= top
        and side_total(k) - n >= min_partner
        and (params.hand_size is None or n == params.hand_size)
        for k in sides
        for n in leader_sizes(k)
    )


def _side_hands(item: str, convention: Convention, min_partner: int) -> list[int]:
    """Side hands whose leader can hold ``item`` first (and leave partner enough cards)."""
    top = max_first_size(item, convention.name)
    return [
        k
        for k in (1, 2, 3, 4)
        if any(
            MIN_CARDS[item] <= n <= top and side_total(k) - n >= min_partner
            for n in leader_sizes(k)
        )
    ]


def _pick_side_hand(
    rng: random.Random,
    params: DrillParams,
    item: str,
    convention: Convention,
    *,
    by_family: bool,
    min_partner: int,
) -> int:
    if params.side_hand is not None:
        return params.side_hand
    possible = _side_hands(item, convention, min_partner)
    if not possible:
        raise InvalidNotationError(f"no leader's hand can show {item!r} first")
    if by_family:  # strong items are read in the strong round, weak ones in the weak round
        family = ITEM_FAMILY.get(item)
        wanted = {"strong": (1, 2), "weak": (3, 4)}.get(family or "", (1, 2, 3, 4))
        preferred = [k for k in possible if k in wanted]
        possible = preferred or possible
    side_hand = rng.choice(possible)
    size = params.hand_size
    if size is not None and not _holds(item, convention, side_hand, size, min_partner):
        # The side hand drawn cannot have a leader of that many cards: draw again among those
        # that can (a drill whose first draw fits is unchanged).
        fitting = [k for k in possible if _holds(item, convention, k, size, min_partner)] or [
            k
            for k in _side_hands(item, convention, min_partner)
            if _holds(item, convention, k, size, min_partner)
        ]
        if fitting:
            side_hand = rng.choice(fitting)
    return side_hand


def _holds(item: str, convention: Convention, side_hand: int, size: int, min_partner: int) -> bool:
    """Whether the leader of ``side_hand`` can hold ``size`` cards with ``item`` first."""
    return (
        size in leader_sizes(side_hand)
        and side_total(side_hand) - size >= min_partner
        and MIN_CARDS[item] <= size <= max_first_size(item, convention.name)
    )


def _leader_sizes(
    rng: random.Random,
    params: DrillParams,
    item: str,
    side_hand: int,
    convention: Convention,
    min_partner: int,
) -> list[int]:
    """Leader hand sizes to try: one drawn at random, then the smaller ones, largest first."""
    sizes = [n for n in leader_sizes(side_hand) if side_total(side_hand) - n >= min_partner]
    lo, hi = LEADER_SIZES[side_hand]
    if params.hand_size is not None:
        if params.hand_size not in sizes:
            raise InvalidNotationError(
                f"the leader of side hand {side_hand} holds {lo} to {hi} cards, not "
                f"{params.hand_size}"
            )
        sizes = [params.hand_size]
    top = max_first_size(item, convention.name)
    fitting = [n for n in sizes if MIN_CARDS[item] <= n <= top]
    if not fitting:
        raise InvalidNotationError(
            f"{item!r} cannot be the first item of a {sizes[0]}-card hand in side hand {side_hand}"
        )
    first = rng.choice(fitting)
    return [first, *sorted((n for n in fitting if n < first), reverse=True)]


@dataclass(frozen=True, slots=True)
class Position:
    """A leader about to lead the side's ``side_hand``-th hand, partner, and the table."""

    side_hand: int
    leader: tuple[Card, ...]
    partner: tuple[Card, ...]
    table: Table


def leader_position(
    rng: random.Random,
    params: DrillParams,
    item: str,
    *,
    by_family: bool = False,
    min_partner: int = 0,
) -> Position:
    """A leader holding ``item`` first, with a hand size the side hand allows (docs/rules.md)."""
    convention = get_convention(params.convention)
    side_hand = _pick_side_hand(
        rng, params, item, convention, by_family=by_family, min_partner=min_partner
    )
    sizes = _leader_sizes(rng, params, item, side_hand, convention, min_partner)
    # The drawn size first, then smaller ones the side hand allows. A few items rarely fill the
    # only size allowed (threes first in 13 cards: about one draw in three), so when every size
    # fails its first tries, keep drawing; drills built by the first pass are unchanged.
    leader = _draw_leader(rng, item, sizes, convention, tries=8) or _draw_leader(
        rng, item, sizes, convention, tries=64
    )
    if not leader:
        raise InvalidNotationError(f"no hand with {item!r} first fits side hand {side_hand}")
    size = len(leader)
    rest = [c for c in DECK if c not in leader]
    partner = tuple(sort_cards(rng.sample(rest, side_total(side_hand) - size)))
    return Position(side_hand, leader, partner, Table.build(rng, side_hand, leader, partner))


def _draw_leader(
    rng: random.Random,
    item: str,
    sizes: list[int],
    convention: Convention,
    *,
    tries: int,
) -> tuple[Card, ...]:
    """A hand of the first size in ``sizes`` that ``tries`` draws can fill, or ``()``."""
    for size in sizes:
        for _ in range(tries):
            leader = hand_with(item, size, rng, convention)
            if len(leader) == size:
                return leader
    return ()


def signal_position(
    rng: random.Random,
    params: DrillParams,
    item: str,
    *,
    min_partner: int = 0,
    visible_own: bool = True,
) -> tuple[Position, Play]:
    """A leader whose first signalled item is ``item`` and one of its correct leads, chosen
    among those whose primary reading (by what the reader sees) is ``item`` when there are
    any, so the drill asks about what partner really holds."""
    convention = get_convention(params.convention)
    fallback: tuple[Position, Play] | None = None
    for _ in range(SIGNAL_TRIES):
        pos = leader_position(rng, params, item, by_family=True, min_partner=min_partner)
        plays = encode(pos.leader, pos.side_hand, convention).plays
        seen = _seen(pos, visible_own)
        clear = [
            p
            for p in plays
            if (r := decode(p[0], p[1], pos.side_hand, convention, seen)) and r[0].item == item
        ]
        if clear:
            return pos, rng.choice(clear)
        if plays and fallback is None:
            fallback = pos, rng.choice(plays)
    if fallback is None:
        raise InvalidNotationError(f"{item!r} has no signal in {convention.name}")
    return fallback


def _seen(pos: Position, own: bool) -> tuple[Card, ...]:
    table = pos.table
    cards = [c for h in (*table.completed, *table.opponents) for c in h]
    return (*pos.partner, *cards) if own else tuple(cards)
