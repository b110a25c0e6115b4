"""What every drill kind provides, and the registry that finds a kind's class.

A kind is one class: it builds a drill from ``(seed, params)``, parses an answer, and derives
the answer key (every accepted answer, the preferred one, the words explaining why) from the
rules and signal engines. :meth:`KindSpec.grade` compares an answer with that key, so a drill
is never graded against anything written beside it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card
from engine.drills.model import (
    Answer,
    Drill,
    DrillKind,
    DrillParams,
    Grade,
    InvalidAnswerError,
    plain_str,
)
from engine.errors import InvalidNotationError
from engine.scoring import ContributionSplit
from engine.signals import Convention

__all__ = ["REGISTRY", "AnswerKey", "KindSpec", "register", "spec_for"]


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """Everything right about a drill: the accepted answer keys (preferred first), the words
    for the preferred one, why, further lines, and what the answer reveals."""

    accepted: tuple[str, ...]
    expected: str
    explanation: str
    details: tuple[str, ...] = ()
    reveal: tuple[Card, ...] = ()
    highlight: tuple[Card, ...] = ()
    reveal_label: str = ""
    split: ContributionSplit | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepted", tuple(plain_str(k) for k in self.accepted))

    @property
    def preferred(self) -> str:
        return self.accepted[0]


class KindSpec(ABC):
    """One drill kind. Subclasses set ``kind``, ``title`` and ``description``."""

    kind: ClassVar[DrillKind]
    title: ClassVar[str]
    description: ClassVar[str]

    @abstractmethod
    def skills(self, convention: Convention) -> tuple[str, ...]:
        """The skills this kind drills (checklist items, or combinations for score drills)."""

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        """Whether a drill of ``skill`` can be built with ``params`` (side hand, hand size)."""
        return True

    @abstractmethod
    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        """The drill for ``seed`` targeting ``skill``, drawn with ``rng``."""

    @abstractmethod
    def answer_key(self, drill: Drill) -> AnswerKey:
        """Every right answer, derived from the engine."""

    def parse(self, drill: Drill, data: Mapping[str, str]) -> Answer:
        """An option drill's answer: one of the drill's option keys."""
        raw = (data.get("option") or "").strip()
        if not raw:
            raise InvalidAnswerError("choose one of the options")
        try:
            answer = Answer.parse(raw, self.kind)
        except InvalidNotationError:
            raise InvalidAnswerError(f"not one of this drill's options: {raw!r}") from None
        if str(answer) not in drill.option_keys:
            raise InvalidAnswerError(f"not one of this drill's options: {raw!r}")
        return answer

    def grade(self, drill: Drill, answer: Answer) -> Grade:
        key = self.answer_key(drill)
        return Grade(
            correct=str(answer) in key.accepted,
            expected=key.expected,
            explanation=key.explanation,
            details=key.details,
            accepted=key.accepted,
            preferred=key.preferred,
            reveal=key.reveal,
            highlight=key.highlight,
            reveal_label=key.reveal_label,
            split=key.split,
        )

    def words(self, drill: Drill | None, answer: str) -> str:
        """An answer key in words (the option's label when the drill is known)."""
        if drill is not None:
            for option in drill.options:
                if option.key == answer:
                    return option.label
        return answer


REGISTRY: dict[DrillKind, KindSpec] = {}


def register(cls: type[KindSpec]) -> type[KindSpec]:
    """Class decorator: make a kind available to :func:`spec_for`."""
    REGISTRY[cls.kind] = cls()
    return cls


def spec_for(kind: str) -> KindSpec:
    """The class of drill ``kind``; :class:`InvalidNotationError` for an unknown kind."""
    try:
        return REGISTRY[DrillKind(kind)]
    except ValueError:
        raise InvalidNotationError(f"unknown drill kind: {kind!r}") from None
