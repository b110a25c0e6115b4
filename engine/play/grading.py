"""Leads and reads made in play, graded by the drills' own answer keys.

A lead South makes at the table is put to the ``lead`` drill's answer key as a lead drill with
South's cards and side hand; a read is put to the ``read`` drill's answer key as a read drill
with partner's signal and the cards South sees (own hand and completed hands, as a read drill
with ``own_hand`` shows). No second derivation of a right answer exists here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.drills import AnswerKey, Drill, DrillKind, DrillParams, answer_key
from engine.drills.kinds.lead import lead_key
from engine.scoring import ScoringRule
from engine.signals import detect, get_convention

__all__ = ["PlayAttempt", "lead_drill", "lead_key", "read_drill"]


@dataclass(frozen=True, slots=True)
class PlayAttempt:
    """A lead or a read made in play, graded like the drill of that kind.

    ``skill`` is the checklist item id the drill would carry (a lead: the first item South's
    cards hold; a read: the signal's first reading); ``answer`` the answer key as drills store it
    (``"6D 8D"``, ``"7H pass"``, ``"four_sf"``); ``expected`` the preferred right answer.
    """

    kind: str
    skill: str
    correct: bool
    answer: str
    hand_number: int
    deal_number: int
    side_hand: int = 0
    convention: str = ""
    expected: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "skill": self.skill,
            "correct": self.correct,
            "answer": self.answer,
            "hand_number": self.hand_number,
            "deal_number": self.deal_number,
            "side_hand": self.side_hand,
            "convention": self.convention,
            "expected": self.expected,
        }


def lead_drill(hand: Sequence[Card], side_hand: int, convention: str, rule: ScoringRule) -> Drill:
    """The lead drill of South holding ``hand`` on lead to the side's ``side_hand``-th hand
    (its skill as :class:`~engine.drills.kinds.lead.LeadKind` names it)."""
    cards = tuple(hand)
    return Drill(
        kind=DrillKind.LEAD,
        seed=0,
        params=DrillParams(convention=convention, rule=rule.name, side_hand=side_hand),
        skill=detect(cards, get_convention(convention)).item,
        side_hand=side_hand,
        prompt="",
        hand=cards,
    )


def read_drill(
    *,
    own: Sequence[Card],
    completed: Sequence[Sequence[Card]],
    signal: tuple[Card, Card | None],
    side_hand: int,
    source: Sequence[Card],
    convention: str,
    rule: ScoringRule,
) -> Drill:
    """The read drill of South seeing ``own`` and the ``completed`` hands when partner, who
    held ``source`` (hidden: only the answer key's reveal uses it), signalled ``signal``."""
    return Drill(
        kind=DrillKind.READ,
        seed=0,
        params=DrillParams(
            convention=convention, rule=rule.name, side_hand=side_hand, own_hand=True
        ),
        skill="",
        side_hand=side_hand,
        prompt="",
        hand=tuple(own),
        completed=tuple(tuple(h) for h in completed),
        signal=signal,
        source=tuple(source),
        partner_size=len(source),
    )


def key_of(drill: Drill) -> AnswerKey:
    return answer_key(drill)
