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


class WrongTypeError(ConcertoError, TypeError):
    """A value of the wrong type given to an engine function: a card string where a
    :class:`~engine.cards.Card` is expected, a convention's name where a
    :class:`~engine.signals.Convention` is. Strings are parsed at the edges (the CLI, forms);
    inside, the engine takes value types. Also a :class:`TypeError`.

    >>> raise WrongTypeError("encode() takes cards, not the string '5S 4S'")
    Traceback (most recent call last):
    ...
    engine.errors.WrongTypeError: encode() takes cards, not the string '5S 4S'
    """


class UnknownConventionError(InvalidNotationError):
    """A convention name the engine does not know (the message lists the known ones)."""
