import itertools
import pickle

import pytest

from engine.cards import DECK, Card, Suit, format_cards, iter_cards, parse_cards, sort_cards
from engine.errors import InvalidCardsError, InvalidNotationError, WrongTypeError
from engine.hand import Hand


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("AS", "AS"), ("TD", "TD"), ("10d", "TD"), ("9♥", "9H"), ("q♣", "QC"), (" kh ", "KH")],
)
def test_parse_accepts_every_notation_and_prints_one(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["XS", "1", "", "AX", "11S", "A", "SS", "1S", "1h", "01S"])
def test_parse_rejects_non_cards_with_the_input_in_the_message(text):
    with pytest.raises(InvalidNotationError, match="not a card"):
        Card.parse(text)


def test_errors_are_value_errors():
    assert issubclass(InvalidNotationError, ValueError)
    assert issubclass(InvalidCardsError, ValueError)


def test_every_card_round_trips_and_is_shared():
    assert len(DECK) == 52 == len(set(DECK))
    for c in DECK:
        assert Card.parse(str(c)) is c
        assert eval(repr(c)) is c
        assert pickle.loads(pickle.dumps(c)) is c
        assert DECK[c.index] is c


def test_suit_properties():
    assert [s.char for s in Suit] == ["S", "H", "D", "C"]
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red and not Suit.CLUBS.is_red
    assert Suit.SPADES.is_major and Suit.HEARTS.is_major and not Suit.CLUBS.is_major


def test_parse_cards_checks_duplicates_and_count():
    assert format_cards(parse_cards("AS, 10d 9♥")) == "AS TD 9H"
    with pytest.raises(InvalidCardsError, match="duplicate card: AS"):
        parse_cards("AS as")
    with pytest.raises(InvalidCardsError, match="expected 5 cards, got 2"):
        parse_cards("AS KS", count=5)


def test_iter_cards_reads_a_mask():
    cards = parse_cards("AS 2C 7H")
    mask = sum(c.bit for c in cards)
    assert set(iter_cards(mask)) == set(cards)


def test_labels_for_screen_readers():
    assert Card.parse("TD").label == "10 of diamonds"
    assert Card.parse("TD").symbol == "10♦"


def test_cards_order_by_rank():
    assert not Card.parse("TS") < Card.parse("9S")
    assert Card.parse("9S") < Card.parse("TS") and Card.parse("AC") > Card.parse("KS")
    assert Card.parse("9S") <= Card.parse("9S") and Card.parse("TD") >= Card.parse("9H")


def test_the_suit_breaks_rank_ties_so_the_order_is_total_and_agrees_with_equality():
    ordered = sorted(DECK)
    assert [c.rank for c in ordered] == sorted(c.rank for c in DECK)
    assert len(set(ordered)) == 52
    for a, b in itertools.pairwise(ordered):
        assert a < b and a <= b and not b <= a and a != b
    assert [str(c) for c in sorted(parse_cards("2H 2S 2C 2D"))] == ["2S", "2H", "2D", "2C"]


def test_display_order_is_a_separate_key():
    cards = parse_cards("2S TH AS 9H 5C")
    assert format_cards(sort_cards(cards)) == "AS 2S TH 9H 5C"
    assert format_cards(sorted(cards)) == "2S 5C 9H TH AS"


def test_comparing_a_card_with_something_else_raises_type_error():
    with pytest.raises(TypeError):
        Card.parse("AS") < "KS"  # noqa: B015


def test_the_constructor_returns_the_shared_card():
    assert Card(10, Suit.DIAMONDS) is Card.parse("TD")
    assert Card(14, 0) is Card.parse("AS")
    assert {Card(r, s) for r in range(2, 15) for s in Suit} == set(DECK)


@pytest.mark.parametrize(
    ("rank", "suit"), [(1, Suit.SPADES), (15, 0), (7, 4), ("7", 0), (True, 0), (7, "S")]
)
def test_the_constructor_refuses_what_is_not_a_card(rank, suit):
    with pytest.raises(InvalidNotationError, match="not a card"):
        Card(rank, suit)


def test_cards_are_immutable():
    card = Card.parse("AS")
    with pytest.raises(AttributeError):
        card.rank = 2
    assert card.rank == 14


def test_a_hand_is_an_immutable_set_that_round_trips_through_text():
    hand = Hand.parse("KS 10d AS")
    assert str(hand) == "AS KS TD" and Hand.parse(str(hand)) == hand
    assert eval(repr(hand)) == hand and pickle.loads(pickle.dumps(hand)) == hand
    assert len(hand) == 3 and Card.parse("TD") in hand and Card.parse("QS") not in hand
    assert hand == set(parse_cards("AS KS TD")) and hash(hand) == hash(Hand(reversed(list(hand))))
    assert Hand.parse("AS") <= hand and not hand <= Hand.parse("AS")
    assert str(hand - Hand.parse("AS")) == "KS TD"
    assert str(hand | Hand.parse("2C")) == "AS KS TD 2C" and str(hand & {Card.parse("KS")}) == "KS"
    with pytest.raises(AttributeError):
        hand.mask = 0


def test_a_hand_refuses_duplicates_and_strings():
    with pytest.raises(InvalidCardsError, match="duplicate card: AS"):
        Hand.parse("AS as")
    with pytest.raises(WrongTypeError, match="not the string 'AS KS'"):
        Hand("AS KS")
