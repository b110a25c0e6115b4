"""The posterior's lead filter: it never rejects a hand that leads the signal, and a hand's
key weighs as the hand does (checked against the encoder on random hands)."""

import random

import pytest

from engine.cards import DECK, card, cards_mask, parse_cards
from engine.hand import Hand
from engine.signals import CONVENTIONS, encode
from engine.signals.checklist import find_instances
from engine.signals.lead_filter import first_item, lead_filter
from engine.signals.posterior import _Scorer

CONVENTION_NAMES = ("parlett-2008", "teach-yourself-1994")


def random_hands(seed, count, sizes=(1, 13), first=None, conv=None):
    rng = random.Random(seed)
    made = 0
    while made < count:
        hand = rng.sample(DECK, rng.randint(*sizes))
        mask = cards_mask(hand)
        if first and not first_item(mask, conv.checklist).endswith(first):
            continue
        made += 1
        yield rng, hand, mask


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
def test_first_item_is_the_checklists(conv_name):
    conv = CONVENTIONS[conv_name]
    for _, _, mask in random_hands(f"first:{conv_name}", 3000):
        assert first_item(mask, conv.checklist) == find_instances(mask, conv.checklist)[0]


def test_first_item_refuses_an_unknown_checklist():
    with pytest.raises(ValueError, match="unknown checklist item"):
        first_item(0, ("five_sf", "bridge_slam"))


class Checker:
    """The filter's and the reference scorer's answers for many signals, memoised."""

    def __init__(self, conv):
        self.conv = conv
        self.made = {}

    def __call__(self, play, model):
        found = self.made.get((play, model))
        if found is None:
            found = self.made[(play, model)] = (
                lead_filter(play, self.conv, preferred=model == "preferred"),
                _Scorer(play, 1, self.conv, model, reference=True),
            )
        return found

    def check(self, hand, mask, play, model):
        """A hand that leads ``play`` is never rejected, and its key weighs as it does."""
        lead, scorer = self(play, model)
        want = scorer.score(mask, hand)
        key = lead(mask)
        if not key:
            assert want[0] == 0, (hand, play, model)
            return False
        assert key & mask == key
        got = scorer.score(key, list(Hand.from_mask(key)))
        if want[0] or got[0]:
            assert got == want, (format_hand(hand), play, model)
        if model == "any" and got[0]:
            # Under "any" the key keeps every holding: its whole encoding is the hand's.
            assert encode(Hand.from_mask(key), 1, self.conv) == encode(hand, 1, self.conv)
        return bool(want[0])


def format_hand(hand):
    return " ".join(str(c) for c in hand)


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
def test_no_hand_leading_the_signal_is_rejected(conv_name, model):
    conv = CONVENTIONS[conv_name]
    checker = Checker(conv)
    led = 0
    for rng, hand, mask in random_hands(f"lead:{conv_name}:{model}", 1500):
        plays = list(encode(hand, 1, conv).plays)
        others = [(rng.choice(hand), rng.choice([*hand, None])) for _ in range(3)]
        for play in plays + [p for p in others if p[0] is not p[1]]:
            led += checker.check(hand, mask, play, model)
    assert led > 600


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
def test_straight_flush_keys_across_suits(conv_name, model):
    """Big hands whose first item is a straight-flush item, often with holdings in several
    suits: the key of the ``preferred`` model keeps one holding per suit."""
    conv = CONVENTIONS[conv_name]
    checker = Checker(conv)
    several = 0
    for _, hand, mask in random_hands(f"sf:{conv_name}", 700, (8, 13), "_sf", conv):
        plays = encode(hand, 1, conv).plays
        several += len({c.suit for p in plays for c in p if c is not None}) > 1
        for play in plays:
            checker.check(hand, mask, play, model)
    assert several > 50


def test_examples():
    conv = CONVENTIONS["parlett-2008"]
    key = lead_filter((card("4H"), card("5H")), conv)
    assert key(cards_mask(parse_cards("4H 5H 7H 9S 9D 2C"))) == cards_mask(parse_cards("4H 5H 7H"))
    # Threes come before three to a straight flush: no hand with three 9s leads ♥4 ♥5.
    assert key(cards_mask(parse_cards("4H 5H 9S 9D 9C"))) == 0
    # No row of two pair shows a ♥4 then ♥5.
    assert key(cards_mask(parse_cards("4H 5H 4S 5S 9C"))) == 0


def test_docstring_examples_hold():
    import doctest

    import engine.signals.lead_filter as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted >= 4
