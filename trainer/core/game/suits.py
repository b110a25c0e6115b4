"""A suit's CSS class (``suit-spades``…), by suit and by its symbol: the one map of them."""

from engine.cards import Suit

SUIT_CLASS = {suit: f"suit-{suit.name.lower()}" for suit in Suit}
SYMBOL_CLASS = {suit.symbol: css for suit, css in SUIT_CLASS.items()}
