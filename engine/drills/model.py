"""Drill values: kinds, parameters, the drill itself, answers and grades."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from engine.cards import Card
from engine.drills.situation import Table
from engine.errors import ConcertoError, InvalidNotationError
from engine.messages import COMBO_TITLES, Cards, Msg
from engine.scoring import ContributionSplit, get_rule
from engine.seats import Seat
from engine.signals import (
    DEFAULT_CONVENTION,
    ITEMS,
    Convention,
    Signal,
    get_convention,
)


class DrillKind(enum.StrEnum):
    """The kinds of drill, in learning order (rules first, then leading, reading, replying)."""

    SCORE = "score"
    CHECKLIST = "checklist"
    LEAD = "lead"
    READ = "read"
    REPLY = "reply"
    LAST_HAND = "last-hand"


KINDS: tuple[DrillKind, ...] = tuple(DrillKind)
#: The drill generator's version. Every drill address carries it (``v=``); an address without
#: one was made by version 1, whose drills are retired (their positions are no longer built).
GENERATOR_VERSION = 2
RETIRED_VERSIONS = frozenset({1})
#: Skills of score drills: five-card combinations and the left-over combinations.
#: What last-hand drills practise: making the hand, or keeping the side's left-overs low.
LAST_HAND_SKILLS: tuple[str, ...] = ("make_hand", "keep_low")
SCORE_SKILLS: tuple[str, ...] = (
    "one_pair",
    "two_pair",
    "threes",
    "straight",
    "flush",
    "full_house",
    "fours",
    "straight_flush",
    "three_pairs",
    "nothing",
)
SCORE_TITLES = dict(COMBO_TITLES)
#: Smallest and largest hand a drill may ask about. Small hands happen late in a deal.
MIN_HAND_SIZE, MAX_HAND_SIZE = 3, 13
FILL_TRIES = 60
SIGNAL_TRIES = 8


def plain_str(key: str) -> str:
    """An answer key or skill as a plain ``str`` (a :class:`ChecklistItem` becomes its id), so
    what is stored or serialised (YAML, the database) is exactly the id string."""
    return key if type(key) is str else str(key)


class InvalidAnswerError(ConcertoError):
    """An answer that does not fit the drill: unknown option, a card not in the hand, …"""


class CardNotInHandError(InvalidAnswerError):
    """An answer playing a card the learner does not hold; ``card`` is that card."""

    def __init__(self, card: Card) -> None:
        super().__init__(Msg("error.answer.not_in_hand", card=Cards((card,))))
        self.card = card


class RetiredDrillError(ConcertoError):
    """A drill address from an earlier generator: its position is no longer built."""


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
    version: int = GENERATOR_VERSION

    def __post_init__(self) -> None:
        if self.version != GENERATOR_VERSION and self.version not in RETIRED_VERSIONS:
            raise InvalidNotationError(f"unknown drill version: {self.version!r}")
        get_convention(self.convention)
        get_rule(self.rule)
        if self.side_hand is not None and self.side_hand not in (1, 2, 3, 4):
            raise InvalidNotationError(f"side hand must be 1 to 4, not {self.side_hand!r}")
        if self.hand_size is not None and not MIN_HAND_SIZE <= self.hand_size <= MAX_HAND_SIZE:
            raise InvalidNotationError(
                f"hand size must be {MIN_HAND_SIZE} to {MAX_HAND_SIZE}, not {self.hand_size!r}"
            )
        known = set(ITEMS) | set(SCORE_SKILLS) | set(LAST_HAND_SKILLS)
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
        out["v"] = str(self.version)
        return out

    def key(self) -> str:
        """A canonical string of :meth:`to_query`, equal for equal params."""
        return "&".join(f"{k}={v}" for k, v in self.to_query().items())

    @property
    def retired(self) -> bool:
        return self.version in RETIRED_VERSIONS

    @classmethod
    def from_query(
        cls, query: Mapping[str, str] | str, defaults: Mapping[str, str] | None = None
    ) -> DrillParams:
        """Settings for a fresh drill from URL query values (``?items=fours&side_hand=2``, as a
        mapping or a query string); ``defaults`` (query values too, say a learner's convention)
        fill what the query leaves out or empty. No ``v`` means the current generator. For the
        params of an existing drill's address use :meth:`from_key`. Raises
        :class:`InvalidNotationError` naming the bad value.

        >>> DrillParams.from_query({"items": "fours"}, {"rule": "contribution"}).key()
        'rule=contribution&items=fours&v=2'
        """
        return cls._read(_query(query), defaults or {}, unversioned=GENERATOR_VERSION)

    @classmethod
    def from_key(cls, key: Mapping[str, str] | str) -> DrillParams:
        """The params of a drill's address, read as written: :meth:`key` (as an attempt or an
        assignment keeps it) or a drill link's query values. An address without ``v`` was made
        by the first generator (version 1, retired), so it never names a current drill.

        >>> DrillParams.from_key("side_hand=2&v=2") == DrillParams(side_hand=2)
        True
        >>> DrillParams.from_key("side_hand=2").retired
        True
        """
        return cls._read(_query(key), {}, unversioned=1)

    @classmethod
    def _read(
        cls, query: Mapping[str, str], defaults: Mapping[str, str], *, unversioned: int
    ) -> DrillParams:
        raw_version = (query.get("v") or "").strip()
        if raw_version:
            if not raw_version.isdigit() or len(raw_version) > 3:
                raise InvalidNotationError(f"not a drill version: {raw_version!r}")
            version = int(raw_version)
        else:
            version = unversioned

        def number(name: str) -> int | None:
            raw = (query.get(name) or "").strip() or (defaults.get(name) or "").strip()
            if not raw:
                return None
            try:
                return int(raw)
            except ValueError:
                label = name.replace("_", " ")
                raise InvalidNotationError(f"{label} is not a number: {raw!r}") from None

        items_raw = query.get("items")
        if items_raw is None:
            items_raw = defaults.get("items") or ""
        items = tuple(dict.fromkeys(i.strip() for i in items_raw.split(",") if i.strip()))
        return cls(
            convention=(
                query.get("convention") or defaults.get("convention") or DEFAULT_CONVENTION.name
            ),
            rule=query.get("rule") or defaults.get("rule") or "classic",
            side_hand=number("side_hand"),
            items=items,
            hand_size=number("hand_size"),
            own_hand=(query.get("own_hand") or "") in ("1", "on", "true", "yes"),
            version=version,
        )


def _query(query: Mapping[str, str] | str) -> Mapping[str, str]:
    return dict(parse_qsl(query)) if isinstance(query, str) else query


@dataclass(frozen=True, slots=True)
class DrillAddress:
    """What names a drill: its kind, seed and params. A drill is its address: the same
    address always rebuilds the same drill (:func:`~engine.drills.make_drill_at`).

    ``str()`` is ``kind/seed?params`` (the page's path and query, as ``/drills/`` serves it),
    and :meth:`parse` reads it back; :meth:`of` reads the parts a URL or a stored attempt keeps.
    The params are read as written (:meth:`DrillParams.from_key`): an address without ``v``
    is the first generator's, which is retired.

    >>> address = DrillAddress.parse("read/7?items=fours&v=2")
    >>> address.kind, address.seed, address.params.items
    (<DrillKind.READ: 'read'>, 7, ('fours',))
    >>> str(address)
    'read/7?items=fours&v=2'
    >>> DrillAddress.parse("read/7").params.retired
    True
    """

    kind: DrillKind
    seed: int
    params: DrillParams = field(default_factory=DrillParams)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", DrillKind(self.kind))
        except ValueError:
            raise InvalidNotationError(f"unknown drill kind: {self.kind!r}") from None
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise InvalidNotationError(f"a drill seed is a whole number from 0, not {self.seed!r}")

    def __str__(self) -> str:
        return f"{self.kind}/{self.seed}?{self.key}"

    @property
    def key(self) -> str:
        """The params as stored beside the kind and seed (``DrillParams.key()``)."""
        return self.params.key()

    @classmethod
    def of(cls, kind: str, seed: int | str, params: Mapping[str, str] | str = "") -> DrillAddress:
        """The address from its parts: a kind, a seed (a number or its digits) and the params
        as a link's query values or a stored :meth:`DrillParams.key`. The params are read
        first, so bad settings are reported before an unknown kind."""
        read = DrillParams.from_key(params)
        try:
            drill_kind = DrillKind(kind)
        except ValueError:
            raise InvalidNotationError(f"unknown drill kind: {kind!r}") from None
        if isinstance(seed, str):
            if not seed.isdigit():
                raise InvalidNotationError(f"a drill seed is a whole number from 0, not {seed!r}")
            seed = int(seed)
        return cls(drill_kind, seed, read)

    @classmethod
    def parse(cls, text: str) -> DrillAddress:
        """Read ``kind/seed?params`` (what ``str()`` writes). Raises
        :class:`InvalidNotationError` for text that names no drill."""
        path, _, query = text.strip().partition("?")
        kind, slash, seed = path.strip("/").partition("/")
        if not slash:
            raise InvalidNotationError(f"a drill address is kind/seed?params, not {text!r}")
        return cls.of(kind, seed, query)


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a multiple-choice drill: a stable ``key`` and the words shown."""

    key: str
    label: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", plain_str(self.key))


@dataclass(frozen=True, slots=True)
class Drill:
    """A position to answer. Holds what the learner may see, plus (for read and reply drills)
    the hidden leader's hand the signal came from, which is never shown."""

    kind: DrillKind
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
    opponents: tuple[tuple[Card, ...], ...] = ()
    partner_size: int | None = None
    #: How the position came about (who played which completed card): lead, read and reply
    #: drills replay it on a real deal (:meth:`Table.play_to_signal`). Rebuilt with the drill.
    table: Table | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "skill", plain_str(self.skill))

    @property
    def address(self) -> DrillAddress:
        """What names this drill everywhere: its kind, seed and params."""
        return DrillAddress(self.kind, self.seed, self.params)

    @property
    def convention(self) -> Convention:
        return get_convention(self.params.convention)

    @property
    def visible(self) -> tuple[Card, ...]:
        """Cards the learner can see: own hand and every completed hand on the table."""
        return self.hand + tuple(c for h in (*self.completed, *self.opponents) for c in h)

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)


@dataclass(frozen=True, slots=True)
class Answer:
    """A learner's answer: a lead ``(c1, c2 | None)`` or an option key.

    ``str()`` is the answer's key as stored and printed (``"6D 8D"``, ``"7H pass"``, ``"force"``,
    ``"four_sf"``, ``"12"``); :meth:`parse` reads it back for a drill kind.

    >>> str(Answer.parse("6d 8D", "lead")), str(Answer.parse("7H pass", "lead"))
    ('6D 8D', '7H pass')
    >>> Answer.parse("force", "reply").option
    'force'
    """

    #: A lead. A plain ``(c1, c2)`` tuple is accepted and stored as the equal :class:`Signal`.
    play: Signal | tuple[Card, Card | None] | None = None
    option: str | None = None

    def __post_init__(self) -> None:
        if self.play is not None and not isinstance(self.play, Signal):
            object.__setattr__(self, "play", Signal(*self.play))

    def __str__(self) -> str:
        if self.play is not None:
            c1, c2 = self.play
            return f"{c1} {c2 or 'pass'}"
        return self.option or ""

    @classmethod
    def lead(cls, c1: Card, c2: Card | None) -> Answer:
        return cls(play=Signal(c1, c2))

    @classmethod
    def parse(cls, text: str, kind: str) -> Answer:
        """Read an answer key for a drill of ``kind``: the kind's own reading
        (:meth:`~engine.drills.KindSpec.parse_key`), so ``7h 8h`` is ``7H 8H`` where cards are
        the answer. Raises :class:`InvalidNotationError` for text that is not an answer."""
        try:
            read = ANSWER_READERS[DrillKind(kind)]
        except (ValueError, KeyError):
            raise InvalidNotationError(f"unknown drill kind: {kind!r}") from None
        return read(text)


#: Each kind's reading of an answer key (:meth:`KindSpec.parse_key`), filled in as the kinds
#: register: the kinds build on this module, so it cannot import them.
ANSWER_READERS: dict[DrillKind, Callable[[str], Answer]] = {}


@dataclass(frozen=True, slots=True)
class Grade:
    """The engine's verdict on an answer, with what to show the learner.

    ``accepted`` lists every answer key graded right (for option drills, the right options),
    ``preferred`` the best of them, shown first. ``reveal`` is what was hidden until the answer
    (partner's hand in read and reply drills) and ``highlight`` the cards that make the point
    (the item in the hand, partner's combination, the scoring cards). ``split``: under the
    contribution rule, who supplied the cards the score depends on.
    """

    correct: bool
    expected: str
    explanation: str
    details: tuple[str, ...] = ()
    accepted: tuple[str, ...] = ()
    preferred: str = ""
    reveal: tuple[Card, ...] = ()
    highlight: tuple[Card, ...] = ()
    reveal_label: str = ""
    split: ContributionSplit | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepted", tuple(plain_str(k) for k in self.accepted))
        object.__setattr__(self, "preferred", plain_str(self.preferred))
