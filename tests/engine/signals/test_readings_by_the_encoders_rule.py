"""A reading is kept only when some holding the reader cannot see leads the signal by the
encoder's own rule (``engine.signals.decoder.holding_leads``): the decoder, the reply guide,
the posterior and so every drill's key and options ask that one function."""

from __future__ import annotations

from engine.cards import DECK, card, parse_cards
from engine.drills import DrillParams, answer_key, make_drill
from engine.signals import CONVENTIONS, decode, encode
from engine.signals.posterior import posterior

PARLETT = CONVENTIONS["parlett-2008"]


def _unseen_spades_only(*spades: str) -> tuple:
    """Everything visible but the given spades (and the signal, which the caller adds)."""
    keep = {card(s) for s in spades}
    return tuple(c for c in DECK if c not in keep)


def test_six_then_seven_of_spades_is_no_four_flush_when_only_lower_spades_are_unseen():
    """♠6 then ♠7 shows four spades only when the 6 is the lowest of them: with ♠3 ♠4 ♠5 ♠10
    the only spades the reader cannot see, the two more spades would have to be higher than
    the 6, and only the 10 is. Three to a straight flush 6-7-10 is what is left."""
    signal = (card("6S"), card("7S"))
    visible = tuple(c for c in _unseen_spades_only("3S", "4S", "5S", "TS") if c not in signal)
    readings = [(str(r.item), r.shape) for r in decode(*signal, 4, PARLETT, visible)]
    assert ("four_flush", None) not in readings
    assert readings[0] == ("three_sf", "XX..X")
    # With the ♠9 unseen as well, four spades 6-7-9-10 would be four to a straight flush
    # first; with the ♠Q and ♠K unseen, 6-7-Q-K is four to a flush again.
    nine = tuple(c for c in visible if c != card("9S"))
    assert ("four_flush", None) not in [
        (str(r.item), r.shape) for r in decode(*signal, 4, PARLETT, nine)
    ]
    more = tuple(c for c in visible if c not in (card("QS"), card("KS")))
    assert ("four_flush", None) in [
        (str(r.item), r.shape) for r in decode(*signal, 4, PARLETT, more)
    ]


def test_the_read_drill_of_the_audit_keys_what_the_cards_allow():
    drill = make_drill("read", 5125666, DrillParams(side_hand=4, own_hand=True))
    key = answer_key(drill)
    assert "three to a straight flush" in str(key.explanation)
    # The posterior agrees: every hand of partner's that leads this way holds that reading.
    post = posterior(drill.signal, 4, len(drill.source), drill.visible, PARLETT, samples=200)
    assert [(o.item, o.shape) for o in post.items] == [("three_sf", "XX..X")]


def test_the_reply_drill_of_the_audit_completes_the_royal_straight_flush():
    """♣Q then ♣A with the reader seeing every other club but the 10 and K: partner holds
    10-Q-K-A of clubs (no four-flush lead would start from the Q), and the ♣J the replier
    holds completes a straight flush."""
    drill = make_drill(
        "reply",
        5167245,
        DrillParams(convention="parlett-2008", rule="contribution", side_hand=3),
    )
    key = answer_key(drill)
    assert key.accepted == ("JC",)
    assert "four to a straight flush" in str(key.explanation)
    assert "J♣ completes it" in str(key.explanation)


def test_a_wide_three_flush_lead_needs_a_holding_with_no_two_in_range():
    """On every card, ♠7 then ♠2 cannot be three spades led highest then lowest: its middle
    spade is always within four of one of them, and then that pair is led."""
    for conv in CONVENTIONS.values():
        readings = {str(r.item) for r in decode(card("7S"), card("2S"), 3, conv)}
        assert "three_flush" not in readings
        for middle in parse_cards("3S 4S 5S 6S"):
            assert (card("7S"), card("2S")) not in encode(
                [card("7S"), middle, card("2S")], 3, conv
            ).plays
        assert "three_flush" in {str(r.item) for r in decode(card("KS"), card("2S"), 3, conv)}


def test_a_holding_that_shows_an_earlier_item_first_is_no_reading():
    """♥A then ♥5 as four hearts: with only ♥2 ♥3 ♥4 ♥10 ♥Q ♥K unseen, every such holding
    holds three (or four) to a straight flush, which comes first on the checklist and is
    what the hand would show; so four to a flush is no reading, as the sampler finds."""
    signal = (card("AH"), card("5H"))
    unseen = {card(c) for c in ("2H", "3H", "4H", "TH", "QH", "KH")}
    visible = tuple(
        c for c in DECK if c.suit == signal[0].suit and c not in unseen and c not in signal
    )
    readings = {str(r.item) for r in decode(*signal, 3, PARLETT, visible)}
    assert "four_flush" not in readings and "five_sf" in readings
