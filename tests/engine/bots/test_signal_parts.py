"""The signal bot's parts: each strength plays every action, and reads every signal, as it was
recorded to, and a bot with one part replaced plays otherwise."""

import hashlib
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from engine.bots import make_bot
from engine.bots.signal import (
    BEGINNER,
    PARTS,
    STANDARD,
    STRENGTHS,
    STRONG,
    Parts,
    SignalBot,
    first_item,
    given_signal,
    hand_fill,
    hidden_pair_guess,
    read_by_card,
    reply_by_guide,
)
from engine.game import DealState
from engine.seats import SEATS

CONVENTIONS = ("parlett-2008", "teach-yourself-1994")
RULES = ("classic", "contribution")

#: Digests of :func:`play_digest`, recorded from the bot before it was built from parts, by
#: (strength, partner_leads, convention, rule, deals).
DIGESTS = {
    (BEGINNER, "bot", "parlett-2008", "classic", 300): "cbf6b35111c26acd",
    (BEGINNER, "bot", "parlett-2008", "contribution", 300): "5d8864c61f6c582f",
    (BEGINNER, "bot", "teach-yourself-1994", "classic", 300): "1be99cd7c0b04590",
    (BEGINNER, "bot", "teach-yourself-1994", "contribution", 300): "1af972b393a66e62",
    (STANDARD, "bot", "parlett-2008", "classic", 300): "7c363c30e0d25a43",
    (STANDARD, "bot", "parlett-2008", "contribution", 300): "780c70e0751f6580",
    (STANDARD, "bot", "teach-yourself-1994", "classic", 300): "252719b5e42dadb9",
    (STANDARD, "bot", "teach-yourself-1994", "contribution", 300): "b9cfee045ff10064",
    (STRONG, "bot", "parlett-2008", "classic", 20): "88ed2c8d92be9254",
    (STRONG, "bot", "parlett-2008", "contribution", 20): "3f7e8ad898077be6",
    (STRONG, "bot", "teach-yourself-1994", "classic", 20): "88ed2c8d92be9254",
    (STRONG, "bot", "teach-yourself-1994", "contribution", 20): "41a9e97384d0865b",
    (STRONG, "card", "parlett-2008", "classic", 20): "d2f3b6df89554aca",
    (STRONG, "card", "parlett-2008", "contribution", 20): "642b9a490f96bd5b",
    (STRONG, "card", "teach-yourself-1994", "classic", 20): "6176b86a41b3c796",
    (STRONG, "card", "teach-yourself-1994", "contribution", 20): "70d9e27ce28fac94",
    (STRONG, "bot", "parlett-2008", "classic", 300): "88b1fa49c76ba95f",
    (STRONG, "bot", "parlett-2008", "contribution", 300): "3fd44d4e0fe581ef",
    (STRONG, "bot", "teach-yourself-1994", "classic", 300): "43b18bba5bb9b57b",
    (STRONG, "bot", "teach-yourself-1994", "contribution", 300): "56f0517ff7e76b5f",
    (STRONG, "card", "parlett-2008", "classic", 300): "1f02df9790dbeb27",
    (STRONG, "card", "parlett-2008", "contribution", 300): "19c7656ef7f184fb",
    (STRONG, "card", "teach-yourself-1994", "classic", 300): "21d6ab01060dd0ca",
    (STRONG, "card", "teach-yourself-1994", "contribution", 300): "1a2f144fc27b2bf9",
}


def play_digest(bot_of: Callable[[str], SignalBot], convention: str, rule: str, deals: int) -> str:
    """Deals 0 .. ``deals`` - 1 (dealer by the seed), four bots of ``bot_of(convention)``: a
    hash of every action chosen and of every reading of a signal just completed."""
    digest = hashlib.sha256()
    bots = {seat: bot_of(convention) for seat in SEATS}
    for seed in range(deals):
        state = DealState.deal(SEATS[seed % 4], random.Random(seed), rule)
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            obs = state.observation(seat)
            bot = bots[seat]
            if len(obs.current_actions) == 3 and given_signal(obs) is not None:
                digest.update(f"{bot.reading(obs)}|".encode())
            action = bot.choose(obs, obs.legal_actions)
            digest.update(f"{action};".encode())
            state.apply_action(action)
    return digest.hexdigest()[:16]


def _strength(strength: str, partner_leads: str = "bot") -> Callable[[str], SignalBot]:
    return lambda convention: SignalBot(convention, strength=strength, partner_leads=partner_leads)


def _built(parts: Parts, partner_leads: str = "bot") -> Callable[[str], SignalBot]:
    return lambda convention: SignalBot(convention, partner_leads=partner_leads, parts=parts)


def _cases(deals: int, strengths: tuple[tuple[str, str], ...]) -> list[tuple[str, ...]]:
    return [
        (strength, leads, convention, rule)
        for strength, leads in strengths
        for convention in CONVENTIONS
        for rule in RULES
        if (strength, leads, convention, rule, deals) in DIGESTS
    ]


@pytest.mark.parametrize(
    ("strength", "partner_leads", "convention", "rule"),
    _cases(300, ((BEGINNER, "bot"), (STANDARD, "bot"))),
)
def test_the_beginner_and_standard_partners_play_as_recorded(
    strength, partner_leads, convention, rule
):
    got = play_digest(_strength(strength, partner_leads), convention, rule, 300)
    assert got == DIGESTS[(strength, partner_leads, convention, rule, 300)]


@pytest.mark.parametrize(
    ("strength", "partner_leads", "convention", "rule"),
    _cases(20, ((STRONG, "bot"), (STRONG, "card"))),
)
def test_the_strong_partner_plays_as_recorded(strength, partner_leads, convention, rule):
    got = play_digest(_strength(strength, partner_leads), convention, rule, 20)
    assert got == DIGESTS[(strength, partner_leads, convention, rule, 20)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strength", "partner_leads", "convention", "rule"),
    _cases(300, ((STRONG, "bot"), (STRONG, "card"))),
)
def test_the_strong_partner_plays_as_recorded_over_300_deals(
    strength, partner_leads, convention, rule
):
    got = play_digest(_strength(strength, partner_leads), convention, rule, 300)
    assert got == DIGESTS[(strength, partner_leads, convention, rule, 300)]


def test_each_strength_is_built_from_its_parts_and_named_by_them():
    assert tuple(PARTS) == STRENGTHS
    for strength in STRENGTHS:
        bot = SignalBot(strength=strength)
        assert bot.parts is PARTS[strength] and bot.name == PARTS[strength].name
    assert [make_bot(n).name for n in ("beginner", "signal", "strong")] == [
        "beginner",
        "signal",
        "strong",
    ]
    # A bot built from a strength's parts plays as that strength.
    key = (STRONG, "card", "parlett-2008", "contribution", 20)
    assert play_digest(_built(PARTS[STRONG], "card"), *key[2:]) == DIGESTS[key]


#: One part replaced at a time, on the strength whose recorded digest then changes.
_VARIANTS = {
    "standard, lead by the first item": (STANDARD, {"lead": first_item}),
    "standard, no guess for a hidden pair": (STANDARD, {"on_force": (), "on_pass": ()}),
    "standard, no long shot": (STANDARD, {"on_pass": (hidden_pair_guess,)}),
    "strong, read by the card": (STRONG, {"reading": read_by_card}),
    "strong, reply by the guide": (STRONG, {"reply": reply_by_guide}),
    "strong, fill for the hand": (STRONG, {"fill": hand_fill}),
}


@pytest.mark.parametrize("variant", list(_VARIANTS))
def test_a_bot_with_one_part_replaced_plays_otherwise(variant):
    strength, changes = _VARIANTS[variant]
    deals = 300 if strength == STANDARD else 20
    key = (strength, "bot", "parlett-2008", "classic", deals)
    parts = replace(PARTS[strength], **changes)
    assert play_digest(_built(parts), *key[2:]) != DIGESTS[key]
