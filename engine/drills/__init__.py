"""Drills: positions the engine builds from ``(kind, seed, params)`` and grades.

A drill is never stored with its answer. The same ``(kind, seed, params)`` always rebuilds the
same position, and :func:`grade` asks the rules and signal engines for the right answers each
time::

    >>> d = make_drill("checklist", 7, DrillParams(items=("fours",)))
    >>> d.skill
    'fours'
    >>> grade(d, parse_answer(d, {"option": "fours"})).correct
    True

Each kind is one class in :mod:`engine.drills.kinds` (building, options, reading and checking
an answer, the answer key, the words, its level and what teaches it; ``docs/drill-kinds.md``):

- ``score`` — five played cards or six left-overs: what do they score (multiple choice);
- ``checklist`` — name the first checklist item a hand holds (multiple choice);
- ``lead`` — the learner holds a hand and leads a signal: answer ``"c1 c2"`` or ``"c1 pass"``;
  every play the convention allows is accepted, the preferred one shown first;
- ``read`` — partner's signal is shown: pick what partner holds (the first reading after
  pruning by what the reader sees; no other reading of the signal is offered as wrong);
- ``reply`` — the learner's hand and partner's signal: the options are legal moves at that
  moment of a real deal (a card, two cards in turn, ``pass``, ``force``).

A drill is named by its :class:`DrillAddress` (kind, seed, params; ``str()`` is
``kind/seed?params`` and :meth:`DrillAddress.parse` reads it back), and :func:`make_drill_at`
builds the drill at an address.

Positions are constructed: the item's cards are placed first and the rest of the hand filled at
random, keeping that item first; hand sizes are those the side hand allows (docs/rules.md), and the
completed hands on the table come from a deal played up to that moment
(:mod:`engine.drills.situation`).
"""

from engine.drills.build import make_drill, make_drill_at, score_points, skills_for
from engine.drills.grading import answer_key, answer_words, grade, parse_answer, skill_title
from engine.drills.kinds import REGISTRY, AnswerKey, KindSpec, Topic, spec_for
from engine.drills.model import (
    GENERATOR_VERSION,
    KINDS,
    MAX_HAND_SIZE,
    MIN_HAND_SIZE,
    SCORE_SKILLS,
    SCORE_TITLES,
    Answer,
    CardNotInHandError,
    Drill,
    DrillAddress,
    DrillKind,
    DrillParams,
    Grade,
    InvalidAnswerError,
    Option,
    RetiredDrillError,
)
from engine.drills.situation import LEADER_SIZES, PARTNER_SIZES, Table

#: Each kind's title, description and level (1 = start here), from its class.
KIND_TITLES: dict[str, str] = {k: REGISTRY[k].title for k in KINDS}
KIND_DESCRIPTIONS: dict[str, str] = {k: REGISTRY[k].description for k in KINDS}
KIND_LEVELS: dict[str, int] = {k: REGISTRY[k].level for k in KINDS}

__all__ = [
    "GENERATOR_VERSION",
    "KINDS",
    "KIND_DESCRIPTIONS",
    "KIND_LEVELS",
    "KIND_TITLES",
    "LEADER_SIZES",
    "MAX_HAND_SIZE",
    "MIN_HAND_SIZE",
    "PARTNER_SIZES",
    "REGISTRY",
    "SCORE_SKILLS",
    "SCORE_TITLES",
    "Answer",
    "AnswerKey",
    "CardNotInHandError",
    "Drill",
    "DrillAddress",
    "DrillKind",
    "DrillParams",
    "Grade",
    "InvalidAnswerError",
    "KindSpec",
    "Option",
    "RetiredDrillError",
    "Table",
    "Topic",
    "answer_key",
    "answer_words",
    "grade",
    "make_drill",
    "make_drill_at",
    "parse_answer",
    "score_points",
    "skill_title",
    "skills_for",
    "spec_for",
]
