"""Typed errors raised by the engine.

Every error subclasses :class:`ValueError`, so callers at the edge (forms, the CLI) can catch
one type and show the message, which always names the offending input.
"""

from __future__ import annotations


class ConcertoError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidNotationError(ConcertoError):
    """A string that is not a card, seat, side or other notation the engine reads.

    >>> raise InvalidNotationError("not a card: 'XS'")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidNotationError: not a card: 'XS'
    """


class InvalidCardsError(ConcertoError):
    """Well-formed cards that do not make a valid set here (duplicates, wrong count)."""


class IllegalPlayError(ConcertoError):
    """A syntactically valid action that the rules do not allow in the current position."""
