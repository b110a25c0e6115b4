"""Bots that play legal moves from what one seat may see.

A bot receives only an :class:`~engine.game.Observation` and the legal actions, never the
state itself, so it cannot peek at hidden cards (the ``open`` bot is the one, declared,
exception: see :mod:`engine.bots.open`)::

    >>> game = play_game(seed=3)
    >>> game.is_terminal()
    True
    >>> sorted(BOT_NAMES)
    ['beginner', 'greedy', 'open', 'random', 'signal', 'strong']

The ladder, weakest first: ``random`` (uniform over legal actions), ``greedy`` (builds what it
sees, no signals), ``beginner`` (follows a convention card: the signal bot's beginner
strength), ``signal`` (follows the card and leads for full houses), ``strong`` (leads as
``signal`` and reads partner's signals by the odds of the hands it could have led them from),
``open`` (sees its partner's cards and plays the par solver's hands: a ceiling, not a legal
partner).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.base import Bot
from engine.bots.greedy import GreedyBot
from engine.bots.signal import BEGINNER, STRONG, SignalBot
from engine.game import Action, GameState, Observation
from engine.scoring import CLASSIC, ScoringRule
from engine.seats import SEATS, Seat
from engine.signals import Convention

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "SignalBot", "make_bot", "play_game"]

#: The bots a tournament can seat, by name.
BOT_NAMES: tuple[str, ...] = ("random", "greedy", "beginner", "signal", "strong", "open")


class RandomBot:
    """Chooses uniformly among the legal actions, from an injected random source."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]


def make_bot(
    name: str, *, rng: random.Random | None = None, convention: Convention | str | None = None
) -> Bot:
    """A bot by name (``open`` needs its partner's view: see :class:`engine.bots.open.OpenBot`,
    which the tournament seats itself)."""
    if name == "random":
        return RandomBot(rng if rng is not None else random.Random(0))
    if name == "greedy":
        return GreedyBot()
    if name == "signal":
        return SignalBot(convention)
    if name == "beginner":
        return SignalBot(convention, strength=BEGINNER)
    if name == "strong":
        return SignalBot(convention, strength=STRONG)
    raise ValueError(f"unknown bot: {name!r} (choose {', '.join(BOT_NAMES)})")


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
