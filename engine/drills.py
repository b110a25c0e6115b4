"""Drills: positions the engine builds from ``(kind, seed, params)`` and grades.

A drill is never stored with its answer. The same ``(kind, seed, params)`` always rebuilds the
same position, and :func:`grade` asks the rules and signal engines for the right answer each time::

    >>> d = make_drill("checklist", 7, DrillParams(items=("fours",)))
    >>> d.skill
    'fours'
    >>> grade(d, parse_answer(d, {"option": "fours"})).correct
    True

Kinds:

- ``lead`` — the learner holds a hand and leads a signal: answer ``(c1, c2 | pass)``;
- ``read`` — partner's signal is shown: pick what partner holds (multiple choice);
- ``checklist`` — name the first checklist item a hand holds (multiple choice);
- ``score`` — five played cards or six left-overs: what do they score (multiple choice);
- ``reply`` — the learner's hand and partner's signal: play which cards, pass or force.

Targeted positions are constructed: the item's cards are placed first and the rest of the hand
filled at random, re-filling until the checklist finds that item first (shrinking the hand when a
large hand cannot avoid a higher item), never by dealing random hands until a rare item turns up.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache

from engine.cards import DECK, Card, Suit, sort_cards
from engine.errors import ConcertoError, InvalidNotationError
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

__all__ = [
    "KINDS",
    "KIND_TITLES",
    "SCORE_SKILLS",
    "Drill",
    "DrillParams",
    "Option",
    "Answer",
    "Grade",
    "InvalidAnswerError",
    "make_drill",
    "parse_answer",
    "grade",
    "skills_for",
    "skill_title",
    "answer_words",
]

KINDS: tuple[str, ...] = ("lead", "read", "checklist", "score", "reply")
KIND_TITLES = {
    "lead": "Lead a signal",
    "read": "Read partner's signal",
    "checklist": "Spot the checklist item",
    "score": "Score the cards",
    "reply": "Reply to partner",
}
KIND_DESCRIPTIONS = {
    "lead": "You hold the cards and the lead: choose the two-card signal that tells partner "
            "what you are building.",
    "read": "Partner has led two cards (or one and a pass): say what partner is telling you.",
    "checklist": "Quick-fire: find the first item of the leader's checklist in a hand.",
    "score": "Value a finished hand, or a side's six left-overs, under either scoring rule.",
    "reply": "Partner has signalled and you hold these cards: play to the combination, pass, "
             "or force partner to play.",
}
#: Skills of score drills: five-card combinations and the left-over combinations.
SCORE_SKILLS: tuple[str, ...] = (
    "one_pair", "two_pair", "threes", "straight", "flush", "full_house", "fours",
    "straight_flush", "three_pairs", "nothing",
)
_SCORE_TITLES = {
    "nothing": "Nothing", "one_pair": "One pair", "two_pair": "Two pair", "threes": "Threes",
    "straight": "Straight", "flush": "Flush", "full_house": "Full house", "fours": "Fours",
    "straight_flush": "Straight flush", "three_pairs": "Three pairs (left-overs)",
}
#: Default hand size of the leader for each side hand, when the params do not fix one.
DEFAULT_HAND_SIZES = {1: 13, 2: 11, 3: 8, 4: 6}
#: Smallest and largest hand a drill may ask about. Small hands happen late in a deal.
MIN_HAND_SIZE, MAX_HAND_SIZE = 3, 13
_FILL_TRIES = 60
_SIGNAL_TRIES = 8


class InvalidAnswerError(ConcertoError):
    """An answer that does not fit the drill: unknown option, a card not in the hand, …"""


@dataclass(frozen=True, slots=True)
class DrillParams:
    """What a drill set asks for. Every field has a default, so ``DrillParams()`` is valid.

    ``items`` targets checklist items (for score drills: combination ids); empty means any.
    ``side_hand`` and ``hand_size`` left ``None`` are chosen per drill from the seed.
    ``own_hand`` shows the reader's own hand in read drills (and prunes readings with it).
    """

    convention: str = DEFAULT_CONVENTION.name
    rule: str = "classic"
    side_hand: int | None = None
    items: tuple[str, ...] = ()
    hand_size: int | None = None
    own_hand: bool = False

    def __post_init__(self) -> None:
        get_convention(self.convention)
        get_rule(self.rule)
        if self.side_hand is not None and self.side_hand not in (1, 2, 3, 4):
            raise InvalidNotationError(f"side hand must be 1 to 4, not {self.side_hand!r}")
        if self.hand_size is not None and not MIN_HAND_SIZE <= self.hand_size <= MAX_HAND_SIZE:
            raise InvalidNotationError(
                f"hand size must be {MIN_HAND_SIZE} to {MAX_HAND_SIZE}, not {self.hand_size!r}"
            )
        known = set(ITEMS) | set(SCORE_SKILLS)
        for item in self.items:
            if item not in known:
                raise InvalidNotationError(f"unknown checklist item: {item!r}")

    def to_query(self) -> dict[str, str]:
        """The non-default fields as strings, in a fixed order (for URLs and storage)."""
        out: dict[str, str] = {}
        if self.convention != DEFAULT_CONVENTION.name:
            out["convention"] = self.convention
        if self.rule != "classic":
            out["rule"] = self.rule
        if self.side_hand is not None:
            out["side_hand"] = str(self.side_hand)
        if self.items:
            out["items"] = ",".join(self.items)
        if self.hand_size is not None:
            out["hand_size"] = str(self.hand_size)
        if self.own_hand:
            out["own_hand"] = "1"
        return out

    def key(self) -> str:
        """A canonical string of :meth:`to_query`, equal for equal params."""
        return "&".join(f"{k}={v}" for k, v in self.to_query().items())

    @classmethod
    def from_query(cls, query: Mapping[str, str], **defaults: object) -> DrillParams:
        """Read params from URL query values; ``defaults`` fill what the query leaves out.

        Raises :class:`InvalidNotationError` naming the bad value.
        """

        def number(name: str) -> int | None:
            raw = (query.get(name) or "").strip()
            if not raw:
                return defaults.get(name)  # type: ignore[return-value]
            try:
                return int(raw)
            except ValueError:
                label = name.replace("_", " ")
                raise InvalidNotationError(f"{label} is not a number: {raw!r}") from None

        items_raw = query.get("items")
        if items_raw is None:
            items = tuple(defaults.get("items", ()))  # type: ignore[call-overload]
        else:
            items = tuple(dict.fromkeys(i.strip() for i in items_raw.split(",") if i.strip()))
        return cls(
            convention=str(query.get("convention") or defaults.get("convention")
                           or DEFAULT_CONVENTION.name),
            rule=str(query.get("rule") or defaults.get("rule") or "classic"),
            side_hand=number("side_hand"),
            items=items,
            hand_size=number("hand_size"),
            own_hand=(query.get("own_hand") or "") in ("1", "on", "true", "yes"),
        )


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a multiple-choice drill: a stable ``key`` and the words shown."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Drill:
    """A position to answer. Holds what the learner may see, plus (for read and reply drills)
    the hidden leader's hand the signal came from, which is never shown."""

    kind: str
    seed: int
    params: DrillParams
    skill: str
    side_hand: int
    prompt: str
    hand: tuple[Card, ...] = ()
    completed: tuple[tuple[Card, ...], ...] = ()
    signal: tuple[Card, Card | None] | None = None
    cards: tuple[Card, ...] = ()
    by: tuple[Seat, ...] = ()
    options: tuple[Option, ...] = ()
    source: tuple[Card, ...] = field(default=(), repr=False)

    @property
    def convention(self) -> Convention:
        return get_convention(self.params.convention)

    @property
    def visible(self) -> tuple[Card, ...]:
        """Cards the learner can see: own hand and every completed hand."""
        return self.hand + tuple(c for h in self.completed for c in h)


@dataclass(frozen=True, slots=True)
class Answer:
    """A learner's answer: a lead ``(c1, c2 | None)`` or an option key."""

    play: tuple[Card, Card | None] | None = None
    option: str | None = None

    def __str__(self) -> str:
        if self.play is not None:
            c1, c2 = self.play
            return f"{c1} {c2 or 'pass'}"
        return self.option or ""


@dataclass(frozen=True, slots=True)
class Grade:
    """The engine's verdict on an answer, with what to show the learner."""

    correct: bool
    expected: str
    explanation: str
    details: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------
# Constructing hands that hold a chosen item first


def _window_ranks(rng: random.Random) -> list[int]:
    low = rng.randint(1, 10)  # 1 = the Ace counted low (A-2-3-4-5)
    return [14 if r == 1 else r for r in range(low, low + 5)]


def _of(rank: int, suit: Suit) -> Card:
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
            trial = chosen + [rank]
            if all(_window_count(trial, low) < 3 for low in range(1, 11)):
                chosen = trial
                if len(chosen) == n:
                    return chosen


#: Fewest cards that can hold each item.
_MIN_CARDS = {
    "five_sf": 5, "fours": 4, "four_sf": 4, "two_threes": 6, "full_house": 5, "three_sf": 3,
    "five_flush": 5, "five_straight": 5, "threes": 3, "two_pair": 4, "four_flush": 4,
    "four_straight": 4, "three_flush": 3, "three_straight": 3, "one_pair": 2,
}
_GROUPS = {"two_threes": (3, 3), "full_house": (3, 2), "threes": (3,), "two_pair": (2, 2),
           "one_pair": (2,)}
_RUN_LENGTH = {"five_flush": 5, "four_flush": 4, "three_flush": 3,
               "five_straight": 5, "four_straight": 4, "three_straight": 3}


def _core(item: str, rng: random.Random) -> list[Card]:
    """A few cards that hold ``item`` (the fill may still reveal a higher item)."""
    suit = rng.choice(list(Suit))
    all_ranks = list(range(2, 15))
    if item == "five_sf":
        return [_of(r, suit) for r in _window_ranks(rng)]
    if item in ("four_sf", "three_sf"):
        window = _window_ranks(rng)
        n = 4 if item == "four_sf" else 3
        span = 5 if n == 4 or rng.random() < 0.5 else 4  # shapes within four ranks are commoner
        return [_of(window[i], suit) for i in sorted(rng.sample(range(span), n))]
    if item == "fours":
        rank = rng.choice(all_ranks)
        return [_of(rank, s) for s in Suit]
    if item in _GROUPS:
        counts = _GROUPS[item]
        ranks = rng.sample(all_ranks, len(counts))
        return [_of(r, s) for r, n in zip(ranks, counts, strict=True)
                for s in rng.sample(list(Suit), n)]
    if item.endswith("_flush"):
        return [_of(r, suit) for r in _spread_ranks(rng, _RUN_LENGTH[item])]
    if item.endswith("_straight"):
        window = _window_ranks(rng)
        n = _RUN_LENGTH[item]
        ranks = [window[i] for i in sorted(rng.sample(range(5), n))]
        return [_of(r, s) for r, s in zip(ranks, _mixed_suits(rng, n), strict=True)]
    raise InvalidNotationError(f"unknown checklist item: {item!r}")


def _hand_with(
    item: str | None, size: int, rng: random.Random, convention: Convention,
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
    target = max(size, _MIN_CARDS[item])
    # A greedy pass ends with a hand no card can join without an earlier item, so a few passes
    # suffice; the core is redrawn when it alone shows an earlier item.
    attempts = 0
    for _ in range(_FILL_TRIES):
        if attempts == 3:
            break
        core = _core(item, rng)
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


@cache
def _has_signal(item: str, convention_name: str) -> bool:
    convention = get_convention(convention_name)
    rng = random.Random(f"probe:{item}:{convention_name}")
    return any(
        encode(_hand_with(item, 8, rng, convention), 1, convention).plays for _ in range(5)
    )


def skills_for(kind: str, convention: Convention = DEFAULT_CONVENTION) -> tuple[str, ...]:
    """The skills (checklist items, or combinations for score drills) a kind drills."""
    if kind == "score":
        return SCORE_SKILLS
    if kind in ("read", "reply"):
        # Only items with a signal can be read; teach-yourself-1994 has none for fours.
        return tuple(i for i in ITEMS if _has_signal(i, convention.name))
    return ITEMS


def _completed_hands(
    count: int, rng: random.Random, exclude: Iterable[Card]
) -> tuple[tuple[Card, ...], ...]:
    excluded = set(exclude)
    rest = [c for c in DECK if c not in excluded]
    rng.shuffle(rest)
    return tuple(tuple(sort_cards(rest[i * 5:(i + 1) * 5])) for i in range(count))


# --------------------------------------------------------------------------------------------
# Building each kind


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
    hand = _hand_with(item, size, rng, convention)
    completed = _completed_hands(side_hand - 1, rng, hand)
    return Drill(
        kind="lead", seed=seed, params=params, skill=encode(hand, side_hand, convention).item,
        side_hand=side_hand,
        prompt=f"You are on lead to your side's {_ordinal(side_hand)} hand. "
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
    for _ in range(_SIGNAL_TRIES):
        leader = _hand_with(item, size, rng, convention)
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
    completed = _completed_hands(side_hand - 1, rng, leader + own)
    drill = Drill(
        kind="read", seed=seed, params=params, skill=item, side_hand=side_hand,
        prompt=f"Side hand {side_hand}. {_signal_words(signal)} What does partner hold?",
        hand=own, completed=completed, signal=signal, source=leader,
    )
    primary = decode(signal[0], signal[1], side_hand, convention, drill.visible)[0]
    right = _reading_option(primary.item, primary.shape)
    distractors = _neighbour_readings(signal, side_hand, convention, right)
    options = _shuffled([right, *distractors[:3]], rng)
    return replace(drill, skill=primary.item, options=options)


def _reading_option(item: str, shape: str | None) -> Option:
    key = item if shape is None else f"{item}:{shape}"
    label = ITEM_TITLES[item] + (f" ({shape})" if shape else "")
    return Option(key, label)


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
            option = _reading_option(reading.item, reading.shape)
            if option.key not in seen:
                seen.add(option.key)
                out.append(option)
    right_item = right.key.split(":")[0]
    for i in ITEMS:
        if i != right_item and i not in seen:
            seen.add(i)
            out.append(_reading_option(i, None))
    return out


def _checklist(
    seed: int, params: DrillParams, rng: random.Random, item: str, side_hand: int
) -> Drill:
    convention = get_convention(params.convention)
    size = params.hand_size or rng.choice([13, 10, 8, 6, 5])
    hand = _hand_with(item, size, rng, convention)
    found = detect(hand, convention).item
    index = ITEMS.index(found)
    near = [i for i in ITEMS if i != found]
    near.sort(key=lambda i: (abs(ITEMS.index(i) - index), rng.random()))
    options = _shuffled([Option(i, ITEM_TITLES[i]) for i in [found, *near[:3]]], rng)
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
            core = [_of(r, s) for r in rng.sample(range(2, 15), 3)
                    for s in rng.sample(list(Suit), 2)]
        elif skill == "nothing":
            core = []
        else:
            core = _core(_SCORE_CORES.get(skill, skill), rng)
        rest = [c for c in DECK if c not in core]
        cards = (core + rng.sample(rest, max(0, size - len(core))))[:size]
        if _score_points(cards, "classic", ())[0] == skill:
            return tuple(sort_cards(cards))
    raise InvalidNotationError(f"could not build cards scoring {skill!r}")


def _score_points(cards: Sequence[Card], rule: str, by: Sequence[Seat]) -> tuple[str, int]:
    """The combination and the points (for six left-overs: the bonus, ten times the value)."""
    scoring_rule = get_rule(rule)
    if len(cards) == 6:
        value = leftover_value(cards, scoring_rule, by=tuple(by) or None)
        return str(value.combination), 10 * value.value
    result = score_hand(cards, scoring_rule, by=tuple(by) or None)
    return str(result.combination), result.points


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
    _, points = _score_points(cards, params.rule, by)
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
    completed = _completed_hands(side_hand - 1, rng, leader + own)
    drill = Drill(
        kind="reply", seed=seed, params=params, skill=item, side_hand=side_hand,
        prompt=f"Side hand {side_hand}. {_signal_words(signal)} What do you do?",
        hand=own, completed=completed, signal=signal, source=leader,
    )
    advice = reply_advice(own, signal[0], signal[1], side_hand, convention, drill.visible)
    right = _advice_option(advice.action, advice.cards)
    others = [_advice_option("pass", ()), _advice_option("force", ())]
    spare = [c for c in own if c not in advice.cards]
    if spare:
        others.append(_advice_option("play", (rng.choice(spare),)))
    if len(advice.cards) > 1:
        others.append(_advice_option("play", advice.cards[:1]))
    options = [right] + [o for o in others if o.key != right.key]
    return replace(drill, options=_shuffled(options[:4], rng))


def _advice_option(action: str, cards: Sequence[Card]) -> Option:
    if action == "play":
        return Option("play:" + "-".join(str(c) for c in cards),
                      "Play " + " ".join(c.symbol for c in cards))
    return Option(action, {"pass": "Pass", "force": "Force partner: “Play!”"}[action])


_BUILDERS = {"lead": _lead, "read": _read, "checklist": _checklist, "score": _score,
             "reply": _reply}


# --------------------------------------------------------------------------------------------
# Answers and grading


def parse_answer(drill: Drill, data: Mapping[str, str]) -> Answer:
    """Read a submitted answer, checking it fits the drill.

    Lead drills take ``c1`` and ``c2`` (a card or ``pass``), both from the hand; the others take
    ``option``, one of the drill's option keys. Raises :class:`InvalidAnswerError` naming the
    problem, or :class:`InvalidNotationError` for an unknown card.
    """
    if drill.kind == "lead":
        raw1, raw2 = (data.get("c1") or "").strip(), (data.get("c2") or "").strip()
        if not raw1 or not raw2:
            raise InvalidAnswerError("a lead needs a first card and a second card or pass")
        c1 = Card.parse(raw1)
        c2 = None if raw2.lower() == "pass" else Card.parse(raw2)
        for c in (c1, c2):
            if c is not None and c not in drill.hand:
                raise InvalidAnswerError(f"{c.symbol} is not in your hand")
        if c1 == c2:
            raise InvalidAnswerError(f"{c1.symbol} cannot be played twice")
        return Answer(play=(c1, c2))
    raw = (data.get("option") or "").strip()
    if not raw:
        raise InvalidAnswerError("choose one of the options")
    if raw not in {o.key for o in drill.options}:
        raise InvalidAnswerError(f"not one of this drill's options: {raw!r}")
    return Answer(option=raw)


def grade(drill: Drill, answer: Answer) -> Grade:
    """Ask the engine for the right answer and compare. The explanation says why."""
    if drill.kind == "lead":
        return _grade_lead(drill, answer)
    option = answer.option
    convention = drill.convention
    if drill.kind == "read":
        assert drill.signal is not None
        readings = decode(drill.signal[0], drill.signal[1], drill.side_hand, convention,
                          drill.visible)
        right = _reading_option(readings[0].item, readings[0].shape)
        others = tuple(f"It could also mean: {r.text}" for r in readings[1:])
        return Grade(option == right.key, right.label, readings[0].text, others)
    if drill.kind == "checklist":
        found = detect(drill.hand, convention)
        shape = f" ({found.shape})" if found.shape else ""
        return Grade(
            option == found.item, ITEM_TITLES[found.item],
            f"{ITEM_TITLES[found.item]}{shape}: "
            f"{' '.join(c.symbol for c in sort_cards(found.cards))}.",
        )
    if drill.kind == "score":
        combination, points = _score_points(drill.cards, drill.params.rule, drill.by)
        name = _SCORE_TITLES.get(combination, combination)
        if len(drill.cards) == 6:
            text = f"The best left-over combination is {name.lower()}: a bonus of {points}."
        else:
            text = f"{name}: {points} points under the {drill.params.rule} rule."
        return Grade(option == str(points), str(points), text)
    assert drill.kind == "reply" and drill.signal is not None
    advice = reply_advice(drill.hand, drill.signal[0], drill.signal[1], drill.side_hand,
                          convention, drill.visible)
    right = _advice_option(advice.action, advice.cards)
    return Grade(option == right.key, right.label, advice.reason)


def _grade_lead(drill: Drill, answer: Answer) -> Grade:
    assert answer.play is not None
    convention = drill.convention
    enc = encode(drill.hand, drill.side_hand, convention)
    c1, c2 = answer.play
    readings = decode(c1, c2, drill.side_hand, convention)
    heard = readings[0].text if readings else "no signal at all."
    if not enc.plays:
        return Grade(False, "no signal", "This hand holds nothing to signal.")
    title = ITEM_TITLES[enc.item]
    shape = f" ({enc.shape})" if enc.shape else ""
    details = [f"Partner reads your lead {_play_words((c1, c2))} as: {heard}"]
    if len(enc.plays) > 1:
        details.append("Every correct lead: " + ", ".join(_play_words(p) for p in enc.plays) + ".")
    return Grade(
        correct=(c1, c2) in enc.plays,
        expected=_play_words(enc.plays[0]),
        explanation=f"Your first checklist item is {title.lower()}{shape}: "
                    f"{' '.join(c.symbol for c in sort_cards(enc.cards))}. "
                    f"Lead {_play_words(enc.plays[0])}.",
        details=tuple(details),
    )


# --------------------------------------------------------------------------------------------
# Words


def answer_words(kind: str, answer: str) -> str:
    """A stored answer (``Attempt.answer``) in words: ``"4S 8S"`` → ``"4♠ then 8♠"``,
    ``"four_sf:XX.XX"`` → ``"Four to a straight flush (XX.XX)"``. Unknown text comes back as is."""
    try:
        if kind == "lead":
            first, second = answer.split()
            c2 = None if second == "pass" else Card.parse(second)
            return _play_words((Card.parse(first), c2))
        if kind in ("read", "checklist"):
            item, _, shape = answer.partition(":")
            return _reading_option(item, shape or None).label
        if kind == "reply":
            action, _, cards = answer.partition(":")
            played = [Card.parse(c) for c in cards.split("-") if c]
            return _advice_option(action, played).label
    except (ValueError, KeyError):
        return answer
    return answer


def skill_title(kind: str, skill: str) -> str:
    if kind == "score":
        return _SCORE_TITLES.get(skill, skill)
    return ITEM_TITLES.get(skill, skill)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[n]


def _play_words(play: tuple[Card, Card | None]) -> str:
    c1, c2 = play
    return f"{c1.symbol} then {c2.symbol}" if c2 else f"{c1.symbol} and pass"


def _signal_words(signal: tuple[Card, Card | None]) -> str:
    c1, c2 = signal
    if c2 is None:
        return f"Partner led {c1.symbol}, you passed, and partner passed too."
    return f"Partner led {c1.symbol}, you passed, partner played {c2.symbol}."


def _shuffled(options: Sequence[Option], rng: random.Random) -> tuple[Option, ...]:
    out = list(options)
    rng.shuffle(out)
    return tuple(out)
