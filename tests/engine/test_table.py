import pytest

from engine.errors import InvalidNotationError
from engine.seats import SEATS, Seat, Side


def test_left_is_the_next_seat_clockwise():
    assert [s.left for s in SEATS] == [Seat.E, Seat.S, Seat.W, Seat.N]


def test_partners_and_sides():
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert Seat.S.side is Side.NS and Seat.W.side is Side.EW
    assert Side.NS.seats == (Seat.N, Seat.S) and Side.EW.other is Side.NS


def test_after_counts_seats_to_the_left():
    assert Seat.W.after(1) is Seat.N
    assert Seat.N.after(8) is Seat.N


@pytest.mark.parametrize(("text", "seat"), [("n", Seat.N), (" W ", Seat.W), ("south", Seat.S)])
def test_seat_parse(text, seat):
    assert Seat.parse(text) is seat
    assert str(seat) in "NESW"


@pytest.mark.parametrize(("text", "side"), [("ns", Side.NS), ("E-W", Side.EW), ("sn", Side.NS)])
def test_side_parse(text, side):
    assert Side.parse(text) is side


@pytest.mark.parametrize("text", ["X", "", "NE", 3])
def test_bad_seats_and_sides_raise_notation_errors(text):
    with pytest.raises(InvalidNotationError):
        Seat.parse(text)
    with pytest.raises(InvalidNotationError):
        Side.parse(text)
