"""Drill values: kinds, parameters, the drill itself, answers and grades."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.cards import Card
from engine.errors import ConcertoError, InvalidNotationError
from engine.scoring import get_rule
from engine.signals import (
    DEFAULT_CONVENTION,
    ITEMS,
    Convention,
    get_convention,
)
from engine.table import Seat

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
SCORE_TITLES = {
    "nothing": "Nothing", "one_pair": "One pair", "two_pair": "Two pair", "threes": "Threes",
    "straight": "Straight", "flush": "Flush", "full_house": "Full house", "fours": "Fours",
    "straight_flush": "Straight flush", "three_pairs": "Three pairs (left-overs)",
}
#: Default hand size of the leader for each side hand, when the params do not fix one.
DEFAULT_HAND_SIZES = {1: 13, 2: 11, 3: 8, 4: 6}
#: Smallest and largest hand a drill may ask about. Small hands happen late in a deal.
MIN_HAND_SIZE, MAX_HAND_SIZE = 3, 13
FILL_TRIES = 60
SIGNAL_TRIES = 8


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
