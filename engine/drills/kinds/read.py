"""Read drills: partner has led two cards (or one and a pass); say what partner holds."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from engine.cards import DECK, Card, sort_cards
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, register
from engine.drills.kinds.common import fits, signal_position
from engine.drills.model import Drill, DrillKind, DrillParams, Option
from engine.drills.words import shaped, shuffled, signal_words, term
from engine.messages import Join, Msg, Param, Term
from engine.signals import (
    ITEMS,
    Convention,
    Reading,
    decode,
    encode,
    get_convention,
)
from engine.signals.checklist import Instance, find_instances, hand_mask
from engine.signals.encoder import Play, cached_plays
from engine.signals.witness import IMPOSSIBLE, POSSIBLE, hand_readings, sized_primary


def _leads(convention: Convention, inst: Instance, play: Play) -> bool:
    regular, fallback = cached_plays(convention, inst)
    return any(p == play for p, _ in (*regular, *fallback))


def holding_for(leader: tuple[Card, ...], play: Play, convention: Convention) -> tuple[Card, ...]:
    """The cards of the leader's holding that ``play`` was led from (its item's cards), holding
    the led cards: a holding's plays may use cards beside it (K♣ 10♦ is led from K-K-K-10-10
    when the preferred full house is K-K-K-A-A), so that holding is found among the hand's."""
    item, instances = find_instances(hand_mask(leader), convention.signal_checklist)
    led = {c for c in play if c is not None}
    leading = [inst for inst in instances if _leads(convention, inst, play)]
    for inst in leading:
        if led <= set(inst.cards):
            return inst.cards
    if leading:
        rest = [c for c in leader if c not in led]
        for more in combinations(rest, len(leading[0].cards) - len(led)):
            cards = {*led, *more}
            for inst in find_instances(hand_mask(cards), (item,))[1]:
                if set(inst.cards) == cards and _leads(convention, inst, play):
                    return inst.cards
        return leading[0].cards
    return instances[0].cards if instances else ()


def reading_words(readings: tuple[Reading, ...], item: str) -> Join:
    """Every holding a signal allows for ``item``, all its shapes, one after another."""
    parts: tuple[Param, ...] = tuple(r.text for r in readings if r.item == item)
    return Join(parts, "list.or_sentence")


@register
class ReadKind(KindSpec):
    kind = DrillKind.READ
    title = Msg("kind.read.title")
    description = Msg("kind.read.description")
    level = 2
    topic = Topic.SIGNALS
    lesson = ("reading-partner", "the-grid")

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return convention.signal_checklist

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        return fits(skill, params, convention, 0)

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        convention = get_convention(params.convention)
        pos, signal = signal_position(rng, params, skill, visible_own=params.own_hand)
        drill = Drill(
            kind=self.kind,
            seed=seed,
            params=params,
            skill=skill,
            side_hand=pos.side_hand,
            prompt=Msg("drill.read.prompt", side_hand=pos.side_hand, signal=signal_words(signal)),
            hand=pos.partner if params.own_hand else (),
            completed=pos.table.completed,
            opponents=pos.table.opponents,
            signal=signal,
            source=pos.leader,
            partner_size=len(pos.partner),
            table=pos.table,
        )
        primary = sized_primary(
            signal, pos.side_hand, len(pos.leader), drill.visible, convention, known=pos.leader
        )
        assert primary is not None  # (the leader's own hand shows a reading of its lead)
        every = {r.item for r in decode(signal[0], signal[1], pos.side_hand, convention)}
        options = [
            Option(primary.item, term("item", primary.item)),
            *read_distractors(signal, pos.side_hand, convention, every)[:3],
        ]
        return replace(drill, skill=primary.item, options=shuffled(options, rng))

    def leader_size(self, drill: Drill) -> int | None:
        return len(drill.source)  # partner led: the hidden source of the signal

    def words(self, drill: Drill | None, answer: str) -> str:
        item, _, shape = answer.partition(":")  # item:shape from the first generator
        return shaped("item", item, shape)

    def answer_key(self, drill: Drill) -> AnswerKey:
        assert drill.signal is not None
        c1, c2 = drill.signal
        convention = drill.convention
        judged = list(
            hand_readings(
                drill.signal,
                drill.side_hand,
                len(drill.source),
                drill.visible,
                convention,
                known=drill.source,
            )
        )
        kept = tuple(r for r, found in judged if found.answer != IMPOSSIBLE)
        sure = tuple(r for r, found in judged if found.answer == POSSIBLE)
        primary = kept[0]
        title = term("item", primary.item)
        details = []
        later: list[str] = []
        for r in sure:
            if r.item != primary.item and r.item not in later:
                later.append(r.item)
                details.append(Msg("drill.read.later", readings=reading_words(sure, r.item)))
        shown = {r.item for r, _ in judged}
        pruned = {r.item for r in decode(c1, c2, drill.side_hand, convention)} - shown
        if pruned:
            names = Join(tuple(Term("item_lower", str(i)) for i in ITEMS if i in pruned))
            details.append(Msg("drill.read.ruled_out", items=names))
        sized_out = shown - {r.item for r in kept}
        if sized_out:
            names = Join(tuple(Term("item_lower", str(i)) for i in ITEMS if i in sized_out))
            details.append(Msg("drill.read.hand_size", items=names, n=len(drill.source)))
        actual = holding_for(drill.source, drill.signal, convention)
        held = encode(drill.source, drill.side_hand, convention).item
        label = Msg("drill.partner_held")
        if held != primary.item:
            label = Msg("drill.read.partner_held_other", item=Term("item_lower", str(held)))
        return AnswerKey(
            accepted=(primary.item,),
            expected=title,
            explanation=Msg(
                "drill.read.explanation",
                item=Term("item_lower", str(primary.item)),
                readings=reading_words(kept, primary.item),
            ),
            details=tuple(details),
            reveal=tuple(sort_cards(drill.source)),
            highlight=actual,
            reveal_label=label,
        )


def read_distractors(
    signal: Play, side_hand: int, convention: Convention, readings: set[str]
) -> list[Option]:
    """Items a reader confuses with this signal — the primary readings of signals one step
    away (other order, suit or distance), then neighbours on the checklist — never another
    reading of the signal itself."""
    c1, c2 = signal
    candidates: list[Play] = []
    if c2 is None:
        candidates += [(c1, c) for c in DECK if c is not c1 and c.rank == c1.rank]
    else:
        candidates += [(c2, c1), (c1, None)]
        candidates += [
            (c1, c) for c in DECK if c not in (c1, c2) and (c.rank == c2.rank or c.suit == c2.suit)
        ]
    seen = set(readings)
    out: list[Option] = []
    for a, b in candidates:
        for reading in decode(a, b, side_hand, convention)[:1]:
            if reading.item not in seen:
                seen.add(reading.item)
                out.append(Option(reading.item, term("item", reading.item)))
    for i in ITEMS:
        if i not in seen:
            seen.add(i)
            out.append(Option(i, term("item", i)))
    return out
