"""Concerto engine: cards, scoring, the deal and game state machines, and the signal card.

Pure Python; imports nothing from Django. See the submodules:

- :mod:`engine.cards` — cards, suits, ranks, parsing;
- :mod:`engine.hand` — :class:`Hand`, an immutable set of cards;
- :mod:`engine.scoring` — combinations, scoring rules, left-overs;
- :mod:`engine.seats` — seats and sides;
- :mod:`engine.game` — the deal and game state machines, observations;
- :mod:`engine.bots` — bots that play legal moves;
- :mod:`engine.signals` — the convention cards: checklist, encoder, decoder, replies;
- :mod:`engine.drills` — drills built from ``(kind, seed, params)`` and graded;
- :mod:`engine.cli` — ``python -m engine`` (commands register in :mod:`engine.cli_registry`).

>>> from engine import Card, score_hand
>>> score_hand([Card.parse(c) for c in "AH 2H 3H 4H 5H".split()]).points
15
"""

from engine.cards import Card, Suit, card, parse_cards
from engine.errors import ConcertoError, IllegalPlayError, InvalidCardsError, InvalidNotationError
from engine.game import Action, DealState, GameState, Observation
from engine.hand import Hand
from engine.scoring import (
    CLASSIC,
    CONTRIBUTION,
    Combination,
    ScoringRule,
    get_rule,
    leftover_bonus,
    leftover_value,
    score_hand,
)
from engine.seats import Seat, Side

__all__ = [
    "CLASSIC",
    "CONTRIBUTION",
    "Action",
    "Card",
    "Combination",
    "ConcertoError",
    "DealState",
    "GameState",
    "Hand",
    "IllegalPlayError",
    "InvalidCardsError",
    "InvalidNotationError",
    "Observation",
    "ScoringRule",
    "Seat",
    "Side",
    "Suit",
    "card",
    "get_rule",
    "leftover_bonus",
    "leftover_value",
    "parse_cards",
    "score_hand",
]
