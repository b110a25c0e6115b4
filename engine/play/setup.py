"""What a deal or a game at the table is made of: :class:`PlaySetup`, and the error an illegal
action raises (:class:`IllegalPlay`).

A setup plus the list of actions taken is the whole record of a deal or a game: the deals come
from ``seed`` (as :meth:`engine.game.GameState.new` deals them, North dealing first) and the
bots are deterministic, so the same setup and actions always rebuild the same table.

>>> setup = PlaySetup(seed=7, rule=get_rule("contribution"), opponents="signal")
>>> PlaySetup.from_json(setup.to_json()) == setup
True
>>> setup.to_json()["rule"]
'contribution'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.bots.signal import STANDARD, STRENGTHS
from engine.cards import Card, parse_cards
from engine.errors import ConcertoError, IllegalPlayError, WrongTypeError
from engine.messages import Join, Msg, Param, Text
from engine.scoring import CLASSIC, SCORING_RULES, ScoringRule, get_rule
from engine.seats import SEATS, Seat
from engine.signals import DEFAULT_CONVENTION, get_convention

__all__ = [
    "FIRST_DEALER",
    "LEARNER",
    "OPPONENTS",
    "PARTNER",
    "PARTNERS",
    "IllegalPlay",
    "InvalidSetupError",
    "PlaySetup",
    "reason",
]

#: The learner's seat; North is the learner's ``signal`` bot partner.
LEARNER = Seat.S
PARTNER = Seat.N
#: The first deal is dealt by North (as ``python -m engine deal`` and ``playout`` deal it), so
#: East leads hand 1 and South leads hands 2 and 6.
FIRST_DEALER = Seat.N
#: The bots East-West may be.
OPPONENTS: tuple[str, ...] = ("greedy", "signal")
#: The partner's strengths (:data:`engine.bots.signal.STRENGTHS`): ``standard``, the default of
#: a setup (records from before the setting), ``beginner``, the weaker partner, or ``strong``,
#: which reads partner's signals by the odds (the start form's choice by default).
PARTNERS: tuple[str, ...] = STRENGTHS
#: Seeds are whole numbers a database column and JSON carry exactly.
SEED_LIMIT = 2**63


class IllegalPlay(IllegalPlayError):
    """An action the learner may not take now (or a record that does not replay); the
    message is a reason fit for the learner."""


class InvalidSetupError(ConcertoError):
    """A setup with a bad field: unknown rule, convention or opponents, a seed out of range."""


def reason(exc: ConcertoError) -> Param:
    """What ``exc`` says, as a parameter of another message (``action 3 (…): <reason>``):
    its message, or its plain text as it is."""
    return exc.message if isinstance(exc.message, Msg) else Text(str(exc))


def _text(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise InvalidSetupError(
            Msg("error.setup.not_text", field=Text(key), value=Text(repr(value)))
        )
    return value


def _rule(name: str) -> ScoringRule:
    try:
        return get_rule(name)
    except ConcertoError as exc:
        raise InvalidSetupError(exc.message) from None


@dataclass(frozen=True, slots=True)
class PlaySetup:
    """Everything, besides the action list, that rebuilds a deal or a game.

    ``seed`` deals every card, so it stays on the server until the deal (or game) is over.
    The learner sits South with a ``signal`` bot North playing ``convention``; East-West are
    ``opponents`` bots (a ``signal`` pair plays ``opponents_convention``). ``game`` False is one
    deal; True is a game of four deals or first to 100, with the game bonus. ``partner`` is
    North's strength (:data:`PARTNERS`; a record without it, from before the setting, plays on
    with the standard partner). ``rule`` is a :class:`~engine.scoring.ScoringRule` (its name is
    read at the edge: :meth:`from_json`, a form's ``get_rule``).
    """

    seed: int
    rule: ScoringRule = CLASSIC
    convention: str = DEFAULT_CONVENTION.name
    opponents: str = "greedy"
    opponents_convention: str = DEFAULT_CONVENTION.name
    game: bool = False
    partner: str = STANDARD
    #: East-West's strength when they are ``signal`` bots (:data:`PARTNERS`; standard in a
    #: record from before the setting).
    opponents_strength: str = STANDARD
    #: Who deals the first deal (a duplicate session's board names its dealer).
    dealer: Seat = FIRST_DEALER
    #: The first deal's hands, N, E, S, W, when a teacher entered the board by hand (the seed
    #: then deals only the later deals of a game); None: dealt from the seed.
    hands: tuple[tuple[Card, ...], ...] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise InvalidSetupError(Msg("error.setup.seed_not_number", value=Text(repr(self.seed))))
        if not 0 <= self.seed < SEED_LIMIT:
            raise InvalidSetupError(Msg("error.setup.seed_range", value=Text(repr(self.seed))))
        if not isinstance(self.rule, ScoringRule):
            raise WrongTypeError(
                f"PlaySetup.rule is a ScoringRule (get_rule reads a name), not {self.rule!r}"
            )
        if SCORING_RULES.get(self.rule.name) != self.rule:
            _rule(self.rule.name)  # a rule of no name the setup's JSON could carry
        for value in (self.convention, self.opponents_convention):
            if not isinstance(value, str):
                raise InvalidSetupError(
                    Msg("error.setup.convention_not_text", value=Text(repr(value)))
                )
            get_convention(value)  # UnknownConventionError names the known ones
        _one_of(self.opponents, OPPONENTS, "error.setup.unknown_opponents")
        _one_of(self.partner, PARTNERS, "error.setup.unknown_partner")
        _one_of(self.opponents_strength, PARTNERS, "error.setup.unknown_opponents_strength")
        if not isinstance(self.game, bool):
            raise InvalidSetupError(Msg("error.setup.game_not_bool", value=Text(repr(self.game))))
        if not isinstance(self.dealer, Seat):
            raise InvalidSetupError(
                Msg("error.setup.unknown_dealer", value=Text(repr(self.dealer)))
            )
        if self.hands is not None:
            _check_hands(self.hands)

    def first_hands(self) -> dict[Seat, tuple[Card, ...]] | None:
        """The hands of a board entered by hand, by seat (None: dealt from the seed)."""
        if self.hands is None:
            return None
        return dict(zip(SEATS, self.hands, strict=True))

    def to_json(self) -> dict[str, Any]:
        """The setup as JSON; ``partner``, ``opponents_strength`` and ``dealer`` only when not
        the default ones (so the records of earlier deals read the same)."""
        return (
            {
                "seed": self.seed,
                "rule": self.rule.name,
                "convention": self.convention,
                "opponents": self.opponents,
                "opponents_convention": self.opponents_convention,
                "game": self.game,
            }
            | ({} if self.partner == STANDARD else {"partner": self.partner})
            | (
                {}
                if self.opponents_strength == STANDARD
                else {"opponents_strength": self.opponents_strength}
            )
            | ({} if self.dealer is FIRST_DEALER else {"dealer": str(self.dealer)})
            | (
                {}
                if self.hands is None
                else {
                    "hands": {
                        str(seat): [str(c) for c in cards]
                        for seat, cards in zip(SEATS, self.hands, strict=True)
                    }
                }
            )
        )

    @classmethod
    def from_json(cls, data: object) -> PlaySetup:
        """Read :meth:`to_json`'s shape; missing fields take their defaults (``seed`` is
        required). Raises :class:`InvalidSetupError` (a ``ValueError``) naming the bad field."""
        if not isinstance(data, Mapping):
            raise InvalidSetupError(Msg("error.setup.not_an_object", value=Text(repr(data))))
        unknown = sorted(set(data) - {f for f in cls.__dataclass_fields__})
        if unknown:
            raise InvalidSetupError(Msg("error.setup.unknown_field", field=Text(repr(unknown[0]))))
        if "seed" not in data:
            raise InvalidSetupError(Msg("error.setup.no_seed"))
        game = data.get("game", False)
        return cls(
            seed=data["seed"],
            rule=_rule(_text(data, "rule", "classic")),
            convention=_text(data, "convention", DEFAULT_CONVENTION.name),
            opponents=_text(data, "opponents", "greedy"),
            opponents_convention=_text(data, "opponents_convention", DEFAULT_CONVENTION.name),
            game=game,
            partner=_text(data, "partner", STANDARD),
            opponents_strength=_text(data, "opponents_strength", STANDARD),
            dealer=_dealer(data.get("dealer", str(FIRST_DEALER))),
            hands=_hands(data.get("hands")),
        )


def _hands(value: object) -> tuple[tuple[Card, ...], ...] | None:
    """A setup's ``hands``: ``{"N": [13 cards], "E": …, "S": …, "W": …}``, or absent."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {str(s) for s in SEATS}:
        raise InvalidSetupError(Msg("error.setup.hands", reason=Text("one list for each seat")))
    try:
        return tuple(parse_cards(value[str(seat)]) for seat in SEATS)
    except ConcertoError as exc:
        raise InvalidSetupError(Msg("error.setup.hands", reason=Text(str(exc)))) from None


def _check_hands(hands: object) -> None:
    """Four hands of 13 cards, 52 different cards in all."""
    if not isinstance(hands, tuple) or len(hands) != 4:
        raise InvalidSetupError(Msg("error.setup.hands", reason=Text("four hands")))
    every = [c for hand in hands for c in hand]
    if any(len(hand) != 13 for hand in hands):
        raise InvalidSetupError(Msg("error.setup.hands", reason=Text("13 cards in each hand")))
    if not all(isinstance(c, Card) for c in every) or len(set(every)) != 52:
        raise InvalidSetupError(Msg("error.setup.hands", reason=Text("no card twice")))


def _dealer(value: object) -> Seat:
    """A setup's dealer: ``N``, ``E``, ``S`` or ``W``."""
    if isinstance(value, str) and value.upper() in {str(seat) for seat in Seat}:
        return Seat.parse(value)
    raise InvalidSetupError(Msg("error.setup.unknown_dealer", value=Text(repr(value))))


def _one_of(value: object, choices: tuple[str, ...], message: str) -> None:
    """Refuse ``value`` with ``message`` (naming the choices) unless it is one of them."""
    if value not in choices:
        raise InvalidSetupError(
            Msg(message, value=Text(repr(value)), choices=Join(tuple(Text(c) for c in choices)))
        )
