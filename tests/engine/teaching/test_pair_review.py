"""The pair's own review, over many deals in both cards and both rules: every hand the side
led is there with the cards its leader held; the signal and the answer are the record's; the
reading an answer implies is one the signal has, and the answer's cards complete it (checked
by a completion written here from the holdings); the strong answer is a legal move from
partner's seat; the points lost are the strong partner's hand minus the hand played, never
below zero, and zero when partner answered as the strong partner did."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.game import PASS, GameState
from engine.play import PlaySetup, PlayTable
from engine.play.pair_review import pair_hands, pair_summary
from engine.play.table import signal_bot
from engine.scoring import SCORING_RULES, get_rule
from engine.seats import Side
from engine.signals import CONVENTIONS, decode, get_convention
from engine.signals.reply import signal_holdings

SEEDS = range(25)


def _played(setup: PlaySetup) -> PlayTable:
    """The deal with South played by the standard signal bot (a learner who leads by the card
    and answers as the standard partner does)."""
    table, _ = PlayTable.start(setup)
    bot = signal_bot(setup.convention)
    while not table.is_over():
        obs = table.deal.observation(table.deal.current_player())
        table.act(bot.choose(obs, obs.legal_actions))
    return table


def _fills(cards, way) -> bool:
    from itertools import permutations

    return len(cards) == len(way) and any(
        all(c.bit & m for c, m in zip(order, way, strict=True)) for order in permutations(cards)
    )


def _completes_some(cards, holdings) -> bool:
    return any(
        _fills(part, way)
        for h in holdings
        for way in h
        for part in combinations(cards, len(way))
        if len(way) <= len(cards)
    )


@pytest.mark.parametrize("rule", sorted(SCORING_RULES))
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_every_claim_of_the_pair_review_holds(convention, rule):
    conv = get_convention(convention)
    misreads = 0
    for seed in SEEDS:
        setup = PlaySetup(seed=seed, convention=convention, opponents_convention=convention,
                          rule=get_rule(rule))  # fmt: skip
        table = _played(setup)
        hands = pair_hands(setup, table.actions, Side.NS)
        deal = table.deals[0]
        led = [h for h in deal.played_hands if h.side is Side.NS]
        assert [h.hand_number for h in hands] == [h.number for h in led]
        replay = GameState.new(setup.seed, setup.rule, setup.dealer)
        starts = {}
        for action in table.actions:
            d = replay.deal
            if not d.current_actions:
                starts[d.hand_number] = d.held(d.leader)
            replay.apply_action(action)
        for h, played in zip(hands, led, strict=True):
            assert h.holding == starts[h.hand_number]
            assert h.points == played.points
            assert h.lost >= 0
            if h.reply and h.reply[0] == h.strong:
                assert h.lost == 0
            if h.signal is None:
                continue
            acts = [a for _, a in played.actions]
            assert acts[0].card == h.signal[0] and tuple(acts[3 : 3 + len(h.reply)]) == h.reply
            c1, c2 = h.signal
            readings = decode(c1, c2, h.side_hand, conv)
            if h.read is not None:
                assert h.read in {str(r.item) for r in readings}
                if c2 is not None:
                    cards = [a.card for a in h.reply if a.is_play]
                    shapes = {r.shape for r in readings if str(r.item) == h.read}
                    holdings = signal_holdings(h.read, shapes, c1, c2, conv, 0)
                    assert _completes_some(cards, holdings)
            misreads += h.misread
        summary = pair_summary(hands, convention)
        tried = {h.held_item for h in hands if h.signal and h.by_the_card}
        assert not set(summary.never_tried) & tried
        assert [h.lost for h in summary.costly] == sorted((h.lost for h in summary.costly),
                                                          reverse=True)  # fmt: skip
    assert misreads >= 0


def _with_a_partner_who_always_passes(setup: PlaySetup) -> list:
    """A record where North–South's partner passes every signal it may (the leader and every
    other turn are the strong partner's; East–West the standard signal bot's)."""
    state = GameState.new(setup.seed, setup.rule, setup.dealer)
    strong = signal_bot(setup.convention, "strong", "card")
    standard = signal_bot(setup.convention)
    actions = []
    while not state.deal.is_terminal():
        deal = state.deal
        seat = deal.current_player()
        obs = deal.observation(seat)
        acts = [a for _, a in deal.current_actions]
        answering = len(acts) == 3 and seat is deal.leader.partner and acts[1] == PASS
        if seat.side is Side.NS and answering and PASS in obs.legal_actions:
            action = PASS
        else:
            action = (strong if seat.side is Side.NS else standard).choose(obs, obs.legal_actions)
        state.apply_action(action)
        actions.append(action)
    return actions


def test_a_partner_who_passes_where_the_strong_partner_completes_is_said_to_miss_it():
    found = []
    for seed in range(40):
        setup = PlaySetup(seed=seed)
        for h in pair_hands(setup, _with_a_partner_who_always_passes(setup), Side.NS):
            assert h.read is None or h.reply[0] != PASS
            if h.missed:
                found.append(h)
    assert found, "no missed completion in 40 deals"
    for h in found:
        assert h.read is None and h.strong_read is not None and h.reply == (PASS,)
    assert any(h.lost > 0 for h in found)
    summary = pair_summary(found, "parlett-2008")
    assert sum(n for _, n in summary.misread) == len(found)


def test_an_unfinished_deal_has_no_pair_review():
    from engine.play.setup import IllegalPlay

    setup = PlaySetup(seed=3)
    table = _played(setup)
    with pytest.raises(IllegalPlay):
        pair_hands(setup, table.actions[:10], Side.NS)
