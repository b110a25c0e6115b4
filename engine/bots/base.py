"""What every bot reads from its :class:`~engine.game.Observation`: whose hand it is, what is on
the table, whether a pass is allowed. Nothing here sees more than the observation shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.cards import Card
from engine.game import PASS, Action, ActionKind, Observation
from engine.seats import Seat

__all__ = ["Bot", "acting_leader", "can_pass", "my_cards_in_hand", "play", "visible_cards"]


class Bot(Protocol):
    """A player: chooses one of ``legal_actions`` from what its seat may see."""

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


def play(card: Card) -> Action:
    return Action(ActionKind.PLAY, card)


def can_pass(legal_actions: Sequence[Action]) -> bool:
    return PASS in legal_actions


def acting_leader(obs: Observation) -> Seat:
    """Who leads the hand being played: the first to act in it (the scheduled leader, or the
    partner when the leader had no cards), or the player to act when nobody has yet."""
    if obs.current_actions:
        return obs.current_actions[0][0]
    assert obs.current_player is not None
    return obs.current_player


def my_cards_in_hand(obs: Observation) -> tuple[Card, ...]:
    """The cards this seat has played in the current hand."""
    return tuple(c for s, c in obs.current_cards if s is obs.seat)


def visible_cards(obs: Observation) -> tuple[Card, ...]:
    """Every card face up: the finished hands and the hand being played."""
    out = [c for hand in obs.played_hands for _, c in hand.cards]
    out.extend(c for _, c in obs.current_cards)
    return tuple(out)
