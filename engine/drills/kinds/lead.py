"""Lead drills: the learner holds the lead and plays a two-card signal (or a card and pass)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace

from engine.cards import Card, sort_cards
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, held, register
from engine.drills.kinds.common import fits, leader_position
from engine.drills.model import Answer, Drill, DrillKind, DrillParams, Grade, InvalidAnswerError
from engine.drills.words import ordinal, play_words
from engine.errors import InvalidNotationError
from engine.messages import Cards, Join, Msg, Term, Text
from engine.signals import (
    ITEMS,
    Convention,
    decode,
    detect,
    encode,
    get_convention,
)


def lead_key(c1: Card, c2: Card | None) -> str:
    return f"{c1} {c2 or 'pass'}"


@register
class LeadKind(KindSpec):
    """The learner leads: the answer is a play, ``c1 c2`` or ``c1 pass``, given card by card
    (the first card alone is a step, shown back with the second choice to make)."""

    kind = DrillKind.LEAD
    title = Msg("kind.lead.title")
    description = Msg("kind.lead.description")
    level = 2
    topic = Topic.SIGNALS

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return ITEMS

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        return fits(skill, params, convention, 0)

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        pos = leader_position(rng, params, skill)
        return Drill(
            kind=self.kind,
            seed=seed,
            params=params,
            skill=detect(pos.leader, get_convention(params.convention)).item,
            side_hand=pos.side_hand,
            prompt=Msg("drill.lead.prompt", nth=ordinal(pos.side_hand)),
            hand=pos.leader,
            completed=pos.table.completed,
            opponents=pos.table.opponents,
            partner_size=len(pos.partner),
            table=pos.table,
        )

    def parse_key(self, text: str) -> Answer:
        words = text.split()
        if len(words) != 2:
            raise InvalidNotationError(f"a lead is two cards, or a card and pass, not {text!r}")
        c1 = Card.parse(words[0])
        c2 = None if words[1].lower() == "pass" else Card.parse(words[1])
        if c1 is c2:
            raise InvalidNotationError(f"{c1} cannot be played twice")
        return Answer.lead(c1, c2)

    def check(self, drill: Drill, answer: Answer) -> Answer:
        if answer.play is None:
            raise InvalidAnswerError(Msg("error.answer.lead_two_cards"))
        c1, c2 = answer.play
        for c in (c1, c2):
            if c is not None:
                held(drill, c)
        if c1 is c2:
            raise InvalidAnswerError(Msg("error.answer.played_twice", card=Cards((c1,))))
        return answer

    def first_step(self, drill: Drill, data: Mapping[str, str]) -> Card | None:
        raw1, raw2 = (data.get("c1") or "").strip(), (data.get("c2") or "").strip()
        return held(drill, Card.parse(raw1)) if raw1 and not raw2 else None

    def pick_answer(
        self, drill: Drill, rng: random.Random, where: Callable[[Answer], bool]
    ) -> Answer | None:
        """Random plays from the hand (a card, then another or pass) until ``where`` accepts
        one: 200 tries."""
        hand = list(drill.hand)
        for _ in range(200):
            c1 = rng.choice(hand)
            c2 = rng.choice([None, *[c for c in hand if c != c1]])
            answer = Answer(play=(c1, c2))
            if where(answer):
                return answer
        return None

    def parse_text(self, drill: Drill, text: str) -> Answer:
        return self.check(drill, self.parse_key(text))

    def parse(self, drill: Drill, data: Mapping[str, str]) -> Answer:
        raw1, raw2 = (data.get("c1") or "").strip(), (data.get("c2") or "").strip()
        if not raw1 or not raw2:
            raise InvalidAnswerError(Msg("error.answer.lead_two_cards"))
        c1 = Card.parse(raw1)
        c2 = None if raw2.lower() == "pass" else Card.parse(raw2)
        return self.check(drill, Answer(play=(c1, c2)))

    def answer_key(self, drill: Drill) -> AnswerKey:
        convention = drill.convention
        enc = encode(drill.hand, drill.side_hand, convention)
        shape = Msg("shape.in_brackets", shape=Text(enc.shape)) if enc.shape else Text("")
        if enc.played_out:
            line = Msg(
                "drill.lead.play_out",
                item=Term("item_lower", str(enc.item)),
                cards=Cards(tuple(sort_cards(enc.cards))),
                convention=Text(convention.title),
                play=play_words(enc.plays[0]),
            )
        elif enc.plays[0][1] is None:  # a card and pass: "Lead K♣ and pass."
            line = Msg(
                "drill.lead.first_item.pass",
                item=Term("item_lower", str(enc.item)),
                shape=shape,
                cards=Cards(tuple(sort_cards(enc.cards))),
                c1=Cards((enc.plays[0][0],)),
            )
        else:
            line = Msg(
                "drill.lead.first_item",
                item=Term("item_lower", str(enc.item)),
                shape=shape,
                cards=Cards(tuple(sort_cards(enc.cards))),
                play=play_words(enc.plays[0]),
            )
        details = []
        if len(enc.plays) > 1:
            details.append(
                Msg(
                    "drill.lead.every",
                    plays=Join(tuple(play_words(p) for p in enc.plays), "list.comma"),
                )
            )
        return AnswerKey(
            accepted=tuple(lead_key(*p) for p in enc.plays),
            expected=play_words(enc.plays[0]),
            explanation=line,
            details=tuple(details),
            highlight=enc.cards,
        )

    def grade(self, drill: Drill, answer: Answer) -> Grade:
        grade = super().grade(drill, answer)
        assert answer.play is not None
        c1, c2 = answer.play
        readings = decode(c1, c2, drill.side_hand, drill.convention)
        heard = readings[0].text if readings else Msg("drill.lead.heard_nothing")
        line = Msg("drill.lead.heard", play=play_words((c1, c2)), reading=heard)
        return replace(grade, details=(line, *grade.details))

    def words(self, drill: Drill | None, answer: str) -> str:
        parsed = self.parse_key(answer)
        assert parsed.play is not None
        return play_words(parsed.play)
