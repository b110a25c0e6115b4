"""The side's last hand played for the deal: left-overs and the hand-score comparison."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.deal_end import Stakes, deal_worth, last_fill, six_value, their_end
from engine.bots.hands import best_fill
from engine.bots.odds_reading import Position, odds_plan
from engine.cards import DECK, parse_cards
from engine.scoring import (
    CLASSIC,
    CONTRIBUTION,
    Combination,
    best_five,
    leftover_bonus,
    leftover_value,
    rule_values,
)
from engine.seats import Seat, Side

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=400, deadline=None)
@given(seed=seeds)
def test_six_cards_are_worth_their_left_over_value(seed):
    """The fast value of six cards is :func:`leftover_value`'s (three pairs included), under
    the classic rule and, for the combinations it does not split, the contribution rule."""
    six = random.Random(seed).sample(DECK, 6)
    expected = leftover_value(six, CLASSIC)
    assert six_value(six, rule_values(CLASSIC), 6) == expected.value
    if expected.combination not in (Combination.FOURS, Combination.STRAIGHT_FLUSH):
        assert six_value(six, rule_values(CONTRIBUTION), 6) == expected.value


@settings(max_examples=150, deadline=None)
@given(seed=seeds, count=st.sampled_from([6, 11]))
def test_the_other_side_plays_its_best_five_and_keeps_the_rest(seed, count):
    cards = random.Random(seed).sample(DECK, count)
    points, left = their_end(cards, rule_values(CLASSIC), 6)
    if count == 6:
        assert (points, left) == (0, leftover_value(cards).value)
    else:
        assert points == CLASSIC.values[best_five(cards)[0]]
        assert 0 <= left <= 8


def test_the_other_side_never_holds_more_than_eleven_cards_in_its_last_hand():
    with pytest.raises(ValueError, match="at most eleven"):
        their_end(DECK[:12], rule_values(CLASSIC), 6)


@pytest.mark.parametrize(
    ("points", "ours", "theirs", "stakes", "expected"),
    [
        # Ahead after the hand: the other side's left-overs, ten times.
        (3, 1, (0, 2), Stakes(20, 20), 3 + 20),
        # Behind: ours, ten times, against us.
        (3, 1, (0, 2), Stakes(10, 20), 3 - 10),
        # Their last hand still to come: its points count against us, and decide who is ahead.
        (3, 1, (5, 2), Stakes(20, 20), 3 - 5 - 10),
        # Equal hand scores: the better left-overs lose ...
        (3, 1, (0, 2), Stakes(17, 20), 3 + 20),
        (3, 2, (0, 1), Stakes(17, 20), 3 - 20),
        # ... and equal values are taken as no bonus.
        (3, 1, (0, 1), Stakes(17, 20), 3),
    ],
)
def test_the_deal_worth_of_a_last_hand_is_its_points_and_the_left_over_bonus(
    points, ours, theirs, stakes, expected
):
    assert deal_worth(points, ours, theirs, stakes) == expected
    # The same as the rules' bonus for left-overs of those values, whoever is ahead.
    us, them = stakes.ours + points, stakes.theirs + theirs[0]
    ns = {0: "2C 3D 5H 7S 9C JD", 1: "2C 2D 5H 7S 9C JD", 2: "2C 2D 5H 5S 9C JD"}
    ew = {0: "2H 3S 5C 7D 9H JS", 1: "3H 3S 6C 7D 9H JS", 2: "3H 3S 6C 6D 9H JS"}
    bonus = leftover_bonus(
        {Side.NS: us, Side.EW: them},
        {Side.NS: parse_cards(ns[ours]), Side.EW: parse_cards(ew[theirs[1]])},
    )
    if ours != theirs[1] or us != them:
        assert deal_worth(points, ours, theirs, stakes) == (
            points - theirs[0] + bonus[Side.NS] - bonus[Side.EW]
        )


#: The side's last hand: North led two spades and holds three more and a pair of sevens;
#: South keeps four cards; the other side's hands are over, and it keeps six.
TABLE = [(Seat.N, c) for c in parse_cards("2S 5S")]
OWN = parse_cards("8S JS 9S 7D 7C")
UNSEEN = parse_cards("AH KD QC 4H 3D TC 6H KC 4C TH")
SEEN = [c for c in DECK if c not in {*OWN, *UNSEEN, *(c for _, c in TABLE)}]


@pytest.mark.parametrize(
    ("stakes", "flush"),
    [
        (Stakes(10, 60), False),  # hopeless: the sevens go, so that they are not left over
        (Stakes(60, 10), True),  # won anyway: the most points
        (Stakes(20, 24), True),  # the flush wins the hand scores, the pair loses them
    ],
)
def test_the_last_hand_is_completed_for_the_deal(stakes, flush):
    fill = last_fill(TABLE, OWN, Seat.N, 4, SEEN, stakes, CLASSIC)
    assert fill is not None and len(fill) == 3 and set(fill) <= set(OWN)
    made_flush = set(fill) == set(parse_cards("8S JS 9S"))
    assert made_flush is flush
    if not flush:
        assert set(parse_cards("7D 7C")) <= set(fill)
    # The hand's points alone always make the flush.
    assert set(best_fill(TABLE, OWN, Seat.N, CLASSIC).cards) == set(parse_cards("8S JS 9S"))


def test_the_last_fill_needs_enough_cards_and_is_seeded_by_the_position():
    assert last_fill(TABLE, OWN[:2], Seat.N, 4, SEEN, Stakes(0, 0), CLASSIC) is None
    # The same position gives the same fill (the draws are seeded by it).
    first = last_fill(TABLE, OWN, Seat.N, 4, SEEN, Stakes(10, 60), CLASSIC)
    assert last_fill(TABLE, OWN, Seat.N, 4, SEEN, Stakes(10, 60), CLASSIC) == first


def _last_hand(signal, own, rest, others, stakes):
    """North led ``signal`` in the side's last hand holding ``rest`` too (the one kept hand);
    South holds ``own``; the other side keeps ``others``; every other card is seen."""
    signal, own, rest = (tuple(parse_cards(cards)) for cards in (signal, own, rest))
    hidden = {*signal, *own, *rest, *parse_cards(others)}
    position = Position(
        signal=signal,
        own=own,
        seat=Seat.S,
        leader=Seat.N,
        seen=tuple(c for c in DECK if c not in hidden),
        size=len(signal) + len(rest),
        side_hand=4,
        rule=CLASSIC,
        stakes=stakes,
    )
    return position, [((*signal, *rest), signal)]


def _sevens(stakes):
    """North led the pair 9♠ 9♥ in the side's last hand; South holds a nine and a pair of
    sevens, North three more cards (the kept hand); the other side keeps six."""
    return _last_hand("9S 9H", "9C 7D 7C 2D 5H JS", "KD 3S 8H", "AH QC 4H TC 6H KC", stakes)


def test_the_strong_reply_in_the_last_hand_weighs_the_left_overs():
    """Hopeless, South plays its nine (threes) and a seven, so that the sevens are not
    left over as a pair; for the points alone the nine is enough (a seven adds nothing), and
    so it is with the hand scores won anyway, or before the last hand."""
    nine = tuple(parse_cards("9C"))
    position, kept = _sevens(Stakes(10, 60))
    plan = odds_plan(position, kept)
    assert len(plan) == 2 and nine[0] in plan and {c.rank for c in plan} == {9, 7}
    assert odds_plan(position, kept, for_the_deal=False) == nine
    won, kept = _sevens(Stakes(60, 10))
    assert odds_plan(won, kept) == nine
    earlier = dataclasses.replace(position, stakes=None)
    assert odds_plan(earlier, kept) == nine
    # The stakes are part of the position's seed: another score, another plan.
    assert len({position.seed(), won.seed(), earlier.seed()}) == 3


def test_the_strong_reply_in_the_last_hand_may_play_a_pair_of_its_own():
    """Behind 16 to 30, North leads A♦ Q♦ holding Q♠ 2♦ 4♣ 8♣ 7♥ K♣ too; South, with 9♠ 9♣
    Q♣, plays both nines (two pair, and no pair of nines left over for the other side's
    bonus). Neither nine pair is part of any completion for points, so only the pair
    candidates of the last hand offer it; for the points alone South plays a single card."""
    position, kept = _last_hand(
        "AD QD", "9S 9C QC", "QS 2D 4C 8C 7H KC", "QH KH 7D 9D TD KD", Stakes(16, 30)
    )
    assert odds_plan(position, kept) == tuple(parse_cards("9S 9C"))
    assert len(odds_plan(position, kept, for_the_deal=False)) == 1


def _north_south_turns(strong, deals):
    """Each North–South turn (its observation) of ``deals`` deals in which ``strong`` plays
    North–South against ``greedy``, before the turn is played."""
    from engine.bots import GreedyBot
    from engine.game import DealState

    greedy = GreedyBot()
    for seed in range(deals):
        state = DealState.deal(Seat.N, random.Random(seed), CLASSIC)
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            if seat.side is Side.NS:
                yield obs
            bot = strong if seat.side is Side.NS else greedy
            state.apply_action(bot.choose(obs, obs.legal_actions))


def test_the_strong_partner_reads_the_stakes_from_its_own_side():
    """The stakes of a reply in the side's last hand are the replier's side's hand score and
    then the other side's; before that hand there are none."""
    from engine.bots import SignalBot
    from engine.bots.signal import STRONG, given_signal, my_cards_in_hand

    strong = SignalBot(strength=STRONG)
    checked = 0
    for obs in _north_south_turns(strong, 8):
        signal = given_signal(obs) if obs.current_actions else None
        if signal is not None and signal[1] is not None:
            position = strong._position(obs, signal, my_cards_in_hand(obs))
            side = obs.seat.side
            if obs.side_hand == 4:
                ours, theirs = obs.hand_scores[side], obs.hand_scores[side.other]
                assert position.stakes == Stakes(ours, theirs)
                checked += ours != theirs
            else:
                assert position.stakes is None
    assert checked >= 3


def test_the_strong_partner_completes_its_last_hand_for_the_deal():
    """At every turn of a side's last hand where the strong partner fills the hand itself, its
    card is the first of :func:`last_fill` from what it sees; before that hand, and at other
    strengths, it fills for the points."""
    from engine.bots import SignalBot
    from engine.bots.signal import STRONG

    strong, standard = SignalBot(strength=STRONG), SignalBot()
    checked = 0
    for obs in _north_south_turns(strong, 6):
        seat, side = obs.seat, obs.seat.side
        if obs.side_hand == 4 and obs.current_actions:
            fill = last_fill(
                obs.current_cards,
                obs.own_cards,
                seat,
                obs.card_counts[seat.partner],
                [c for h in obs.played_hands for _, c in h.cards],
                Stakes(obs.hand_scores[side], obs.hand_scores[side.other]),
                CLASSIC,
            )
            assert strong._last_fill(obs) == fill
            assert standard._last_fill(obs) is None
            if fill is not None:
                assert strong._fill(obs).card is fill[0]
                checked += 1
        elif obs.side_hand < 4:
            assert strong._last_fill(obs) is None
    assert checked >= 6
