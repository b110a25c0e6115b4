"""The table speaks with the drills' voice: 1,000+ positions from real deals (leads, readings and
replies, both conventions, both scoring rules) checked against the drill kinds' answer keys.

South is played by the signal bot; at each of South's moments the coach's lead advice is put
beside the lead drill's key for South's cards, the coach's quiz beside the read drill's key, and
the bot's reply beside the reply drill's key for the same position. A learner who drills and
then plays hears the same answer in both places.
"""

from __future__ import annotations

import pytest

from engine.bots import SignalBot
from engine.bots.signal import given_signal
from engine.drills import Drill, DrillKind, DrillParams, answer_key
from engine.drills.kinds.reply import accepted_keys, advice_for
from engine.play import PlaySetup, PlayTable, coach_lead, coach_read
from engine.play.grading import key_of, lead_drill, lead_key
from engine.scoring import get_rule
from engine.seats import Seat
from tests.engine.play.test_coach import check_quiz

COMBINATIONS = [
    (c, r) for c in ("parlett-2008", "teach-yourself-1994") for r in ("classic", "contribution")
]
#: Positions checked per convention and rule (1,000 in all, and more in the volume run).
POSITIONS = 250


def reply_drill(table: PlayTable) -> Drill | None:
    """The reply drill of South's moment, when South replies to North's two-card signal."""
    deal = table.deal
    obs = deal.observation(Seat.S)
    signal = given_signal(obs)
    acts = obs.current_actions
    if signal is None or len(acts) != 3 or acts[0][0] is not Seat.N:
        return None
    completed = tuple(tuple(h.card_list) for h in deal.played_hands)
    return Drill(
        kind=DrillKind.REPLY,
        seed=0,
        params=DrillParams(convention=table.setup.convention, rule=table.setup.rule.name),
        skill="",
        side_hand=deal.side_hand,
        prompt="",
        hand=tuple(obs.own_cards),
        completed=completed,
        signal=signal,
        source=table.start_holding(table.deal_number, deal.hand_number)[Seat.N],
    )


def positions(convention: str, rule: str, wanted: int) -> dict[str, int]:
    counts = {"lead": 0, "read": 0, "reply": 0}
    seed = 0
    while sum(counts.values()) < wanted:
        seed += 1
        setup = PlaySetup(seed=seed, rule=get_rule(rule), convention=convention, opponents="signal")
        table, _ = PlayTable.start(setup)
        bot = SignalBot(convention)
        while not table.is_over():
            deal = table.deal
            advice = coach_lead(table)
            if advice is not None:
                drill = lead_drill(deal.held(Seat.S), deal.side_hand, convention, setup.rule)
                if deal.current_actions:  # the second card: the hand as it was before the lead
                    held = table.start_holding(table.deal_number, deal.hand_number)[Seat.S]
                    drill = lead_drill(held, deal.side_hand, convention, setup.rule)
                accepted = key_of(drill).accepted
                assert all(lead_key(*p) in accepted for p in advice.plays), (seed, advice)
                if not deal.current_actions:
                    assert {lead_key(*p) for p in advice.plays} == set(accepted), seed
                counts["lead"] += 1
            quiz = coach_read(table)
            if quiz is not None:
                check_quiz(table, quiz)  # the read drill's key, its grading and its odds
                counts["read"] += 1
            drill = reply_drill(table)
            obs = deal.observation(Seat.S)
            if drill is not None:
                key = answer_key(drill)
                assert key.accepted == accepted_keys(advice_for(drill))
                leader = Seat.N
                seen = [c for hand in obs.played_hands for _, c in hand.cards]
                assert drill.signal is not None
                bot_advice = bot.advice(
                    obs.own_cards, drill.signal, obs.side_hand, seen, obs.card_counts[leader]
                )
                assert accepted_keys(bot_advice) == key.accepted, (seed, drill.signal)
                action = bot.choose(obs, obs.legal_actions)
                if bot_advice.action == "play" and action.is_play:
                    assert any(str(action) == k.split()[0] for k in key.accepted), (seed, action)
                counts["reply"] += 1
            table.act(bot.choose(obs, obs.legal_actions))
    return counts


@pytest.mark.parametrize(("convention", "rule"), COMBINATIONS)
@pytest.mark.parametrize(
    "wanted", [POSITIONS, pytest.param(4 * POSITIONS, marks=pytest.mark.slow, id="volume")]
)
def test_the_coach_the_bot_and_the_drills_agree(convention, rule, wanted):
    counts = positions(convention, rule, wanted)
    assert all(counts.values()), counts
