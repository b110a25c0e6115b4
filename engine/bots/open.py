"""The open bot: the ceiling of the ladder, **not a legal partner**.

It sees its partner's cards (through ``partner_view``, which only a tournament or a test can
give it) and plays the par solver's hands (:mod:`engine.par`): at every hand its side leads it
re-solves the best hands of the cards both partners still hold and plays its share of the
first, passing while partner plays theirs.

>>> OpenBot.legal_partner
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.bots.base import acting_leader, can_pass, play
from engine.bots.hands import best_fill
from engine.cards import Card
from engine.game import PASS, Action, Observation
from engine.par import ParSolution, solve
from engine.signals.checklist import hand_mask

__all__ = ["OpenBot"]


class OpenBot:
    """Plays the par solver's hands with its partner's cards in view (a ceiling, not a
    partner: ``legal_partner`` is False)."""

    name = "open"
    #: Sees hidden cards (its partner's): for measuring, never for play with people.
    legal_partner = False

    def __init__(self, partner_view: Callable[[], Sequence[Card]]) -> None:
        self.partner_view = partner_view
        self._plans: dict[tuple[int, int, int, str], ParSolution] = {}

    def _plan(self, obs: Observation) -> ParSolution:
        me, partner = obs.seat, obs.seat.partner
        mine = [*obs.own_cards, *(c for s, c in obs.current_cards if s is me)]
        theirs = [*self.partner_view(), *(c for s, c in obs.current_cards if s is partner)]
        leader = obs.leader
        first, second = (mine, theirs) if leader is me else (theirs, mine)
        key = (hand_mask(first), hand_mask(second), obs.side_hand, leader.value)
        found = self._plans.get(key)
        if found is None:
            found = solve(first, second, leader, obs.rule, hands=5 - obs.side_hand)
            self._plans[key] = found
        return found

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        obs = observation
        plan = self._plan(obs)
        hand = plan.hands[0] if plan.hands else ()
        on_table = {c for _, c in obs.current_cards}
        planned = {c for _, c in hand}
        if on_table <= planned:
            todo = [c for s, c in hand if s is obs.seat and c not in on_table]
            if todo:
                return play(todo[0])
            if can_pass(legal_actions):
                return PASS
        if acting_leader(obs) is obs.seat or not can_pass(legal_actions):
            return play(best_fill(obs.current_cards, obs.own_cards, obs.seat, obs.rule).cards[0])
        return PASS
