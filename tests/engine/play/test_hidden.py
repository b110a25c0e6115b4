"""The hidden-information rule of the play table: nothing South is shown before the end names a
card South cannot see (South's own cards and the cards played so far in the deal)."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.game import PASS
from engine.play import (
    IllegalPlay,
    PlaySetup,
    PlayTable,
    coach_lead,
    coach_read,
    grade_read,
    record_json,
    review,
)
from engine.scoring import CLASSIC, CONTRIBUTION
from engine.seats import Seat
from engine.signals import CONVENTIONS

_CODE = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA])([SHDC])(?![0-9A-Za-z])")
_SYMBOL = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def named_cards(payload: object) -> set[Card]:
    """Every card a JSON payload names, as a code (``7H``) or with a suit symbol (``7♥``)."""
    found: set[Card] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            found |= named_cards(key) | named_cards(value)
    elif isinstance(payload, (list, tuple)):
        for value in payload:
            found |= named_cards(value)
    elif isinstance(payload, str):
        for rank, suit in _CODE.findall(payload):
            found.add(Card.parse(rank + suit))
        for rank, suit in _SYMBOL.findall(payload):
            found.add(Card.parse(("T" if rank == "10" else rank) + _SUITS[suit]))
    return found


def visible_to_south(table: PlayTable) -> set[Card]:
    """South's dealt hand (held or played) and every card played so far in the current deal."""
    deal = table.deal
    seen = set(deal.hands_dealt[Seat.S])
    seen |= {c for hand in deal.played_hands for c in hand.card_list}
    seen |= {c for _, c in deal.current_cards}
    return seen


def check(table: PlayTable, payload: dict, where: str) -> None:
    """``payload`` names no hidden card of the current deal. Deals already over (a game's
    ``finished_deals``) are public and skipped, after checking that they are over."""
    payload = json.loads(json.dumps(payload))
    finished = payload.pop("finished_deals", [])
    for deal in finished:
        assert table.deals[deal["deal_number"] - 1].is_terminal(), where
    if table.is_over():
        return
    hidden = named_cards(payload) - visible_to_south(table)
    assert not hidden, f"{where} shows {sorted(map(str, hidden))}"


def check_steps(table: PlayTable, steps) -> None:
    for step in steps:
        if step.deal_number == table.deal_number:
            check(table, step.to_json(), f"step {step}")


def play_checking(table: PlayTable, steps, rng: random.Random, passes: float) -> None:
    """Play South (random legal actions, passing with odds ``passes`` when allowed so that
    partner's signals happen) and check every payload at every moment."""
    check_steps(table, steps)
    while not table.is_over():
        check(table, table.view().to_json(), "view")
        advice = coach_lead(table)
        if advice is not None:
            check(table, advice.to_json(), "coach_lead")
        quiz = coach_read(table)
        if quiz is not None:
            check(table, quiz.to_json(), "coach_read")
            attempt = grade_read(table, rng.choice(quiz.option_keys))
            check(table, attempt.to_json(), "grade_read")
        for attempt in table.attempts():
            if attempt.deal_number == table.deal_number:
                check(table, attempt.to_json(), "attempts")
        for summary in table.summaries():
            if summary.deal_number == table.deal_number:
                check(table, summary.to_json(), "summary")
        if table.deal_number == 1 and not table.deals[0].is_terminal():
            with pytest.raises(IllegalPlay):
                record_json(table.setup, table.actions)
            with pytest.raises(IllegalPlay):
                review(table.setup, table.actions)
        legal = table.legal()
        action = PASS if PASS in legal and rng.random() < passes else rng.choice(legal)
        steps = table.act(action)
        check_steps(table, steps)


setups = st.builds(
    PlaySetup,
    seed=st.integers(min_value=0, max_value=2**40),
    rule=st.sampled_from([CLASSIC, CONTRIBUTION]),
    convention=st.sampled_from(sorted(CONVENTIONS)),
    opponents=st.sampled_from(["greedy", "signal"]),
    opponents_convention=st.sampled_from(sorted(CONVENTIONS)),
    game=st.just(False),
)


@settings(max_examples=40, deadline=None)
@given(setup=setups, south=st.integers(min_value=0, max_value=2**32), passes=st.floats(0, 1))
def test_nothing_south_is_shown_names_a_hidden_card(setup, south, passes):
    table, steps = PlayTable.start(setup)
    play_checking(table, steps, random.Random(south), passes)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), south=st.integers(0, 2**32))
def test_nothing_south_is_shown_in_a_game_names_a_hidden_card(seed, south):
    table, steps = PlayTable.start(PlaySetup(seed=seed, game=True, opponents="signal"))
    play_checking(table, steps, random.Random(south), 0.7)


def test_the_check_finds_a_hidden_card():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    payload = table.view().to_json()
    north = table.deal.held(Seat.N)[0]
    payload["note"] = f"partner holds {north.symbol}"
    with pytest.raises(AssertionError, match="shows"):
        check(table, payload, "tampered view")
    with pytest.raises(AssertionError, match="shows"):
        check(table, {**table.view().to_json(), "extra": [str(north)]}, "tampered view")


def test_named_cards_reads_codes_and_symbols_not_words():
    assert named_cards({"a": ["7H", "10♠ and K♦"], "b": "NS EW four_sf 2-3-4-5"}) == {
        Card.parse("7H"),
        Card.parse("TS"),
        Card.parse("KD"),
    }
