"""The coach: what to lead, what partner's signal says, and grading South's read of it.

- :func:`coach_lead` — South is on lead (before the first card, or before the second card of
  the signal): the encoder's answer for South's cards and side hand, exactly as the lead drill's
  answer key gives it (every accepted lead, the preferred first, and why).
- :func:`coach_read` — North has led c1, South passed, North played c2 or passed: a quiz "what
  does partner hold?" with the read drill's options and right answer (the first reading after
  pruning by the cards South sees), and the odds of every reading
  (:func:`engine.signals.posterior.posterior`, partner playing the preferred lead).
- :func:`grade_read` — South's answer to that quiz, graded by the read drill's answer key.
- :func:`coach_stakes` — South's side's last hand: how far ahead or behind on hand score, and
  so whether to make the hand or keep the left-overs low.

Both use only what South sees; North's hidden cards reach nothing returned here. Both take
the ``seat`` coached (South by default; at a live table, any seat a person plays), its
partner the seat across.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.drills import DrillKind, Option
from engine.drills.kinds.read import read_distractors
from engine.drills.words import term
from engine.errors import ConcertoError
from engine.game import PASS
from engine.messages import Msg, Text, register_words
from engine.play.grading import PlayAttempt, key_of, lead_drill, read_drill
from engine.play.setup import LEARNER, IllegalPlay
from engine.play.summary import Signal, signal_json, signal_of
from engine.play.table import PlayTable
from engine.seats import Seat
from engine.signals import decode, encode, get_convention
from engine.signals.posterior import Posterior, posterior

__all__ = [
    "ODDS_SAMPLES",
    "LeadAdvice",
    "ReadQuiz",
    "coach_lead",
    "coach_read",
    "coach_stakes",
    "grade_read",
]

#: Hands the posterior draws for the quiz's odds chart (the same seed every time), and the most
#: it tries: a signal few hands lead stops there with wider intervals instead of taking most of
#: a second of a web request.
ODDS_SAMPLES = 800
ODDS_MAX_ATTEMPTS = 4000
_ODDS_CACHE: dict[tuple[object, ...], Posterior] = {}
_CACHE_LIMIT = 2_000


@dataclass(frozen=True, slots=True)
class LeadAdvice:
    """The encoder's lead for South's cards: the first signalled item (``item``, its
    ``shape`` for straight-flush draws, the ``cards`` of South's hand making it), every accepted
    lead with the preferred first (``plays``), and ``why`` (the lead drill's explanation);
    ``played_out``: the item has no signal in this convention and is played out at once."""

    deal_number: int
    hand_number: int
    side_hand: int
    item: str
    title: str
    shape: str | None
    cards: tuple[Card, ...]
    plays: tuple[Signal, ...]
    why: str
    played_out: bool = False

    @property
    def preferred(self) -> Signal:
        return self.plays[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "side_hand": self.side_hand,
            "item": self.item,
            "title": self.title,
            "shape": self.shape,
            "cards": [str(c) for c in self.cards],
            "plays": [signal_json(p) for p in self.plays],
            "preferred": signal_json(self.preferred),
            "why": self.why,
            "played_out": self.played_out,
        }


@dataclass(frozen=True, slots=True)
class ReadQuiz:
    """ "What does partner hold?" after North's signal: ``options`` (item id, title), the right
    ``answer`` (an item id, the read drill's), ``why`` and ``details`` (its explanation) and
    ``odds``, the posterior of every reading given what South sees (``odds.to_json()`` is the
    shape the trainer's odds chart reads)."""

    deal_number: int
    hand_number: int
    side_hand: int
    signal: Signal
    options: tuple[Option, ...]
    answer: str
    answer_title: str
    why: str
    details: tuple[str, ...]
    odds: Posterior

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "side_hand": self.side_hand,
            "signal": signal_json(self.signal),
            "options": [{"key": o.key, "label": o.label} for o in self.options],
            "answer": self.answer,
            "answer_title": self.answer_title,
            "why": self.why,
            "details": list(self.details),
            "odds": self.odds.to_json(),
        }


def coach_lead(table: PlayTable, seat: Seat = LEARNER) -> LeadAdvice | None:
    """The encoder's advice while South leads a signal. Before the first card: every accepted
    lead for South's cards and side hand, the encoder's preferred play first. After the first
    card and North's pass: the accepted leads beginning with that card (None if it began none).
    None at any other moment, or when no signal can be given (North holds no cards)."""
    if not table.learner_to_move(seat):
        return None
    partner = seat.partner
    deal = table.deal
    acts = deal.current_actions
    led: Card | None = None
    if acts:
        if len(acts) != 2 or acts[0][0] is not seat or acts[1] != (partner, PASS):
            return None
        led = acts[0][1].card
    if not deal.card_counts()[partner]:
        return None
    if acts:
        held = table.start_holding(table.deal_number, deal.hand_number)[seat]
    else:
        held = deal.held(seat)
    side_hand = deal.side_hand
    convention = table.setup.convention
    enc = encode(held, side_hand, get_convention(convention))
    plays = tuple(p for p in enc.plays if led is None or p[0] is led)
    if not plays:
        return None
    key = key_of(lead_drill(held, side_hand, convention, table.setup.rule))
    return LeadAdvice(
        deal_number=table.deal_number,
        hand_number=deal.hand_number,
        side_hand=side_hand,
        item=str(enc.item),
        title=term("item", enc.item),
        shape=enc.shape,
        cards=tuple(enc.cards),
        plays=plays,
        why=key.explanation,
        played_out=enc.played_out,
    )


def _odds(
    signal: Signal, side_hand: int, hand_size: int, visible: tuple[Card, ...], convention: str
) -> Posterior:
    key = (signal, side_hand, hand_size, frozenset(visible), convention)
    found = _ODDS_CACHE.get(key)
    if found is None:
        if len(_ODDS_CACHE) > _CACHE_LIMIT:
            _ODDS_CACHE.clear()
        found = posterior(
            signal,
            side_hand,
            hand_size,
            visible,
            convention,
            samples=ODDS_SAMPLES,
            seed=0,
            max_attempts=ODDS_MAX_ATTEMPTS,
        )
        _ODDS_CACHE[key] = found
    return found


def coach_read(table: PlayTable, seat: Seat = LEARNER) -> ReadQuiz | None:
    """The quiz on North's signal, at South's turn right after it (c1, South's pass, c2 or
    pass); None at any other moment or when the signal reads as nothing."""
    if not table.learner_to_move(seat):
        return None
    partner = seat.partner
    deal = table.deal
    acts = deal.current_actions
    if len(acts) != 3 or acts[0][0] is not partner:
        return None
    signal = signal_of(acts)
    if signal is None:
        return None
    convention = table.setup.convention
    conv = get_convention(convention)
    side_hand = deal.side_hand
    start = table.start_holding(table.deal_number, deal.hand_number)
    drill = read_drill(
        own=deal.held(seat),
        completed=[h.card_list for h in deal.played_hands],
        signal=signal,
        side_hand=side_hand,
        source=start[partner],
        convention=convention,
        rule=table.setup.rule,
    )
    visible = tuple(drill.visible)
    readings = decode(signal[0], signal[1], side_hand, conv, visible)
    if not readings:
        return None
    try:
        key = key_of(drill)
    except (ConcertoError, IndexError):
        return None
    primary = key.accepted[0]
    every = {r.item for r in decode(signal[0], signal[1], side_hand, conv)}
    options = [
        Option(primary, term("item", primary)),
        *read_distractors(signal, side_hand, conv, every)[:3],
    ]
    # Shuffled from the signal alone (public), so the order says nothing hidden.
    rng = random.Random(f"read:{signal_json(signal)}:{side_hand}")
    rng.shuffle(options)
    return ReadQuiz(
        deal_number=table.deal_number,
        hand_number=deal.hand_number,
        side_hand=side_hand,
        signal=signal,
        options=tuple(options),
        answer=primary,
        answer_title=key.expected,
        why=key.explanation,
        details=key.details,
        odds=_odds(signal, side_hand, len(start[partner]), visible, convention),
    )


def grade_read(table: PlayTable, answer: str) -> PlayAttempt:
    """South's answer (an option's item id) to :func:`coach_read`'s quiz, graded by the read
    drill's answer key. Raises :class:`IllegalPlay` when there is no quiz now or the answer is
    not one of its options."""
    quiz = coach_read(table)
    if quiz is None:
        raise IllegalPlay(Msg("error.quiz.no_signal"))
    answer = answer.strip() if isinstance(answer, str) else ""
    if answer not in quiz.option_keys:
        raise IllegalPlay(Msg("error.quiz.not_an_option", answer=Text(repr(answer))))
    return PlayAttempt(
        kind=DrillKind.READ,
        skill=quiz.answer,
        correct=answer == quiz.answer,
        answer=answer,
        hand_number=quiz.hand_number,
        deal_number=quiz.deal_number,
        side_hand=quiz.side_hand,
        convention=table.setup.convention,
        expected=quiz.answer,
    )


#: How far behind on hand score a side's last hand counts as out of reach: about the most one
#: hand scores in play (a full house is 8; a straight flush, 15, is rare). A setting of the
#: coach's wording only: the last-hand drills and the strong partner work the deal out exactly.
FAR_BEHIND = 10

register_words(
    {
        "coach.stakes.ahead": (
            "Your side's last hand, %(n)s ahead on hand score: make the hand. The side with "
            "the higher hand score collects ten times the other side's left-overs."
        ),
        "coach.stakes.level": (
            "Your side's last hand, level on hand score: make the hand. The side with the "
            "higher hand score collects ten times the other side's left-overs."
        ),
        "coach.stakes.behind": (
            "Your side's last hand, %(n)s behind on hand score: make the hand if it can catch "
            "up; if it cannot, keep your left-overs low."
        ),
        "coach.stakes.far_behind": (
            "Your side's last hand, %(n)s behind on hand score: keep your left-overs low. The "
            "other side will collect ten times their value."
        ),
        "coach.stakes.theirs_to_come": "The other side's last hand is still to come.",
    }
)


def coach_stakes(table: PlayTable, seat: Seat = LEARNER) -> Msg | None:
    """At ``seat``'s turn in its side's last hand: what the deal needs, from the hand scores
    everyone can see (every finished hand lies face up) — make the hand, or keep the side's
    left-overs low. None at any other moment."""
    if not table.learner_to_move(seat):
        return None
    deal = table.deal
    if deal.side_hand != 4 or deal.side_of_hand is not seat.side:
        return None
    scores = deal.hand_scores()
    gap = scores[seat.side] - scores[seat.side.other]
    if gap > 0:
        line = Msg("coach.stakes.ahead", n=gap)
    elif gap == 0:
        line = Msg("coach.stakes.level")
    elif -gap >= FAR_BEHIND:
        line = Msg("coach.stakes.far_behind", n=-gap)
    else:
        line = Msg("coach.stakes.behind", n=-gap)
    if deal.hand_number < 8:  # the other side leads hand 8
        return Msg("sentences", first=line, second=Msg("coach.stakes.theirs_to_come"))
    return line
