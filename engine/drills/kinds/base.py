"""What every drill kind provides, and the registry that finds a kind's class.

A kind is one class: it builds a drill from ``(seed, params)``, reads and checks an answer,
and derives the answer key (every accepted answer, the preferred one, the words explaining
why) from the rules and signal engines. :meth:`KindSpec.grade` compares an answer with that
key, so a drill is never graded against anything written beside it. The class also says what
the trainer needs to know about the kind — its level, what it practises and the lesson section
teaching it — so nothing outside :mod:`engine.drills.kinds` branches on a kind's name
(``docs/drill-kinds.md``).
"""

from __future__ import annotations

import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card
from engine.drills.model import (
    ANSWER_READERS,
    Answer,
    CardNotInHandError,
    Drill,
    DrillKind,
    DrillParams,
    Grade,
    InvalidAnswerError,
    plain_str,
)
from engine.drills.words import term
from engine.errors import InvalidNotationError
from engine.messages import Msg, Text
from engine.scoring import ContributionSplit
from engine.signals import ITEM_TITLES, Convention

__all__ = ["REGISTRY", "AnswerKey", "KindSpec", "Topic", "held", "register", "spec_for"]


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


class Topic(enum.StrEnum):
    """What a kind's drills practise, and so what teaches their skills (the feedback's links
    to a lesson and to the convention card)."""

    #: The scoring rules; the skills are combinations.
    SCORING = "scoring"
    #: The leader's checklist; the skills are its items.
    CHECKLIST = "checklist"
    #: The signals of the convention card; the skills are the items signalled.
    SIGNALS = "signals"


class KindSpec(ABC):
    """One drill kind. Subclasses set ``kind``, ``title``, ``description``, ``level`` and
    ``topic``, and where it differs from the defaults ``lesson`` and ``has_side_hand``."""

    kind: ClassVar[DrillKind]
    title: ClassVar[str]
    description: ClassVar[str]
    #: How hard the kind is for a newcomer: 1 (start here), 2 or 3.
    level: ClassVar[int]
    #: What the kind's drills practise.
    topic: ClassVar[Topic]
    #: The lesson section teaching the kind as a whole: ``(lesson slug, section anchor)``.
    lesson: ClassVar[tuple[str, str] | None] = None
    #: Whether a drill of this kind is a moment of a deal, in one of the four side hands.
    has_side_hand: ClassVar[bool] = True

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

    def skill_title(self, skill: str) -> str:
        """A skill's name (a checklist item's, by default); unknown skills as they are."""
        return term("item", skill) if skill in ITEM_TITLES else skill

    def lesson_for(self, skill: str) -> tuple[str, str] | None:
        """The lesson section teaching ``skill`` in this kind's drills (by default the kind's
        own); a :attr:`Topic.SIGNALS` kind's skill is also taught by its item's section."""
        return self.lesson

    def leader_size(self, drill: Drill) -> int | None:
        """How many cards the leader of the drill's position holds (None: no leader)."""
        return len(drill.hand)

    def parse_key(self, text: str) -> Answer:
        """Read an answer key (``str(Answer)``, as stored): an option drill's option key.
        Raises :class:`InvalidNotationError` for text that is not an answer."""
        if not text.split():
            raise InvalidNotationError("an answer cannot be empty")
        return Answer(option=text.strip())

    def check(self, drill: Drill, answer: Answer) -> Answer:
        """``answer`` if it fits ``drill`` (an option drill: one of its option keys), else
        :class:`InvalidAnswerError` naming the problem."""
        if answer.option is None or str(answer) not in drill.option_keys:
            raise InvalidAnswerError(
                Msg("error.answer.not_an_option", answer=Text(repr(str(answer))))
            )
        return answer

    def first_step(self, drill: Drill, data: Mapping[str, str]) -> Card | None:
        """The first step of an answer given in two (say, a lead's first card alone), or
        None when ``data`` is a whole answer. Option drills are answered in one step."""
        return None

    def pick_answer(
        self, drill: Drill, rng: random.Random, where: Callable[[Answer], bool]
    ) -> Answer | None:
        """A random answer a learner could give to ``drill`` among those ``where`` accepts
        (say, the ones graded wrong), or None if there is none: here one of its options."""
        fitting = [a for a in (Answer(option=o.key) for o in drill.options) if where(a)]
        return rng.choice(fitting) if fitting else None

    def parse_text(self, drill: Drill, text: str) -> Answer:
        """An answer typed as its key (``python -m engine drill … --answer``), checked against
        ``drill``: for an option drill, as if that option had been submitted."""
        return self.parse(drill, {"option": text})

    def parse(self, drill: Drill, data: Mapping[str, str]) -> Answer:
        """A submitted answer (form fields) read and checked against ``drill``: an option
        drill's ``option``, one of the drill's option keys."""
        raw = (data.get("option") or "").strip()
        if not raw:
            raise InvalidAnswerError(Msg("error.answer.choose_option"))
        try:
            return self.check(drill, self.parse_key(raw))
        except (InvalidNotationError, InvalidAnswerError):
            raise InvalidAnswerError(
                Msg("error.answer.not_an_option", answer=Text(repr(raw)))
            ) from None

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


def held(drill: Drill, card: Card) -> Card:
    """``card`` if the learner holds it in ``drill``, else :class:`CardNotInHandError`."""
    if card not in drill.hand:
        raise CardNotInHandError(card)
    return card


REGISTRY: dict[DrillKind, KindSpec] = {}


def register(cls: type[KindSpec]) -> type[KindSpec]:
    """Class decorator: make a kind available to :func:`spec_for`."""
    for name in ("kind", "title", "description", "level", "topic"):
        if not hasattr(cls, name):
            raise TypeError(f"drill kind {cls.__name__} does not set {name}")
    spec = REGISTRY[cls.kind] = cls()
    ANSWER_READERS[cls.kind] = spec.parse_key
    return cls


def spec_for(kind: str) -> KindSpec:
    """The class of drill ``kind``; :class:`InvalidNotationError` for an unknown kind."""
    try:
        return REGISTRY[DrillKind(kind)]
    except ValueError:
        raise InvalidNotationError(f"unknown drill kind: {kind!r}") from None
