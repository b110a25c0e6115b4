"""The review of finished deals: every hand's signal against what its leader held, each side's
par and the points lost to it, South's choices the signal bot would have made differently, and
frames to step through a deal card by card.

A review shows every card of the deals it covers, so it exists only for deals that are over
(:func:`review` raises :class:`~engine.play.setup.IllegalPlay` otherwise); in a game still
being played it covers the deals already over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.cards import Card
from engine.drills.kinds.read import holding_for
from engine.errors import ConcertoError
from engine.game import Action, DealState
from engine.messages import Msg
from engine.par import ParSolution, solve_deal
from engine.play.grading import PlayAttempt
from engine.play.setup import LEARNER, IllegalPlay, PlaySetup
from engine.play.summary import HandSummary, Signal, signal_json
from engine.play.table import PlayTable, signal_bot
from engine.play.view import DealScore, Outcome
from engine.scoring import ScoringRule
from engine.seats import SEATS, SIDES, Seat, Side
from engine.signals import encode, get_convention

__all__ = ["DealReview", "Decision", "Frame", "HandReview", "ReviewedDeal", "SidePar", "review"]


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand: its summary, the cards its leader held when it started (``holding``), and for
    a signalling pair the first signalled item those cards held (``held_item``), the cards of
    the holding the signal was led from (``held_cards``) and the encoder's preferred lead."""

    summary: HandSummary
    holding: tuple[Card, ...]
    held_item: str | None
    held_cards: tuple[Card, ...]
    preferred: Signal | None

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary.to_json(),
            "holding": _cards(self.holding),
            "held_item": self.held_item,
            "held_cards": _cards(self.held_cards),
            "preferred": signal_json(self.preferred),
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn of South's where the signal bot (playing South's convention from South's seat)
    would have acted otherwise: ``index`` of the action in the record (0-based)."""

    deal_number: int
    hand_number: int
    index: int
    chosen: Action
    bot: Action

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "index": self.index,
            "chosen": str(self.chosen),
            "bot": str(self.bot),
        }


@dataclass(frozen=True, slots=True)
class SidePar:
    """A side's par (the best four hands its own 26 cards can make, :mod:`engine.par`), what
    it made, and the points lost against par."""

    side: str
    par: int
    made: int
    lost: int
    hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "par": self.par,
            "made": self.made,
            "lost": self.lost,
            "hands": [_cards(h) for h in self.hands],
        }


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``index`` actions of the record (the first frame of a deal is its start,
    ``seat``/``action`` None): every seat's cards, the current hand's actions, how many hands
    are complete, the hand scores by side."""

    index: int
    deal_number: int
    hand_number: int
    seat: Seat | None
    action: Action | None
    held: Mapping[str, tuple[Card, ...]]
    current: tuple[tuple[Seat, Action], ...]
    completed: int
    hand_scores: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "seat": None if self.seat is None else str(self.seat),
            "action": None if self.action is None else str(self.action),
            "held": {seat: _cards(cards) for seat, cards in self.held.items()},
            "current": [[str(seat), str(a)] for seat, a in self.current],
            "completed": self.completed,
            "hand_scores": dict(self.hand_scores),
        }


@dataclass(frozen=True, slots=True)
class ReviewedDeal:
    """One finished deal reviewed."""

    deal_number: int
    dealer: str
    hands_dealt: Mapping[str, tuple[Card, ...]]
    hands: tuple[HandReview, ...]
    par: Mapping[str, SidePar]
    decisions: tuple[Decision, ...]
    frames: tuple[Frame, ...]
    score: DealScore

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "hands_dealt": {seat: _cards(c) for seat, c in self.hands_dealt.items()},
            "hands": [h.to_json() for h in self.hands],
            "par": {side: p.to_json() for side, p in self.par.items()},
            "decisions": [d.to_json() for d in self.decisions],
            "frames": [f.to_json() for f in self.frames],
            "score": self.score.to_json(),
        }


@dataclass(frozen=True, slots=True)
class DealReview:
    """The review of every finished deal of a record; ``outcome`` once all is over;
    ``attempts`` South's graded leads in those deals."""

    rule: ScoringRule
    convention: str
    opponents: str
    opponents_convention: str
    game: bool
    deals: tuple[ReviewedDeal, ...]
    attempts: tuple[PlayAttempt, ...]
    outcome: Outcome | None

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule.name,
            "convention": self.convention,
            "opponents": self.opponents,
            "opponents_convention": self.opponents_convention,
            "game": self.game,
            "deals": [d.to_json() for d in self.deals],
            "attempts": [a.to_json() for a in self.attempts],
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
        }


def _frame(table: PlayTable, index: int, seat: Seat | None, action: Action | None) -> Frame:
    deal = table.deal
    return Frame(
        index=index,
        deal_number=table.deal_number,
        hand_number=deal.hand_number,
        seat=seat,
        action=action,
        held=MappingProxyType({str(s): deal.held(s) for s in SEATS}),
        current=deal.current_actions,
        completed=len(deal.played_hands),
        hand_scores=MappingProxyType({str(s): v for s, v in deal.hand_scores().items()}),
    )


def _hand_review(table: PlayTable, deal_number: int, summary: HandSummary) -> HandReview:
    lead = Seat.parse(summary.leader)
    holding = table.start_holding(deal_number, summary.hand_number)[lead]
    convention = table.convention_of(lead)
    held_item = None
    held_cards: tuple[Card, ...] = ()
    preferred: Signal | None = None
    if convention is not None:
        conv = get_convention(convention)
        try:
            enc = encode(holding, summary.side_hand, conv)
        except ConcertoError:
            enc = None
        if enc is not None and enc.plays:
            held_item = str(enc.item)
            preferred = enc.plays[0]
            held_cards = tuple(enc.cards)
            if summary.signal is not None:
                held_cards = tuple(holding_for(holding, summary.signal, conv)) or held_cards
    return HandReview(summary, holding, held_item, held_cards, preferred)


#: Each side's par by (dealer, rule, dealt hands): a review page is opened more than once.
_PAR_CACHE: dict[tuple[object, ...], dict[Side, ParSolution]] = {}
_PAR_CACHE_LIMIT = 512


def _par(deal: DealState) -> Mapping[str, SidePar]:
    key = (deal.dealer, deal.rule.name, *(deal.hands_dealt[s] for s in SEATS))
    par = _PAR_CACHE.get(key)
    if par is None:
        if len(_PAR_CACHE) >= _PAR_CACHE_LIMIT:
            _PAR_CACHE.clear()
        par = _PAR_CACHE[key] = solve_deal(deal)
    made = deal.hand_scores()
    return MappingProxyType(
        {
            str(side): SidePar(
                side=str(side),
                par=par[side].hand_score,
                made=made[side],
                lost=max(par[side].hand_score - made[side], 0),
                hands=tuple(tuple(c for _, c in hand) for hand in par[side].hands),
            )
            for side in SIDES
        }
    )


def review(setup: PlaySetup, actions: Sequence[Action]) -> DealReview:
    """Review every finished deal of the record ``setup`` + ``actions``. Raises
    :class:`IllegalPlay` when the record does not replay or no deal is over yet."""
    full = PlayTable.replay(setup, actions)
    if not full.finished_deals():
        raise IllegalPlay(Msg("error.review.not_over"))
    bot = signal_bot(setup.convention)
    table = PlayTable(setup)
    frames: dict[int, list[Frame]] = {1: [_frame(table, 0, None, None)]}
    decisions: dict[int, list[Decision]] = {}
    for index, action in enumerate(full.actions):
        deal_number = table.deal_number
        if table.deal.current_player() is LEARNER:
            obs = table.deal.observation(LEARNER)
            choice = bot.choose(obs, obs.legal_actions)
            if choice != action:
                decisions.setdefault(deal_number, []).append(
                    Decision(deal_number, table.deal.hand_number, index, action, choice)
                )
        step = table.apply(action)
        if step.deal_finished:
            frames.setdefault(deal_number, []).append(
                _frame_of_finished(table, deal_number, index + 1, step.seat, step.action)
            )
            if table.deal_number != deal_number:
                frames[table.deal_number] = [_frame(table, index + 1, None, None)]
        else:
            frames.setdefault(deal_number, []).append(
                _frame(table, index + 1, step.seat, step.action)
            )
    deals = []
    for number, deal in enumerate(table.deals, start=1):
        if not deal.is_terminal():
            continue
        summaries = [table.hand_summary(h.number, number) for h in deal.played_hands]
        deals.append(
            ReviewedDeal(
                deal_number=number,
                dealer=str(deal.dealer),
                hands_dealt=MappingProxyType({str(s): deal.hands_dealt[s] for s in SEATS}),
                hands=tuple(_hand_review(table, number, s) for s in summaries),
                par=_par(deal),
                decisions=tuple(decisions.get(number, ())),
                frames=tuple(frames.get(number, ())),
                score=table.deal_score(number),
            )
        )
    finished = {d.deal_number for d in deals}
    return DealReview(
        rule=setup.rule,
        convention=setup.convention,
        opponents=setup.opponents,
        opponents_convention=setup.opponents_convention,
        game=setup.game,
        deals=tuple(deals),
        attempts=tuple(a for a in table.attempts() if a.deal_number in finished),
        outcome=table.outcome() if table.is_over() else None,
    )


def _frame_of_finished(
    table: PlayTable, deal_number: int, index: int, seat: Seat, action: Action
) -> Frame:
    """The last frame of a deal (the table may already hold the next deal)."""
    deal = table.deals[deal_number - 1]
    return Frame(
        index=index,
        deal_number=deal_number,
        hand_number=deal.hand_number,
        seat=seat,
        action=action,
        held=MappingProxyType({str(s): deal.held(s) for s in SEATS}),
        current=(),
        completed=len(deal.played_hands),
        hand_scores=MappingProxyType({str(s): v for s, v in deal.hand_scores().items()}),
    )
