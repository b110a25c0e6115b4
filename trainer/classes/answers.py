"""A recorded answer in words, as the student saw it, and the right answer beside it.

``Attempt.answer`` holds the answer's stored form (``"AS KH"``, ``"fours"``, ``"play:AS-KH"``).
The drill is rebuilt by the engine from ``(kind, seed, params)`` to find the label of the option
the student picked and to grade it again; nothing about the answer is stored beyond the pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl

from engine.drills import Answer, Drill, DrillParams, answer_words, grade, make_drill
from engine.errors import ConcertoError
from engine.signals import ITEM_TITLES
from trainer.progress.models import SOURCE_PLAY, Attempt


@dataclass(frozen=True, slots=True)
class AnswerWords:
    given: str
    #: The engine's right answer (None when the drill can no longer be rebuilt).
    expected: str | None


@lru_cache(maxsize=512)
def _drill(kind: str, seed: int, params: str) -> Drill | None:
    try:
        return make_drill(kind, seed, DrillParams.from_query(dict(parse_qsl(params))))
    except (ConcertoError, ValueError):
        return None


def describe(attempt: Attempt) -> AnswerWords:
    """The student's answer in words, and the right one. A lead or read made in play
    (``source="play"``) names no drill to rebuild: its words only."""
    if attempt.source == SOURCE_PLAY:
        if attempt.kind == "lead":
            try:
                return AnswerWords(answer_words("lead", attempt.answer), None)
            except ConcertoError:
                return AnswerWords(attempt.answer, None)
        return AnswerWords(ITEM_TITLES.get(attempt.answer, attempt.answer), None)
    drill = _drill(attempt.kind, attempt.seed, attempt.params)
    if attempt.kind == "lead":
        try:
            answer: Answer | None = Answer.parse(attempt.answer, "lead")
        except ConcertoError:
            answer = None
        given = answer_words("lead", attempt.answer) if answer else attempt.answer
    else:
        answer = Answer(option=attempt.answer)
        labels = {o.key: o.label for o in drill.options} if drill else {}
        given = labels.get(attempt.answer, attempt.answer)
    if drill is None or answer is None:
        return AnswerWords(given, None)
    try:
        return AnswerWords(given, grade(drill, answer).expected)
    except (ConcertoError, ValueError, AssertionError):
        return AnswerWords(given, None)
