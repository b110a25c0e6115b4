"""The worked examples of docs/signals.md, in both conventions where they differ."""

import pytest

from engine.cards import card, parse_cards
from engine.errors import ConcertoError, InvalidNotationError
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    ITEM_TITLES,
    ITEMS,
    decode,
    detect,
    encode,
    get_convention,
    primary_reading,
    signal_relations,
)

P2008 = CONVENTIONS["parlett-2008"]
T1994 = CONVENTIONS["teach-yourself-1994"]


def plays(text, side=1, conv=P2008):
    enc = encode(parse_cards(text), side, conv)
    return enc.item, enc.shape, [f"{a} {b if b else 'pass'}" for a, b in enc.plays]


def items(c1, c2, side, conv=P2008, visible=""):
    return [
        (r.item, r.shape)
        for r in decode(card(c1), card(c2) if c2 else None, side, conv, parse_cards(visible))
    ]


def test_catalogue():
    assert ITEMS[0] == "five_sf" and ITEMS[-1] == "one_pair" and len(ITEMS) == 15
    assert set(ITEM_FAMILY) == set(ITEMS)
    assert set(ITEMS) | {"none"} == set(ITEM_TITLES)
    assert ITEM_TITLES["four_sf"] == "Four to a straight flush"
    assert DEFAULT_CONVENTION is P2008
    assert get_convention("teach-yourself-1994") is T1994
    with pytest.raises(InvalidNotationError, match="nope"):
        get_convention("nope")


@pytest.mark.parametrize("side", [0, 5, -1])
def test_side_hand_must_be_1_to_4(side):
    with pytest.raises(ConcertoError):
        encode(parse_cards("2S 3S"), side)
    with pytest.raises(ConcertoError):
        decode(card("2S"), card("3S"), side)


@pytest.mark.parametrize("conv", [P2008, T1994])
@pytest.mark.parametrize(
    ("hand", "item", "shape", "preferred"),
    [
        ("AS 2S 3S 4S 5S", "five_sf", "XXXXX", "AS 5S"),
        ("2D 3D 4D 5D", "four_sf", "XXXX", "2D 5D"),
        ("AC 3C 4C 5C", "four_sf", "X.XXX", "3C 5C"),
        ("3H 4H 5H 7H", "four_sf", "XXX.X", "3H 5H"),
        ("5S 4S 2S AS", "four_sf", "XX.XX", "5S 2S"),
        ("4H 5H 7H", "three_sf", "XX.X", "4H 5H"),
        ("5H 4H 2H", "three_sf", "X.XX", "5H 4H"),
        ("5H 4H 3H", "three_sf", "XXX", "5H 3H"),
        ("5H 3H AH", "three_sf", "X.X.X", "5H AH"),
    ],
)
def test_straight_flush_examples(conv, hand, item, shape, preferred):
    got_item, got_shape, got = plays(hand, 1, conv)
    assert (got_item, got_shape, got[0]) == (item, shape, preferred)
    for p in got:
        a, b = p.split()
        assert (item, shape) in items(a, None if b == "pass" else b, 1, conv)


def test_xx_xx_has_two_plays():
    assert plays("5S 4S 2S AS")[2] == ["5S 2S", "4S AS"]
    # 1994: high-then-low d=4 also shows four with one hole.
    assert plays("5S 4S 2S AS", conv=T1994)[2] == ["5S 2S", "4S AS", "5S AS"]


def test_five_sf_detected_with_its_cards():
    d = detect(parse_cards("AS 2S 3S 4S 5S KH"))
    assert (d.item, d.shape) == ("five_sf", "XXXXX")
    assert sorted(map(str, d.cards)) == ["2S", "3S", "4S", "5S", "AS"]


def test_read_red_4_black_4_is_two_pair():
    assert items("4H", "4S", 1)[0] == ("two_pair", None)
    assert items("4D", "4C", 3)[0] == ("two_pair", None)


def test_read_red_4_black_7_full_house_or_straight():
    assert items("4H", "7S", 1) == [("full_house", None), ("four_straight", None)]


def test_read_red_4_black_jack_full_house():
    assert items("4H", "JS", 1) == [("full_house", None)]
    assert "three 4s and two Jacks" in decode(card("4H"), card("JS"), 1)[0].text


def test_weak_round_flush_examples():
    assert items("4D", "JD", 3)[0] == ("five_flush", None)
    assert items("JD", "4D", 3)[0] == ("two_pair", None)
    assert items("4S", "8S", 3)[0] == ("four_flush", None)
    assert items("8S", "4S", 3)[0] == ("three_flush", None)


def test_weak_round_straight_examples():
    assert items("4S", "8H", 3)[0] == ("five_straight", None)
    assert items("4S", "6H", 3)[0] == ("four_straight", None)
    assert items("8S", "4H", 3)[0] == ("three_straight", None)


def test_encoder_weak_examples():
    assert plays("4D 7D 9D JD QD KS")[0:2] == ("three_sf", "X.XX")  # strong item comes first
    assert plays("2D 6D 7D JD QD")[2] == ["2D QD"]
    assert plays("4S 5H 6D 7C 8H")[2] == ["4S 8H"]
    assert plays("4S 5C 6H 8C")[:3] == ("four_straight", None, ["4S 5C", "5C 6H", "4S 6H", "6H 8C"])


def test_strong_round_puts_strong_family_first():
    assert items("8S", "4S", 1)[0] == ("three_sf", "X.X.X")
    assert items("4S", "8S", 1)[0] == ("five_sf", "XXXXX")


def test_fours_differs_between_conventions():
    assert plays("7S 7H 7D 7C")[2] == ["7H 7D"]
    assert items("7H", "7D", 1) == [("fours", None)]
    assert items("7S", "7D", 1) == [("two_pair", None)]
    # 1994: four of a kind has no signal: the leader plays it out at once, any two of the
    # four in either order; partner reads those two cards as two pair.
    item, shape, leads = plays("7S 7H 7D 7C 2D KS", conv=T1994)
    assert (item, shape) == ("fours", None)
    assert sorted(leads) == sorted(
        f"{a} {b}" for a in ("7S", "7H", "7D", "7C") for b in ("7S", "7H", "7D", "7C") if a != b
    )
    assert encode(parse_cards("7S 7H 7D 7C"), 1, T1994).played_out
    assert not encode(parse_cards("7S 7H 7D 7C"), 1).played_out
    assert items("7H", "7D", 1, T1994) == [("two_pair", None)]


def test_two_pair_differs_between_conventions():
    assert plays("JS JH 4C 4D")[2] == ["JS JH", "JH JS", "4C 4D", "4D 4C", "JS 4C", "JH 4D"]
    assert plays("JS JH 4C 4D", conv=T1994)[2] == ["JS JH", "JH JS", "4C 4D", "4D 4C"]
    # Three spread-out diamonds are led highest then lowest only when no two are in range: a
    # J-to-4 holding always has two in range, so ♦J then ♦4 is no reading; ♦K then ♦2 is.
    assert items("JD", "4D", 3, T1994) == []
    assert items("KD", "2D", 3, T1994) == [("three_flush", None)]
    # Preferred: black before red; with one colour, minor before major.
    assert plays("9H 9D 3S 3H")[2][0] == "9D 9H"
    assert plays("9S 9C 3H 3D")[2][0] == "9C 9S"


def test_threes_and_one_pair_pass_signals():
    assert plays("7S 7D 7H")[2] == ["7H pass"]
    assert plays("7S 7D 7C")[2] == ["7D pass"]
    assert plays("7H 7D 2S")[2] == ["7D pass"]
    assert plays("7S 7C 2H")[2] == ["7S pass", "7C pass"]
    assert items("7H", None, 1) == [("threes", None)]
    assert items("7D", None, 1) == [("threes", None), ("one_pair", None)]
    assert items("7S", None, 1) == [("one_pair", None)]


def test_two_threes_and_full_house():
    item, _, got = plays("4S 4H 4D 9C 9S 9H")
    assert item == "two_threes" and got
    for p in got:
        a, b = map(card, p.split())
        rel = signal_relations(a, b)
        assert rel.suit == "same_colour"
    item, _, got = plays("4S 4H 4D 9C 9S")
    assert item == "full_house" and all(card(p.split()[0]).rank == 4 for p in got)


def test_ace_effects():
    # five_flush whose lowest and highest are in range: lowest then a card five or more away.
    item, _, got = plays("2C 7C 8C QC AC")
    assert item == "five_flush" and got == ["2C QC", "2C 8C", "2C 7C"]
    assert signal_relations(card("AS"), card("5S")).direction == "up"
    assert signal_relations(card("AS"), card("KS")).direction == "down"
    assert signal_relations(card("AS"), card("6S")).distance == 5
    assert signal_relations(card("AS"), card("6S")).direction == "down"
    assert plays("AS 2H 3C")[2] == ["3C AS"]


def test_none_and_primary():
    assert plays("KS 2H") == ("none", None, [])
    assert primary_reading(card("2S"), card("KH"), 1).item == "full_house"
    assert primary_reading(card("7H"), card("7D"), 1, visible=parse_cards("7S")) is None
