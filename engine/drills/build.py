"""Building each kind of drill from ``(kind, seed, params)``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, lru_cache

from engine.cards import DECK, Card, Suit, sort_cards
from engine.drills.hands import card_of, completed_hands, hand_with, item_core
from engine.drills.model import (
    DEFAULT_HAND_SIZES,
    KINDS,
    SCORE_SKILLS,
    SIGNAL_TRIES,
    Drill,
    DrillParams,
    Option,
)
from engine.drills.words import (
    advice_option,
    ordinal,
    reading_option,
    shuffled,
    signal_words,
)
from engine.errors import InvalidNotationError
from engine.scoring import get_rule, leftover_value, score_hand
from engine.signals import (
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    ITEM_TITLES,
    ITEMS,
    Convention,
    decode,
    detect,
    encode,
    get_convention,
    reply_advice,
)
from engine.table import Seat


@cache
def _has_signal(item: str, convention_name: str) -> bool:
    convention = get_convention(convention_name)
    rng = random.Random(f"probe:{item}:{convention_name}")
    return any(
        encode(hand_with(item, 8, rng, convention), 1, convention).plays for _ in range(5)
    )


def skills_for(kind: str, convention: Convention = DEFAULT_CONVENTION) -> tuple[str, ...]:
    """The skills (checklist items, or combinations for score drills) a kind drills."""
    if kind == "score":
        return SCORE_SKILLS
    if kind in ("read", "reply"):
        # Only items with a signal can be read; teach-yourself-1994 has none for fours.
        return tuple(i for i in ITEMS if _has_signal(i, convention.name))
    return ITEMS


def make_drill(kind: str, seed: int, params: DrillParams | None = None) -> Drill:
    """Build the drill ``(kind, seed, params)``; the same arguments always give the same drill.

    Drills are immutable and a pure function of their arguments, so recent ones are kept in a
    small cache (a drill is shown, then answered, then often replayed).

    Raises :class:`InvalidNotationError` for an unknown kind, a negative seed, or targets that
    no drill of this kind can have.
    """
    return _make_drill(kind, seed, params or DrillParams())


@lru_cache(maxsize=2048)
def _make_drill(kind: str, seed: int, params: DrillParams) -> Drill:
    if kind not in KINDS:
        raise InvalidNotationError(f"unknown drill kind: {kind!r}")
    if not isinstance(seed, int) or seed < 0:
        raise InvalidNotationError(f"a drill seed is a whole number from 0, not {seed!r}")
    rng = random.Random(f"{kind}:{seed}:{params.key()}")
    convention = get_convention(params.convention)
    feasible = skills_for(kind, convention)
    wanted = [i for i in params.items if i in feasible]
    if params.items and not wanted:
        raise InvalidNotationError(
            f"no {kind} drill exists for {', '.join(params.items)} in {convention.name}"
        )
    item = rng.choice(wanted or list(feasible))
    side_hand = params.side_hand or _side_hand_for(kind, item, rng)
    return _BUILDERS[kind](seed, params, rng, item, side_hand)


def _side_hand_for(kind: str, item: str, rng: random.Random) -> int:
    """A side hand where the item's signal is read first: strong items in the strong round
    (side hands 1-2), weak ones in the weak round (3-4); lead and checklist drills take any."""
    family = ITEM_FAMILY.get(item)
    if kind in ("read", "reply") and family == "strong":
        return rng.randint(1, 2)
    if kind in ("read", "reply") and family == "weak":
        return rng.randint(3, 4)
    return rng.randint(1, 4)


def _lead(seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int) -> Drill:
    convention = get_convention(params.convention)
    size = params.hand_size or DEFAULT_HAND_SIZES[side_hand]
    hand = hand_with(item, size, rng, convention)
    completed = completed_hands(side_hand - 1, rng, hand)
    return Drill(
        kind="lead", seed=seed, params=params, skill=encode(hand, side_hand, convention).item,
        side_hand=side_hand,
        prompt=f"You are on lead to your side's {ordinal(side_hand)} hand. "
               "Which signal do you lead?",
        hand=hand, completed=completed,
    )


def _signal_from(
    item: str, side_hand: int, params: DrillParams, rng: random.Random
) -> tuple[tuple[Card, ...], tuple[Card, Card | None]]:
    """A leader's hand holding ``item`` and one of its correct leads, preferring a lead whose
    primary reading is ``item`` itself (so the drill asks about what partner really holds)."""
    convention = get_convention(params.convention)
    size = params.hand_size or DEFAULT_HAND_SIZES[side_hand]
    fallback = None
    for _ in range(SIGNAL_TRIES):
        leader = hand_with(item, size, rng, convention)
        plays = encode(leader, side_hand, convention).plays
        clear = [p for p in plays if decode(p[0], p[1], side_hand, convention)[0].item == item]
        if clear:
            return leader, rng.choice(clear)
        if plays and fallback is None:
            fallback = leader, rng.choice(plays)
    if fallback is None:
        raise InvalidNotationError(f"{item!r} has no signal in {convention.name}")
    return fallback


def _read(seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int) -> Drill:
    convention = get_convention(params.convention)
    leader, signal = _signal_from(item, side_hand, params, rng)
    own: tuple[Card, ...] = ()
    if params.own_hand:
        rest = [c for c in DECK if c not in leader]
        own = tuple(sort_cards(rng.sample(rest, len(leader))))
    completed = completed_hands(side_hand - 1, rng, leader + own)
    drill = Drill(
        kind="read", seed=seed, params=params, skill=item, side_hand=side_hand,
        prompt=f"Side hand {side_hand}. {signal_words(signal)} What does partner hold?",
        hand=own, completed=completed, signal=signal, source=leader,
    )
    primary = decode(signal[0], signal[1], side_hand, convention, drill.visible)[0]
    right = reading_option(primary.item, primary.shape)
    distractors = _neighbour_readings(signal, side_hand, convention, right)
    options = shuffled([right, *distractors[:3]], rng)
    return replace(drill, skill=primary.item, options=options)


def _neighbour_readings(
    signal: tuple[Card, Card | None], side_hand: int, convention: Convention, right: Option,
) -> list[Option]:
    """Primary readings of signals one step away in the grid (other order, suit or distance),
    then other checklist items: the confusions a reader really makes."""
    c1, c2 = signal
    candidates: list[tuple[Card, Card | None]] = []
    if c2 is None:
        candidates += [(c1, c) for c in DECK if c != c1 and c.rank == c1.rank]
    else:
        candidates += [(c2, c1), (c1, None)]
        candidates += [(c1, c) for c in DECK
                       if c not in (c1, c2) and (c.rank == c2.rank or c.suit == c2.suit)]
    seen = {right.key}
    out: list[Option] = []
    for a, b in candidates:
        for reading in decode(a, b, side_hand, convention)[:1]:
            option = reading_option(reading.item, reading.shape)
            if option.key not in seen:
                seen.add(option.key)
                out.append(option)
    right_item = right.key.split(":")[0]
    for i in ITEMS:
        if i != right_item and i not in seen:
            seen.add(i)
            out.append(reading_option(i, None))
    return out


def _checklist(
    seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int
) -> Drill:
    convention = get_convention(params.convention)
    size = params.hand_size or rng.choice([13, 10, 8, 6, 5])
    hand = hand_with(item, size, rng, convention)
    found = detect(hand, convention).item
    index = ITEMS.index(found)
    near = [i for i in ITEMS if i != found]
    near.sort(key=lambda i: (abs(ITEMS.index(i) - index), rng.random()))
    options = shuffled([Option(i, ITEM_TITLES[i]) for i in [found, *near[:3]]], rng)
    return Drill(
        kind="checklist", seed=seed, params=params, skill=found, side_hand=side_hand,
        prompt="Which checklist item does this hand hold first?",
        hand=hand, options=options,
    )


_SCORE_CORES = {"straight_flush": "five_sf", "straight": "five_straight", "flush": "five_flush"}


def _score_cards(skill: str, rng: random.Random) -> tuple[Card, ...]:
    """Five cards whose combination is ``skill``, or six left-overs (always for three pairs)."""
    size = 6 if skill == "three_pairs" or rng.random() < 0.25 else 5
    for _ in range(400):
        if skill == "three_pairs":
            core = [card_of(r, s) for r in rng.sample(range(2, 15), 3)
                    for s in rng.sample(list(Suit), 2)]
        elif skill == "nothing":
            core = []
        else:
            core = item_core(_SCORE_CORES.get(skill, skill), rng)
        rest = [c for c in DECK if c not in core]
        cards = (core + rng.sample(rest, max(0, size - len(core))))[:size]
        if score_points(cards, "classic", ())[0] == skill:
            return tuple(sort_cards(cards))
    raise InvalidNotationError(f"could not build cards scoring {skill!r}")


#: Distractor pools for score drills: the values a combination can take under each rule.
_POINT_POOLS = {
    "classic": (0, 1, 2, 3, 5, 6, 8, 12, 15),
    "contribution": (0, 1, 2, 3, 5, 6, 8, 10, 12, 15, 16, 20),
}


def _score(seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int) -> Drill:
    cards = _score_cards(item, rng)
    by: tuple[Seat, ...] = ()
    if params.rule == "contribution":
        by = tuple(rng.choice((Seat.N, Seat.S)) for _ in cards)
    _, points = score_points(cards, params.rule, by)
    pool = set(_POINT_POOLS[params.rule])
    if len(cards) == 6:
        pool = {10 * v for v in pool | {6}}
    wrong = sorted(pool - {points})
    rng.shuffle(wrong)
    options = tuple(Option(str(v), str(v)) for v in sorted([points, *wrong[:3]]))
    what = (
        "These are a side's six left-overs. What bonus do they give the other side?"
        if len(cards) == 6 else "This hand has just been completed. What does it score?"
    )
    return Drill(
        kind="score", seed=seed, params=params, skill=item, side_hand=side_hand,
        prompt=what, cards=cards, by=by, options=options,
    )


def _reply(seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int) -> Drill:
    convention = get_convention(params.convention)
    leader, signal = _signal_from(item, side_hand, params, rng)
    size = params.hand_size or DEFAULT_HAND_SIZES[side_hand]
    rest = [c for c in DECK if c not in leader]
    own = tuple(sort_cards(rng.sample(rest, size)))
    completed = completed_hands(side_hand - 1, rng, leader + own)
    drill = Drill(
        kind="reply", seed=seed, params=params, skill=item, side_hand=side_hand,
        prompt=f"Side hand {side_hand}. {signal_words(signal)} What do you do?",
        hand=own, completed=completed, signal=signal, source=leader,
    )
    advice = reply_advice(own, signal[0], signal[1], side_hand, convention, drill.visible)
    right = advice_option(advice.action, advice.cards)
    others = [advice_option("pass", ()), advice_option("force", ())]
    spare = [c for c in own if c not in advice.cards]
    if spare:
        others.append(advice_option("play", (rng.choice(spare),)))
    if len(advice.cards) > 1:
        others.append(advice_option("play", advice.cards[:1]))
    options = [right] + [o for o in others if o.key != right.key]
    return replace(drill, options=shuffled(options[:4], rng))


_BUILDERS = {"lead": _lead, "read": _read, "checklist": _checklist, "score": _score,
             "reply": _reply}


def score_points(cards: Sequence[Card], rule: str, by: Sequence[Seat]) -> tuple[str, int]:
    """The combination and the points (for six left-overs: the bonus, ten times the value)."""
    scoring_rule = get_rule(rule)
    if len(cards) == 6:
        value = leftover_value(cards, scoring_rule, by=tuple(by) or None)
        return str(value.combination), 10 * value.value
    result = score_hand(cards, scoring_rule, by=tuple(by) or None)
    return str(result.combination), result.points
