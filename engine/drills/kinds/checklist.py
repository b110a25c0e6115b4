"""Checklist drills: name the first item of the leader's checklist a hand holds."""

from __future__ import annotations

import random

from engine.cards import sort_cards
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, register
from engine.drills.kinds.common import fits, leader_position
from engine.drills.model import Drill, DrillKind, DrillParams, Option
from engine.drills.words import shaped, shuffled, term
from engine.messages import Cards, Msg, Text
from engine.signals import ITEMS, Convention, detect, get_convention


@register
class ChecklistKind(KindSpec):
    kind = DrillKind.CHECKLIST
    title = Msg("kind.checklist.title")
    description = Msg("kind.checklist.description")
    level = 1
    topic = Topic.CHECKLIST
    lesson = ("the-leaders-checklist", "the-list")

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return ITEMS

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        return fits(skill, params, convention, 0)

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        convention = get_convention(params.convention)
        pos = leader_position(rng, params, skill)
        found = detect(pos.leader, convention).item
        index = ITEMS.index(found)
        near = [i for i in ITEMS if i != found]
        near.sort(key=lambda i: (abs(ITEMS.index(i) - index), rng.random()))
        options = shuffled([Option(i, term("item", i)) for i in [found, *near[:3]]], rng)
        return Drill(
            kind=self.kind,
            seed=seed,
            params=params,
            skill=found,
            side_hand=pos.side_hand,
            prompt=Msg("drill.checklist.prompt"),
            hand=pos.leader,
            options=options,
        )

    def words(self, drill: Drill | None, answer: str) -> str:
        item, _, shape = answer.partition(":")  # item:shape from the first generator
        return shaped("item", item, shape)

    def answer_key(self, drill: Drill) -> AnswerKey:
        found = detect(drill.hand, drill.convention)
        shape = Msg("shape.in_brackets", shape=Text(found.shape)) if found.shape else Text("")
        return AnswerKey(
            accepted=(found.item,),
            expected=term("item", found.item),
            explanation=Msg(
                "drill.checklist.explanation",
                item=term("item", found.item),
                shape=shape,
                cards=Cards(tuple(sort_cards(found.cards))),
            ),
            highlight=found.cards,
        )
