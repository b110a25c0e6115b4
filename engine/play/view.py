"""What the learner may see: :class:`TableView` and the public pieces it is made of.

A view is built from South's :class:`~engine.game.Observation` and from deals already over, and
from nothing else, so it can hold no card South cannot see: South's own cards, the cards played
(completed hands lie face up, the current hand's cards as played), and, once a deal is over, its
dealt hands and left-overs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.game import Action, PlayedHand
from engine.scoring import ScoringRule
from engine.seats import Seat, Side

__all__ = ["DealScore", "Outcome", "ShownHand", "TableView"]


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _letter(seat: Seat | None) -> str | None:
    return None if seat is None else str(seat)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A completed hand, face up in front of its leader: who played each card, every action
    (passes and forces included), the combination and its points for ``side``."""

    number: int
    leader: Seat
    side: Side
    cards: tuple[tuple[Seat, Card], ...]
    actions: tuple[tuple[Seat, Action], ...]
    combination: str
    points: int

    @classmethod
    def of(cls, hand: PlayedHand) -> ShownHand:
        return cls(
            number=hand.number,
            leader=hand.leader,
            side=hand.side,
            cards=hand.cards,
            actions=hand.actions,
            combination=str(hand.combination),
            points=hand.points,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": str(self.leader),
            "side": str(self.side),
            "cards": [[str(seat), str(c)] for seat, c in self.cards],
            "actions": [[str(seat), str(a)] for seat, a in self.actions],
            "combination": self.combination,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class DealScore:
    """A deal that is over: its dealer, dealt hands, left-overs (with each side's value) and
    scores by side (``"NS"``, ``"EW"``). All of it is public once the deal ends."""

    deal_number: int
    dealer: str
    hands: Mapping[str, tuple[Card, ...]]
    leftovers: Mapping[str, tuple[Card, ...]]
    leftover_combinations: Mapping[str, str]
    leftover_values: Mapping[str, int]
    hand_scores: Mapping[str, int]
    leftover_bonus: Mapping[str, int]
    scores: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "hands": {seat: _cards(cards) for seat, cards in self.hands.items()},
            "leftovers": {side: _cards(cards) for side, cards in self.leftovers.items()},
            "leftover_combinations": dict(self.leftover_combinations),
            "leftover_values": dict(self.leftover_values),
            "hand_scores": dict(self.hand_scores),
            "leftover_bonus": dict(self.leftover_bonus),
            "scores": dict(self.scores),
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result once everything is over: totals, game bonus (zero for a single deal), final
    scores and the winning side (``None``: a draw)."""

    totals: Mapping[str, int]
    game_bonus: Mapping[str, int]
    final: Mapping[str, int]
    winner: str | None
    deals_played: int

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": dict(self.totals),
            "game_bonus": dict(self.game_bonus),
            "final": dict(self.final),
            "winner": self.winner,
            "deals_played": self.deals_played,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """The table from one chair (South's at a solo table).

    - ``hand``: South's cards, sorted; ``counts``: how many cards each seat holds (all four);
    - ``completed``: this deal's completed hands, face up; ``current``: the current hand's
      actions as ``(seat, action)``;
    - ``to_move``: the seat to act (None when over); ``legal``: South's legal actions (empty
      unless South is to act); ``hand_number`` 1-8, ``side_hand`` 1-4, ``leader`` (whose turn
      it is to lead the current hand), ``side_of_hand``, ``forced_by``;
    - scores: ``hand_scores`` of this deal by side, ``totals`` of the game before this deal
      (zeros for a single deal), ``finished_deals`` (every deal over, in a game the earlier
      ones), ``deal_number`` and ``game``;
    - ``is_over``; then ``outcome`` holds the result.

    Seats, sides, actions and the rule are the engine's value types; the tables of figures
    (``counts``, ``hand_scores``, ``totals``, ``finished_deals``, ``outcome``) are keyed by
    the seat's or side's letters, as :meth:`to_json` writes them.
    """

    game: bool
    deal_number: int
    dealer: Seat
    rule: ScoringRule
    convention: str
    opponents: str
    hand_number: int
    side_hand: int
    leader: Seat
    side_of_hand: Side
    to_move: Seat | None
    hand: tuple[Card, ...]
    counts: Mapping[str, int]
    completed: tuple[ShownHand, ...]
    current: tuple[tuple[Seat, Action], ...]
    current_cards: tuple[tuple[Seat, Card], ...]
    forced_by: Seat | None
    hand_scores: Mapping[str, int]
    totals: Mapping[str, int]
    finished_deals: tuple[DealScore, ...]
    legal: tuple[Action, ...]
    is_over: bool
    outcome: Outcome | None
    #: Whose chair: South at a solo table, any seat at a live table.
    seat: Seat = Seat.S

    @property
    def score(self) -> Mapping[str, int]:
        """The score a table shows, by side: this deal's hand scores while it is played; once
        everything is over, the result's final scores (``outcome.final``: the left-over bonus
        and, in a game, the game bonus counted), the same figures as the result line."""
        return self.outcome.final if self.outcome is not None else self.hand_scores

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": str(self.seat),
            "game": self.game,
            "deal_number": self.deal_number,
            "dealer": str(self.dealer),
            "rule": self.rule.name,
            "convention": self.convention,
            "opponents": self.opponents,
            "hand_number": self.hand_number,
            "side_hand": self.side_hand,
            "leader": str(self.leader),
            "side_of_hand": str(self.side_of_hand),
            "to_move": _letter(self.to_move),
            "hand": _cards(self.hand),
            "counts": dict(self.counts),
            "completed": [h.to_json() for h in self.completed],
            "current": [[str(seat), str(a)] for seat, a in self.current],
            "current_cards": [[str(seat), str(c)] for seat, c in self.current_cards],
            "forced_by": _letter(self.forced_by),
            "hand_scores": dict(self.hand_scores),
            "score": dict(self.score),
            "totals": dict(self.totals),
            "finished_deals": [d.to_json() for d in self.finished_deals],
            "legal": [str(a) for a in self.legal],
            "is_over": self.is_over,
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
        }
