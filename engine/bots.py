"""Bots that play legal moves from what one seat may see.

A bot receives only an :class:`~engine.game.Observation` and the legal actions, never the
state itself, so it cannot peek at hidden cards::

    >>> game = play_game(seed=3)
    >>> game.is_terminal()
    True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.game import Action, GameState, Observation
from engine.scoring import CLASSIC, ScoringRule
from engine.table import SEATS, Seat

__all__ = ["Bot", "RandomBot", "play_game"]


class Bot(Protocol):
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions, from an injected random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]


def play_game(
    seed: int,
    rule: ScoringRule | str = CLASSIC,
    first_dealer: Seat | str = Seat.N,
) -> GameState:
    """A whole game played by four random bots; the deals come from ``seed``, the bots' choices
    from a second random source derived from it, so the same seed gives the same game."""
    game = GameState.new(seed, rule, first_dealer)
    bot_rng = random.Random(f"bots:{seed}")
    bots = {seat: RandomBot(bot_rng) for seat in SEATS}
    while not game.is_terminal():
        seat = game.current_player()
        assert seat is not None
        observation = game.observation(seat)
        game.apply_action(bots[seat].choose(observation, observation.legal_actions))
    return game
