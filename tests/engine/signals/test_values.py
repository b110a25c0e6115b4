"""Value types of the signal card (Signal, ChecklistItem, Convention's repr) and typed errors
for arguments of the wrong type."""

import json
import re

import pytest

from engine.cards import Card, card, parse_cards
from engine.errors import (
    ConcertoError,
    InvalidNotationError,
    UnknownConventionError,
    WrongTypeError,
)
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEMS,
    ChecklistItem,
    Signal,
    cheatsheet,
    decode,
    detect,
    encode,
    get_convention,
    primary_reading,
    reply_advice,
    signal_relations,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("6d 8D", "6D 8D"), ("7H pass", "7H pass"), ("10s PASS", "TS pass"), ("AS,KS", "AS KS")],
)
def test_a_signal_round_trips_through_text(text, canonical):
    signal = Signal.parse(text)
    assert str(signal) == canonical and Signal.parse(str(signal)) == signal
    assert eval(repr(signal)) == signal


def test_a_signal_is_the_pair_the_older_signatures_take():
    signal = Signal.parse("6D 8D")
    c1, c2 = signal
    assert (c1, c2) == signal and hash((c1, c2)) == hash(signal)
    assert signal.c1 is card("6D") and not signal.is_pass and Signal.parse("7H pass").is_pass
    assert (card("6D"), card("8D")) in {signal}


@pytest.mark.parametrize("text", ["6D", "6D 8D 9D", "6D 6D", "pass 6D", "6D XX", ""])
def test_a_bad_signal_is_refused_with_a_typed_error(text):
    with pytest.raises(InvalidNotationError):
        Signal.parse(text)


def test_signal_of_checks_its_cards():
    assert Signal.of(card("AS"), None) == (card("AS"), None)
    with pytest.raises(WrongTypeError):
        Signal.of("AS", None)
    with pytest.raises(InvalidNotationError, match="twice"):
        Signal.of(card("AS"), card("AS"))


def test_checklist_items_are_their_ids():
    assert [str(i) for i in ITEMS] == [i.value for i in ChecklistItem]
    assert ITEMS[0] == "five_sf" and ChecklistItem("one_pair") is ChecklistItem.ONE_PAIR
    assert json.dumps([ChecklistItem.FOURS]) == '["fours"]' and f"{ChecklistItem.FOURS}" == "fours"
    assert {"fours": 1}[ChecklistItem.FOURS] == 1
    assert eval(repr(ChecklistItem.FOUR_SF)) is ChecklistItem.FOUR_SF


def test_encoders_and_decoders_name_items_with_the_enum():
    enc = encode(parse_cards("2D 3D 4D 5D KS"), 1)
    assert enc.item is ChecklistItem.FOUR_SF
    assert detect(parse_cards("7C 7D 7H 7S")).item is ChecklistItem.FOURS
    assert primary_reading(*enc.plays[0], 1).item is ChecklistItem.FOUR_SF


def test_a_convention_repr_is_short_and_pastes_back():
    for convention in CONVENTIONS.values():
        text = repr(convention)
        assert len(text) < 60
        assert eval(text) is convention
    assert repr(DEFAULT_CONVENTION) == "get_convention('parlett-2008')"


def test_an_unknown_convention_name_is_a_typed_error():
    with pytest.raises(UnknownConventionError, match="not a convention: 'nope'"):
        get_convention("nope")
    assert issubclass(UnknownConventionError, InvalidNotationError)


HAND = parse_cards("5S 4S 2S AS KH")
C1, C2 = card("4S"), card("8S")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: encode("5S 4S 2S AS KH", 1), "encode() takes cards, not the string '5S 4S"),
        (lambda: encode(["5S", "4S"], 1), "encode() takes cards, not the string '5S'"),
        (lambda: encode(HAND, 1, "nope"), "encode() takes a Convention; 'nope' is not one"),
        (lambda: encode(HAND, 1, "parlett-2008"), "use get_convention"),
        (lambda: encode(HAND, 1, 3), "encode() takes a Convention, not int 3"),
        (lambda: encode(42, 1), "encode() takes cards, not int 42"),
        (lambda: decode(C1, C2, 3, "nope"), "decode() takes a Convention; 'nope' is not one"),
        (lambda: decode("4S", C2, 3), "decode() takes a Card, not the string '4S'"),
        (lambda: decode(C1, "8S", 3), "decode() takes a Card, not the string '8S'"),
        (lambda: decode(C1, C2, 3, visible="5S 6S"), "decode() takes cards"),
        (lambda: primary_reading(C1, None, 3, "nope"), "'nope' is not one"),
        (lambda: detect("AS KS"), "detect() takes cards, not the string 'AS KS'"),
        (lambda: reply_advice("AS KS", C1, C2, 3), "reply_advice() takes cards"),
        (lambda: reply_advice(HAND, C1, C2, 3, "nope"), "'nope' is not one"),
        (lambda: cheatsheet("nope"), "cheatsheet() takes a Convention; 'nope'"),
        (lambda: signal_relations("AS", None), "signal_relations() takes a Card"),
    ],
)
def test_wrong_arguments_raise_typed_errors_naming_them(call, message):
    with pytest.raises(ConcertoError, match=re.escape(message)) as info:
        call()
    assert isinstance(info.value, ValueError)


def test_wrong_types_are_also_type_errors():
    with pytest.raises(TypeError):
        encode("5S", 1)
    assert Card.parse("AS") in HAND
