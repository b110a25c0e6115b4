"""Score drills: value a finished hand, or a side's six left-overs, under either scoring rule."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.cards import DECK, Card, Suit, sort_cards
from engine.drills.hands import card_of, item_core
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, register
from engine.drills.model import SCORE_SKILLS, SCORE_TITLES, Drill, DrillKind, DrillParams, Option
from engine.drills.words import term
from engine.errors import InvalidNotationError
from engine.messages import Cards, Join, Msg, Term
from engine.scoring import (
    LEFTOVER_MULTIPLIER,
    Combination,
    best_five,
    contribution_split,
    get_rule,
    leftover_value,
    score_hand,
)
from engine.seats import Seat
from engine.signals import Convention

#: Score skills taught with the left-overs rather than with the combinations, and where:
#: three pairs, the only six-card combination. A hand worth nothing is taught with the
#: combinations (the kind's own section: "Five cards with none of these are worth nothing").
_LEFTOVER_SKILLS = frozenset({"three_pairs"})
_LEFTOVERS_LESSON = ("scoring-and-leftovers", "left-overs-the-big-swing")
_SCORE_CORES = {"straight_flush": "five_sf", "straight": "five_straight", "flush": "five_flush"}


def score_points(cards: Sequence[Card], rule: str, by: Sequence[Seat]) -> tuple[str, int]:
    """The combination and the points (for six left-overs: the bonus, ten times the value)."""
    scoring_rule = get_rule(rule)
    if len(cards) == 6:
        value = leftover_value(cards, scoring_rule, by=tuple(by) or None)
        return str(value.combination), LEFTOVER_MULTIPLIER * value.value
    result = score_hand(cards, scoring_rule, by=tuple(by) or None)
    return str(result.combination), result.points


def _score_cards(skill: str, rng: random.Random) -> tuple[Card, ...]:
    """Five cards whose combination is ``skill``, or six left-overs (always for three pairs)."""
    size = 6 if skill == "three_pairs" or rng.random() < 0.25 else 5
    for _ in range(400):
        if skill == "three_pairs":
            core = [
                card_of(r, s)
                for r in rng.sample(range(2, 15), 3)
                for s in rng.sample(list(Suit), 2)
            ]
        elif skill == "nothing":
            core = []
        else:
            core = item_core(_SCORE_CORES.get(skill, skill), rng)
        rest = [c for c in DECK if c not in core]
        cards = (core + rng.sample(rest, max(0, size - len(core))))[:size]
        if score_points(cards, "classic", ())[0] == skill:
            return tuple(sort_cards(cards))
    raise InvalidNotationError(f"could not build cards scoring {skill!r}")


def _rule_values(rule: str) -> set[int]:
    """Every value a five-card hand can score under ``rule`` (split values included)."""
    scoring = get_rule(rule)
    values = set(scoring.values.values())
    for table in scoring.split_values.values():
        values |= set(table.values())
    return values


def _split_words(cards: Sequence[Card], by: Sequence[Seat], combination: Combination) -> Msg:
    """Who supplied the cards that count for the contribution rule's split (a sentence)."""
    if combination is Combination.FOURS:
        counts = Counter(c.rank for c in cards)
        seats = [s for c, s in zip(cards, by, strict=True) if counts[c.rank] == 4]
        msg_id = "drill.score.split.four"
    else:
        seats = list(by)
        msg_id = "drill.score.split.five"
    tally = Counter(seats)
    parts = tuple(
        Msg("drill.score.seat_count", seat=Term("seat", seat.value), n=n)
        for seat, n in sorted(tally.items(), key=lambda t: -t[1])
    )
    return Msg(msg_id, seats=Join(parts, "list.and"), most=max(tally.values()))


@register
class ScoreKind(KindSpec):
    kind = DrillKind.SCORE
    title = Msg("kind.score.title")
    description = Msg("kind.score.description")
    level = 1
    topic = Topic.SCORING
    lesson = ("the-game", "what-you-are-building")
    has_side_hand = False

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return SCORE_SKILLS

    def skill_title(self, skill: str) -> str:
        return term("combo", skill) if skill in SCORE_TITLES else skill

    def lesson_for(self, skill: str) -> tuple[str, str] | None:
        return _LEFTOVERS_LESSON if skill in _LEFTOVER_SKILLS else self.lesson

    def leader_size(self, drill: Drill) -> int | None:
        return None  # cards to score, no one's hand

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        cards = _score_cards(skill, rng)
        by: tuple[Seat, ...] = ()
        if params.rule == "contribution":
            by = tuple(rng.choice((Seat.N, Seat.S)) for _ in cards)
        _, points = score_points(cards, params.rule, by)
        pool = _rule_values(params.rule) | {0}
        if len(cards) == 6:
            pool = {LEFTOVER_MULTIPLIER * v for v in pool | {6}}
        wrong = sorted(pool - {points})
        rng.shuffle(wrong)
        options = tuple(Option(str(v), str(v)) for v in sorted([points, *wrong[:3]]))
        what = Msg("drill.score.prompt.leftovers" if len(cards) == 6 else "drill.score.prompt.hand")
        return Drill(
            kind=self.kind,
            seed=seed,
            params=params,
            skill=skill,
            side_hand=1,
            prompt=what,
            cards=cards,
            by=by,
            options=options,
        )

    def answer_key(self, drill: Drill) -> AnswerKey:
        cards, by, rule = drill.cards, drill.by, drill.params.rule
        combination, points = score_points(cards, rule, by)
        if len(cards) == 6:
            value = leftover_value(cards, get_rule(rule), by=tuple(by) or None)
            text = Msg(
                "drill.score.leftovers",
                combo=Term("combo_lower", combination),
                cards=Cards(tuple(sort_cards(value.cards))),
                value=value.value,
                multiplier=LEFTOVER_MULTIPLIER,
                points=points,
            )
            highlight = value.cards
            split = None
            if by and get_rule(rule).needs_split(value.combination):
                seat_of = dict(zip(cards, by, strict=True))
                seats = [seat_of[c] for c in value.cards]
                text = Msg(
                    "sentences",
                    first=text,
                    second=_split_words(value.cards, seats, value.combination),
                )
                split = contribution_split(value.cards, seats, rule)
        else:
            combo, five = best_five(cards)
            text = Msg(
                "drill.score.hand",
                combo=Term("combo", combination),
                cards=Cards(tuple(five)),
                n=points,
                rule=Msg(f"rule.{rule}"),
            )
            highlight = five if combo is not Combination.NOTHING else ()
            split = None
            if by and get_rule(rule).needs_split(Combination(combination)):
                text = Msg(
                    "sentences",
                    first=text,
                    second=_split_words(cards, by, Combination(combination)),
                )
                split = contribution_split(cards, by, rule)
        return AnswerKey(
            accepted=(str(points),),
            expected=str(points),
            explanation=text,
            highlight=tuple(highlight),
            split=split,
        )
