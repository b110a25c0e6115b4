"""How drills, options and answers read to a learner: messages (:mod:`engine.messages`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.drills.model import Option
from engine.messages import Cards, Msg, Term, Text


def term(kind: str, key: str) -> Msg:
    """A term of the game on its own (an option label, an expected answer)."""
    return Msg("term", term=Term(kind, str(key)))


def shaped(kind: str, key: str, shape: str | None) -> Msg:
    """A term followed by a shape: ``Four to a straight flush (XX.XX)``."""
    if not shape:
        return term(kind, key)
    return Msg("with_shape", title=Term(kind, str(key)), shape=Text(shape))


def ordinal(n: int) -> Msg:
    return Msg(f"side_hand.{n}")


def play_words(play: tuple[Card, Card | None]) -> Msg:
    c1, c2 = play
    if c2 is None:
        return Msg("play.and_pass", c1=Cards((c1,)))
    return Msg("play.then", c1=Cards((c1,)), c2=Cards((c2,)))


def signal_words(signal: tuple[Card, Card | None]) -> Msg:
    c1, c2 = signal
    if c2 is None:
        return Msg("signal.card_and_pass", c1=Cards((c1,)))
    return Msg("signal.two_cards", c1=Cards((c1,)), c2=Cards((c2,)))


def shuffled(options: Sequence[Option], rng: random.Random) -> tuple[Option, ...]:
    out = list(options)
    rng.shuffle(out)
    return tuple(out)
