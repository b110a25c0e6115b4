"""A recorded answer in words, as the student saw it, and the right answer beside it.

``Attempt.answer`` holds the answer's stored form (``"AS KH"``, ``"fours"``, ``"play:AS-KH"``).
The drill is rebuilt by the engine from the attempt's address (``Attempt.address``) to find the
label of the option the student picked and to grade it again; nothing about the answer is stored
beyond the pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.drills import Drill, DrillAddress, answer_words, grade, make_drill_at, spec_for
from engine.errors import ConcertoError
from trainer.progress.models import Attempt


@dataclass(frozen=True, slots=True)
class AnswerWords:
    given: str
    #: The engine's right answer (None when the drill can no longer be rebuilt).
    expected: str | None


@lru_cache(maxsize=512)
def _drill(address: DrillAddress) -> Drill | None:
    """The drill an attempt answered, at its stored address (None when none is built there:
    an address from a retired generator, or one the engine refuses)."""
    try:
        return make_drill_at(address)
    except (ConcertoError, ValueError):
        return None


def describe(attempt: Attempt) -> AnswerWords:
    """The student's answer in words, and the right one. A lead or read made in play
    (``source="play"``) names no drill to rebuild: its words only."""
    address = attempt.address
    if address is None:  # in play: no drill to rebuild
        return AnswerWords(answer_words(attempt.kind, attempt.answer), None)
    drill = _drill(address)
    given = answer_words(attempt.kind, attempt.answer, drill)
    if drill is None:
        return AnswerWords(given, None)
    try:
        answer = spec_for(drill.kind).parse_key(attempt.answer)
        return AnswerWords(given, grade(drill, answer).expected)
    except (ConcertoError, ValueError, AssertionError):
        return AnswerWords(given, None)
