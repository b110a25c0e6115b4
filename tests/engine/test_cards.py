import pickle

import pytest

from engine.cards import DECK, Card, Suit, format_cards, iter_cards, parse_cards
from engine.errors import InvalidCardsError, InvalidNotationError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("AS", "AS"), ("TD", "TD"), ("10d", "TD"), ("9♥", "9H"), ("q♣", "QC"), (" kh ", "KH")],
)
def test_parse_accepts_every_notation_and_prints_one(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["XS", "1", "", "AX", "11S", "A", "SS"])
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
