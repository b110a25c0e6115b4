"""The greedy bot: builds the best hand it can see, never reads a signal.

As leader it plays towards the best five-card hand its own cards make with the table; as the
leader's partner it adds a card only when the card makes more points at once without lowering
what the hand can still become, and passes otherwise.

>>> import random
>>> from engine.game import DealState
>>> state = DealState.deal("N", random.Random(1))
>>> obs = state.observation(state.current_player())
>>> GreedyBot().choose(obs, obs.legal_actions).is_play
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.base import acting_leader, can_pass, play
from engine.bots.hands import best_fill, keep_values, made, reach
from engine.game import PASS, Action, Observation

__all__ = ["GreedyBot", "partner_move"]


def partner_move(obs: Observation, legal_actions: Sequence[Action]) -> Action:
    """The partner's greedy turn: a card that improves the hand now and keeps its prospects,
    else pass (or, when a pass is not allowed, the card doing most for the hand)."""
    table = obs.current_cards
    cards = [c for _, c in table]
    seats = [s for s, _ in table]
    own = obs.own_cards
    keep = keep_values(own)
    now = made(cards, seats, obs.rule)
    ahead = reach(cards)
    best = None
    best_key: tuple[int, int, int] | None = None
    for c in own:
        after = [*cards, c]
        key = (made(after, [*seats, obs.seat], obs.rule), reach(after), -keep[c])
        if best_key is None or key > best_key:
            best, best_key = c, key
    assert best is not None and best_key is not None
    if not can_pass(legal_actions):
        return play(best)
    if best_key[0] > now and (best_key[1] >= ahead or len(cards) == 4):
        return play(best)
    return PASS


class GreedyBot:
    """No signals: lead and complete the best hand in sight, add improving cards, else pass."""

    name = "greedy"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        obs = observation
        if obs.forced_by is obs.seat.partner or acting_leader(obs) is obs.seat:
            fill = best_fill(obs.current_cards, obs.own_cards, obs.seat, obs.rule)
            return play(fill.cards[0])
        return partner_move(obs, legal_actions)
