"""Seats and sides (partnerships) around the table.

Seats run clockwise N → E → S → W; dealing and leading pass to the left, i.e. to the next seat
clockwise. N–S and E–W are partners::

    >>> Seat.N.left, Seat.N.partner, Seat.N.side
    (<Seat.E: 'E'>, <Seat.S: 'S'>, <Side.NS: 'NS'>)
    >>> Side.parse("e-w").seats
    (<Seat.E: 'E'>, <Seat.W: 'W'>)
"""

from __future__ import annotations

import enum

from engine.errors import InvalidNotationError

__all__ = ["SEATS", "SIDES", "Seat", "Side"]


class Seat(enum.Enum):
    """One of the four seats; ``str(seat)`` is its letter."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def left(self) -> Seat:
        """The next seat clockwise (the player on this seat's left): N → E → S → W → N."""
        return _LEFT[self]

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @property
    def name_long(self) -> str:
        """``North``, ``East``, ``South`` or ``West``."""
        return _LONG[self]

    def after(self, steps: int) -> Seat:
        """The seat ``steps`` places to the left (clockwise).

        >>> Seat.W.after(2)
        <Seat.E: 'E'>
        """
        return SEATS[(SEATS.index(self) + steps) % 4]

    @classmethod
    def parse(cls, text: str | Seat) -> Seat:
        """Read ``N``/``north`` (any case); a :class:`Seat` is returned unchanged.

        >>> Seat.parse("w")
        <Seat.W: 'W'>
        """
        if isinstance(text, Seat):
            return text
        if isinstance(text, str):
            found = _SEAT_BY_TEXT.get(text.strip().upper())
            if found is not None:
                return found
        raise InvalidNotationError(f"not a seat: {text!r} (use N, E, S or W)")

    def __str__(self) -> str:
        return self.value


class Side(enum.Enum):
    """A partnership: ``NS`` or ``EW``."""

    NS = "NS"
    EW = "EW"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @classmethod
    def parse(cls, text: str | Side) -> Side:
        """Read ``NS``, ``N-S``, ``sn``, ``EW``, ``E–W`` (any case).

        >>> Side.parse("n-s")
        <Side.NS: 'NS'>
        """
        if isinstance(text, Side):
            return text
        if isinstance(text, str):
            key = "".join(ch for ch in text.upper() if ch not in " -–/")
            found = _SIDE_BY_TEXT.get(key)
            if found is not None:
                return found
        raise InvalidNotationError(f"not a side: {text!r} (use NS or EW)")

    def __str__(self) -> str:
        return self.value


#: The seats in clockwise order.
SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
SIDES: tuple[Side, ...] = (Side.NS, Side.EW)

_LEFT = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.W, Seat.W: Seat.N}
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}
_LONG = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_SEAT_BY_TEXT = {s.value: s for s in SEATS} | {v.upper(): k for k, v in _LONG.items()}
_SIDE_BY_TEXT = {"NS": Side.NS, "SN": Side.NS, "EW": Side.EW, "WE": Side.EW}
