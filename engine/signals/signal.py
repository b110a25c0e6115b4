"""A signal: the leader's first card ``c1`` and either a second card ``c2`` or a pass.

>>> s = Signal.parse("6d 8D")
>>> s, str(s), str(Signal.parse("7H pass"))
(Signal.parse('6D 8D'), '6D 8D', '7H pass')
>>> c1, c2 = Signal.parse("7H pass")
>>> c2 is None
True

A :class:`Signal` is a named pair, so it equals (and hashes as) the tuple ``(c1, c2)`` that the
engine's older signatures take: ``Signal(c1, c2) == (c1, c2)``.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import Card, require_card
from engine.errors import InvalidNotationError

__all__ = ["Signal"]


class Signal(NamedTuple):
    """``c1`` then ``c2`` (``None``: c1 and pass). Build from cards with :meth:`of` (checked)
    or from text with :meth:`parse`."""

    c1: Card
    c2: Card | None

    @classmethod
    def of(cls, c1: Card, c2: Card | None) -> Signal:
        """The signal ``c1`` then ``c2``, checking both are cards and not the same one."""
        require_card(c1, "Signal")
        if c2 is not None:
            require_card(c2, "Signal")
        if c1 is c2:
            raise InvalidNotationError(f"{c1} cannot be played twice")
        return cls(c1, c2)

    @classmethod
    def parse(cls, text: str) -> Signal:
        """Two cards (``"6D 8D"``), or a card and ``pass`` (``"7H pass"``)."""
        words = text.replace(",", " ").split() if isinstance(text, str) else []
        if len(words) != 2:
            raise InvalidNotationError(f"a signal is two cards, or a card and pass, not {text!r}")
        c2 = None if words[1].lower() == "pass" else Card.parse(words[1])
        return cls.of(Card.parse(words[0]), c2)

    @property
    def is_pass(self) -> bool:
        """True for "c1 and pass"."""
        return self.c2 is None

    def __str__(self) -> str:
        return f"{self.c1} {'pass' if self.c2 is None else self.c2}"

    def __repr__(self) -> str:
        return f"Signal.parse({str(self)!r})"
