"""What a deal or a game at the table is made of: :class:`PlaySetup`, and the error an illegal
action raises (:class:`IllegalPlay`).

A setup plus the list of actions taken is the whole record of a deal or a game: the deals come
from ``seed`` (as :meth:`engine.game.GameState.new` deals them, North dealing first) and the
bots are deterministic, so the same setup and actions always rebuild the same table.

>>> setup = PlaySetup(seed=7, opponents="signal")
>>> PlaySetup.from_json(setup.to_json()) == setup
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ConcertoError, IllegalPlayError
from engine.scoring import SCORING_RULES
from engine.signals import DEFAULT_CONVENTION, get_convention
from engine.table import Seat

__all__ = [
    "FIRST_DEALER",
    "LEARNER",
    "OPPONENTS",
    "PARTNER",
    "IllegalPlay",
    "InvalidSetupError",
    "PlaySetup",
]

#: The learner's seat; North is the learner's ``signal`` bot partner.
LEARNER = Seat.S
PARTNER = Seat.N
#: The first deal is dealt by North (as ``python -m engine deal`` and ``playout`` deal it), so
#: East leads hand 1 and South leads hands 2 and 6.
FIRST_DEALER = Seat.N
#: The bots East-West may be.
OPPONENTS: tuple[str, ...] = ("greedy", "signal")
#: Seeds are whole numbers a database column and JSON carry exactly.
SEED_LIMIT = 2**63


class IllegalPlay(IllegalPlayError):
    """An action the learner may not take now (or a record that does not replay); the
    message is a reason fit for the learner."""


class InvalidSetupError(ConcertoError):
    """A setup with a bad field: unknown rule, convention or opponents, a seed out of range."""


def _text(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise InvalidSetupError(f"{key} must be text, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class PlaySetup:
    """Everything, besides the action list, that rebuilds a deal or a game.

    ``seed`` deals every card, so it stays on the server until the deal (or game) is over.
    The learner sits South with a ``signal`` bot North playing ``convention``; East-West are
    ``opponents`` bots (a ``signal`` pair plays ``opponents_convention``). ``game`` False is one
    deal; True is a game of four deals or first to 100, with the game bonus.
    """

    seed: int
    rule: str = "classic"
    convention: str = DEFAULT_CONVENTION.name
    opponents: str = "greedy"
    opponents_convention: str = DEFAULT_CONVENTION.name
    game: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise InvalidSetupError(f"seed must be a whole number, not {self.seed!r}")
        if not 0 <= self.seed < SEED_LIMIT:
            raise InvalidSetupError(f"seed must be 0 to 2**63 - 1, not {self.seed!r}")
        if self.rule not in SCORING_RULES:
            raise InvalidSetupError(
                f"unknown scoring rule: {self.rule!r} (choose {', '.join(SCORING_RULES)})"
            )
        for value in (self.convention, self.opponents_convention):
            if not isinstance(value, str):
                raise InvalidSetupError(f"a convention is named by text, not {value!r}")
            get_convention(value)  # UnknownConventionError names the known ones
        if self.opponents not in OPPONENTS:
            raise InvalidSetupError(
                f"unknown opponents: {self.opponents!r} (choose {', '.join(OPPONENTS)})"
            )
        if not isinstance(self.game, bool):
            raise InvalidSetupError(f"game must be true or false, not {self.game!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "rule": self.rule,
            "convention": self.convention,
            "opponents": self.opponents,
            "opponents_convention": self.opponents_convention,
            "game": self.game,
        }

    @classmethod
    def from_json(cls, data: object) -> PlaySetup:
        """Read :meth:`to_json`'s shape; missing fields take their defaults (``seed`` is
        required). Raises :class:`InvalidSetupError` (a ``ValueError``) naming the bad field."""
        if not isinstance(data, Mapping):
            raise InvalidSetupError(f"a setup is a JSON object, not {data!r}")
        unknown = sorted(set(data) - {f for f in cls.__dataclass_fields__})
        if unknown:
            raise InvalidSetupError(f"unknown setup field: {unknown[0]!r}")
        if "seed" not in data:
            raise InvalidSetupError("a setup needs a seed")
        game = data.get("game", False)
        return cls(
            seed=data["seed"],
            rule=_text(data, "rule", "classic"),
            convention=_text(data, "convention", DEFAULT_CONVENTION.name),
            opponents=_text(data, "opponents", "greedy"),
            opponents_convention=_text(data, "opponents_convention", DEFAULT_CONVENTION.name),
            game=game,
        )
