"""Concerto engine: cards, scoring, the deal and game state machines, and the signal card.

Pure Python; imports nothing from Django. See the submodules:

- :mod:`engine.cards` — cards, suits, ranks, parsing;
- :mod:`engine.scoring` — combinations, scoring rules, left-overs;
- :mod:`engine.table` — seats and sides;
- :mod:`engine.game` — the deal and game state machines, observations;
- :mod:`engine.bots` — bots that play legal moves;
- :mod:`engine.signals` — the convention cards: checklist, encoder, decoder, replies.
"""

from engine.cards import Card, Suit, card, parse_cards
from engine.errors import ConcertoError, IllegalPlayError, InvalidCardsError, InvalidNotationError

__all__ = [
    "Card",
    "Suit",
    "card",
    "parse_cards",
    "ConcertoError",
    "IllegalPlayError",
    "InvalidCardsError",
    "InvalidNotationError",
]
