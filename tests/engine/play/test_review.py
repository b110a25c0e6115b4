"""The review of finished deals: hands against holdings, par and points lost, South's choices
against the signal bot's, and frames to step through."""

import random

import pytest

from engine.bots import SignalBot
from engine.par import solve_deal
from engine.play import IllegalPlay, PlaySetup, PlayTable, review
from engine.seats import Seat


def play(setup: PlaySetup, rng: random.Random | None, stop=None) -> PlayTable:
    """South plays as the signal bot (``rng`` None) or at random."""
    table, _ = PlayTable.start(setup)
    bot = SignalBot(setup.convention)
    while not table.is_over() and not (stop and stop(table)):
        if rng is None:
            obs = table.deal.observation(Seat.S)
            table.act(bot.choose(obs, obs.legal_actions))
        else:
            table.act(rng.choice(table.legal()))
    return table


def test_no_review_before_a_deal_is_over():
    setup = PlaySetup(seed=3)
    table, _ = PlayTable.start(setup)
    with pytest.raises(IllegalPlay, match="not over"):
        review(setup, table.actions)


def test_review_of_a_deal_covers_its_eight_hands():
    setup = PlaySetup(seed=3, opponents="signal")
    table = play(setup, random.Random(3))
    result = review(setup, table.actions)
    (deal,) = result.deals
    assert [h.summary.hand_number for h in deal.hands] == list(range(1, 9))
    for hand, played in zip(deal.hands, table.deal.played_hands, strict=True):
        lead = played.actions[0][0]
        assert hand.holding == table.start_holding(1, played.number)[lead]
        assert set(played.card_list) - set(hand.holding) <= {
            c for s, c in played.cards if s != lead
        }
        assert hand.summary.points == played.points
    assert result.outcome == table.outcome()


def test_held_item_is_the_encoders_item_for_the_holding():
    from engine.signals import encode, get_convention

    setup = PlaySetup(seed=3, opponents="signal")
    result = review(setup, play(setup, None).actions)
    conv = get_convention(setup.convention)
    for hand in result.deals[0].hands:
        assert hand.held_item == encode(hand.holding, hand.summary.side_hand, conv).item
        assert set(hand.held_cards) <= set(hand.holding)


def test_greedy_pairs_hands_have_no_held_item():
    setup = PlaySetup(seed=3, opponents="greedy")
    result = review(setup, play(setup, random.Random(1)).actions)
    ew = [h for h in result.deals[0].hands if h.summary.side == "EW"]
    assert ew and all(h.held_item is None and h.preferred is None for h in ew)


def test_par_and_points_lost():
    setup = PlaySetup(seed=9)
    table = play(setup, random.Random(9))
    (deal,) = review(setup, table.actions).deals
    par = solve_deal(table.deal)
    made = table.deal.hand_scores()
    for side, entry in deal.par.items():
        assert entry.par == par[entry_side(side)].hand_score
        assert entry.made == made[entry_side(side)]
        assert entry.lost == entry.par - entry.made >= 0


def entry_side(text):
    from engine.seats import Side

    return Side.parse(text)


def test_souths_decisions_are_those_the_signal_bot_would_not_take():
    setup = PlaySetup(seed=4, opponents="signal")
    same = play(setup, None)
    assert review(setup, same.actions).deals[0].decisions == ()
    other = play(setup, random.Random(4))
    decisions = review(setup, other.actions).deals[0].decisions
    assert decisions
    for d in decisions:
        assert other.actions[d.index] == d.chosen != d.bot
        replayed = PlayTable.replay(setup, other.actions[: d.index])
        assert replayed.learner_to_move()
        obs = replayed.deal.observation(Seat.S)
        assert SignalBot(setup.convention).choose(obs, obs.legal_actions) == d.bot


def test_frames_step_through_the_deal_card_by_card():
    setup = PlaySetup(seed=5)
    table = play(setup, random.Random(5))
    frames = review(setup, table.actions).deals[0].frames
    assert len(frames) == len(table.actions) + 1
    assert frames[0].seat is None and sum(len(c) for c in frames[0].held.values()) == 52
    assert [f.action for f in frames[1:]] == list(table.actions)
    assert frames[-1].completed == 8
    assert sum(len(c) for c in frames[-1].held.values()) == 12


def test_a_game_review_covers_the_deals_over_so_far():
    setup = PlaySetup(seed=6, game=True)
    table = play(setup, random.Random(6), stop=lambda t: t.deal_number == 2)
    result = review(setup, table.actions)
    assert [d.deal_number for d in result.deals] == [1]
    assert result.outcome is None
    assert all(a.deal_number == 1 for a in result.attempts)
    frames = result.deals[0].frames
    assert frames[-1].completed == 8


def test_a_finished_games_review_covers_every_deal():
    setup = PlaySetup(seed=6, game=True)
    table = play(setup, random.Random(6))
    result = review(setup, table.actions)
    assert len(result.deals) == table.deal_number
    total = sum(len(d.frames) for d in result.deals)
    assert total == len(table.actions) + len(result.deals)
    assert result.to_json()["outcome"]["deals_played"] == table.deal_number
