"""Reading a learner's answer and grading it with the engine, through the kind's class."""

from __future__ import annotations

from collections.abc import Mapping

from engine.drills.kinds import AnswerKey, spec_for
from engine.drills.model import Answer, Drill, Grade
from engine.errors import InvalidNotationError

__all__ = ["answer_key", "answer_words", "grade", "parse_answer", "skill_title"]


def parse_answer(drill: Drill, data: Mapping[str, str]) -> Answer:
    """Read a submitted answer, checking it fits the drill.

    Lead drills take ``c1`` and ``c2`` (a card or ``pass``), both from the hand; the others take
    ``option``, one of the drill's option keys. Raises :class:`InvalidAnswerError` naming the
    problem, or :class:`InvalidNotationError` for an unknown card.
    """
    return spec_for(drill.kind).parse(drill, data)


def answer_key(drill: Drill) -> AnswerKey:
    """Every right answer to ``drill`` (preferred first) and why, derived from the engine."""
    return spec_for(drill.kind).answer_key(drill)


def grade(drill: Drill, answer: Answer) -> Grade:
    """Ask the engine for the right answers and compare. The explanation says why."""
    return spec_for(drill.kind).grade(drill, answer)


def skill_title(kind: str, skill: str) -> str:
    """A skill's name in drills of ``kind``: a combination's in score drills, else a checklist
    item's. Unknown text comes back as is."""
    try:
        return spec_for(kind).skill_title(skill)
    except InvalidNotationError:  # a kind the engine does not know
        return skill


def answer_words(kind: str, answer: str, drill: Drill | None = None) -> str:
    """A stored answer (``Attempt.answer``) in words: ``"4S 8S"`` → ``"4♠ then 8♠"``,
    ``"four_sf"`` → ``"Four to a straight flush"`` (with ``drill``, the label of its option).
    Unknown text, or a kind the engine does not know, comes back as is."""
    try:
        return spec_for(kind).words(drill, answer)
    except (ValueError, KeyError):  # not an answer this kind knows
        return answer
