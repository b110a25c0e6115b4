"""Random seeded playouts checked against the rules by an independent referee."""

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot, play_game
from engine.cards import Card
from engine.game import PASS, Action, DealState, GameState, game_outcome
from engine.scoring import leftover_bonus, score_hand
from engine.seats import SEATS, SIDES

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rules = st.sampled_from(["classic", "contribution"])
SETTINGS = settings(max_examples=40, deadline=None)


def referee(deal: DealState) -> None:
    """Re-check every recorded action of a finished deal against docs/rules.md."""
    held = {seat: set(cards) for seat, cards in deal.hands_dealt.items()}
    for k, hand in enumerate(deal.played_hands):
        leader = deal.dealer.after(k + 1)
        assert (hand.number, hand.leader, hand.side) == (k + 1, leader, leader.side)
        expected = leader if held[leader] else leader.partner
        passes, forced_by, plays = 0, None, []
        for i, (seat, action) in enumerate(hand.actions):
            assert seat.side is leader.side
            if forced_by is not None:
                forced = forced_by.partner
                expected = forced if held[forced] else forced_by
            elif not held[expected]:
                expected = expected.partner
            assert seat is expected
            if action.is_play:
                assert action.card in held[seat]
                held[seat].remove(action.card)
                plays.append((seat, action.card))
                passes = 0
                if forced_by is None:
                    expected = seat.partner
            else:
                assert i > 0 and passes < 2 and forced_by is None and held[seat.partner]
                if action == PASS:
                    passes += 1
                    expected = seat.partner
                else:
                    forced_by = seat
        assert tuple(plays) == hand.cards and len(plays) == 5
    assert all(held[seat] == set(deal.held(seat)) for seat in SEATS)


@SETTINGS
@given(seed=seeds, rule=rules)
def test_random_playouts_never_break_a_rule(seed, rule):
    for deal in play_game(seed, rule).deals:
        referee(deal)


@SETTINGS
@given(seed=seeds, rule=rules)
def test_each_side_ends_with_six_left_overs_and_each_player_leads_twice(seed, rule):
    for deal in play_game(seed, rule).deals:
        assert {side: len(cards) for side, cards in deal.leftovers().items()} == {
            side: 6 for side in SIDES
        }
        assert Counter(hand.leader for hand in deal.played_hands) == {seat: 2 for seat in SEATS}
        assert [h.side for h in deal.played_hands] == [deal.dealer.left.side, deal.dealer.side] * 4


@SETTINGS
@given(seed=seeds, rule=rules)
def test_recomputed_scores_equal_reported_ones(seed, rule):
    game = play_game(seed, rule)
    totals = {side: 0 for side in SIDES}
    for deal, result in zip(game.deals, game.results, strict=True):
        hand_scores = {side: 0 for side in SIDES}
        for hand in deal.played_hands:
            score = score_hand(hand.card_list, rule, by=hand.played_by)
            assert (score.combination, score.points) == (hand.combination, hand.points)
            hand_scores[hand.side] += score.points
        assert hand_scores == result.hand_scores
        bonus = leftover_bonus(hand_scores, deal.leftovers(), rule, deal.leftover_holders())
        assert bonus == result.leftover_bonus
        for side in SIDES:
            assert result.scores[side] == hand_scores[side] + bonus[side]
            totals[side] += result.scores[side]
    assert totals == game.totals
    assert game.outcome() == game_outcome(totals, len(game.deals))
    over = [s for s in SIDES if totals[s] >= 100]
    assert len(game.deals) == 4 or (over and all(t < 100 for t in _totals_before_last(game)))


def _totals_before_last(game: GameState) -> list[int]:
    return [sum(r.scores[side] for r in game.results[:-1]) for side in SIDES]


def cards_in(value: object) -> set[Card]:
    """Every Card reachable from an observation."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, Action):
        return {value.card} if value.card else set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, Mapping):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items()))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(cards_in(v) for v in value))
    return set()


@settings(max_examples=15, deadline=None)
@given(seed=seeds, rule=rules)
def test_observations_never_contain_hidden_cards(seed, rule):
    game = GameState.new(seed, rule)
    bot = RandomBot(random.Random(seed))
    while not game.is_terminal():
        deal = game.deal
        public = {c for h in deal.played_hands for c in h.card_list}
        public |= {c for _, c in deal.current_cards}
        for seat in SEATS:
            obs = game.observation(seat)
            assert obs.own_cards == deal.held(seat)
            assert cards_in(obs) <= public | set(deal.held(seat))
            assert obs.card_counts == deal.card_counts()
        seat = game.current_player()
        obs = game.observation(seat)
        assert list(obs.legal_actions) == game.legal_actions()
        game.apply_action(bot.choose(obs, obs.legal_actions))


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_a_game_replays_from_its_seed(seed):
    a, b = play_game(seed), play_game(seed)
    assert [d.played_hands for d in a.deals] == [d.played_hands for d in b.deals]


def _recomputed_scores(deal: DealState) -> dict:
    """A finished deal's side scores worked out again from its hands and left-overs."""
    hand_scores = {side: 0 for side in SIDES}
    for hand in deal.played_hands:
        hand_scores[hand.side] += score_hand(hand.card_list, deal.rule, by=hand.played_by).points
    bonus = leftover_bonus(hand_scores, deal.leftovers(), deal.rule, deal.leftover_holders())
    return {side: hand_scores[side] + bonus[side] for side in SIDES}


@SETTINGS
@given(seed=seeds, rule=rules)
def test_a_finished_deals_result_is_worked_out_once_and_only_for_its_own_play(seed, rule):
    rng = random.Random(seed)
    deal = DealState.deal(SEATS[seed % 4], rng, rule)
    copies = []
    while not deal.is_terminal():
        if rng.random() < 0.1:
            copies.append(deal.clone())  # (each then finishes its own way)
        deal.apply_action(rng.choice(deal.legal_actions()))
    result = deal.result()
    assert deal.result() is result  # kept: nothing changes a finished deal
    assert dict(result.scores) == _recomputed_scores(deal)
    finished = deal.clone()
    assert finished.result() == result
    for other in copies:
        while not other.is_terminal():
            other.apply_action(rng.choice(other.legal_actions()))
        assert dict(other.result().scores) == _recomputed_scores(other)
