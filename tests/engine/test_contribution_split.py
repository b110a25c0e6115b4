"""The contribution rule's split (RULES.md): who supplied the cards a value depends on."""

import pytest

from engine.cards import parse_cards
from engine.errors import InvalidCardsError
from engine.scoring import Combination, contribution_split, score_hand
from engine.seats import Seat


def test_the_worked_straight_flush_is_a_three_two_split_worth_twenty():
    split = contribution_split(parse_cards("AH 2H 3H 4H 5H"), "NNNSS")
    assert split is not None
    assert split.combination is Combination.STRAIGHT_FLUSH
    assert split.pattern == "3–2" and split.largest_share == 3 and split.points == 20
    assert split.shares == (
        (Seat.N, tuple(parse_cards("AH 2H 3H"))),
        (Seat.S, tuple(parse_cards("4H 5H"))),
    )
    assert split.values == ((5, 10), (4, 15), (3, 20))


def test_fours_from_one_partner_ignore_the_kicker():
    split = contribution_split(parse_cards("7C 7D 7H 7S KH"), "NNNNS")
    assert split is not None
    assert split.pattern == "4–0" and split.points == 8
    assert [seat for seat, _ in split.shares] == [Seat.N]  # the kicker's S does not count


@pytest.mark.parametrize(
    ("cards", "by"),
    [
        ("7C 7D 7H 7S KH", "NSNSN"),
        ("7C 7D 7H 7S KH", "NNNSS"),
        ("AH 2H 3H 4H 5H", "NSNSN"),
        ("9S TS JS QS KS", "NNNNS"),
    ],
)
def test_the_split_agrees_with_the_score(cards, by):
    split = contribution_split(parse_cards(cards), by)
    assert split is not None
    assert split.points == score_hand(parse_cards(cards), "contribution", by=by).points


def test_combinations_worth_the_same_either_way_have_no_split():
    assert contribution_split(parse_cards("7C 7D 7H 2S KH"), "NNSSN") is None
    assert contribution_split(parse_cards("7C 7D 7H 7S KH"), "NNSSN", "classic") is None


def test_bad_seats_are_refused():
    with pytest.raises(InvalidCardsError):
        contribution_split(parse_cards("AH 2H 3H 4H 5H"), "NNE SS")
