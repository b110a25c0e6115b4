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

from engine.drills.build import make_drill, skills_for
from engine.drills.grading import grade, parse_answer
from engine.drills.model import (
    DEFAULT_HAND_SIZES,
    KIND_DESCRIPTIONS,
    KIND_TITLES,
    KINDS,
    MAX_HAND_SIZE,
    MIN_HAND_SIZE,
    SCORE_SKILLS,
    Answer,
    Drill,
    DrillParams,
    Grade,
    InvalidAnswerError,
    Option,
)
from engine.drills.words import answer_words, skill_title

__all__ = [
    "DEFAULT_HAND_SIZES",
    "KINDS",
    "KIND_DESCRIPTIONS",
    "KIND_TITLES",
    "MAX_HAND_SIZE",
    "MIN_HAND_SIZE",
    "SCORE_SKILLS",
    "Answer",
    "Drill",
    "DrillParams",
    "Grade",
    "InvalidAnswerError",
    "Option",
    "answer_words",
    "grade",
    "make_drill",
    "parse_answer",
    "skill_title",
    "skills_for",
]
