"""scripts/reading_ceiling.py: its readers play legal moves only, its ``signal`` row is the
tournament's, and a reader told more than the signal says does better on the same deals."""

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from engine.bots import SignalBot
from engine.game import DealState
from engine.seats import SEATS, Seat
from engine.tournament import PairSpec, TournamentSpec, run_tournament

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def ceiling():
    spec = importlib.util.spec_from_file_location(
        "reading_ceiling", ROOT / "scripts" / "reading_ceiling.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["reading_ceiling"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rule", ["classic", "contribution"])
def test_the_signal_row_is_the_tournaments(ceiling, rule):
    diffs = ceiling._play_boards(("signal", rule, "teach-yourself-1994", 3, 0, 12, 0))
    spec = TournamentSpec(
        PairSpec("signal", "teach-yourself-1994"), PairSpec("greedy"), 12, 3, rule
    )
    assert sum(diffs) / len(diffs) == pytest.approx(
        run_tournament(spec).diff, abs=1e-4
    )  # the tournament rounds to 4 places


def _mean(ceiling, variant: str, boards: int) -> float:
    diffs = ceiling._play_boards((variant, "classic", "parlett-2008", 1, 0, boards, 0))
    return sum(diffs) / len(diffs)


def test_readers_told_more_do_better_on_the_same_deals(ceiling):
    # Every move of every reader goes through DealState.apply_action, which refuses an
    # illegal one; 24 boards are enough for the order, which is wide on any deals.
    means = {variant: _mean(ceiling, variant, 24) for variant in ("signal", "shown", "all")}
    assert means["signal"] < means["shown"] < means["all"]


def test_a_leader_that_sees_every_card_chooses_better_leads(ceiling):
    assert _mean(ceiling, "signal", 6) + 5 < _mean(ceiling, "leader", 6)


def test_a_sampled_world_looks_the_same_from_the_leaders_seat(ceiling):
    state = DealState.deal(Seat.N, random.Random(5))
    bots = {seat: SignalBot() for seat in SEATS}
    while len(state.played_hands) < 3 or state.current_actions:
        seat = state.current_player()
        obs = state.observation(seat)
        state.apply_action(bots[seat].choose(obs, obs.legal_actions))
    seat = state.current_player()
    worlds = ceiling.sampled_worlds(state, seat, 6)
    again = ceiling.sampled_worlds(state, seat, 6)
    assert [w.held(seat.partner) for w in worlds] == [w.held(seat.partner) for w in again]
    hidden = {s: state.held(s) for s in SEATS if s is not seat}
    for world in worlds:
        assert world.observation(seat) == state.observation(seat)
        assert {s: len(world.held(s)) for s in hidden} == {s: len(h) for s, h in hidden.items()}
    assert any(world.held(seat.partner) != hidden[seat.partner] for world in worlds)


def test_the_readings_comparison_counts_every_signal_once(ceiling):
    counts = ceiling.compare_readings(6, "classic", "parlett-2008", 1, 100)
    assert counts["signals"] > 10
    assert 0 < counts["first_right"] <= counts["signals"]
    assert 0 < counts["posterior_right"] <= counts["signals"]
    assert counts["several_items"] <= counts["signals"]
    assert 0 < counts["policy_right"] <= counts["signals"]
    assert counts["policy_kept"] > 0


def test_the_policy_reading_tallies_the_hands_the_standard_partner_leads_the_signal_from(
    ceiling,
):
    """This partner's reading samples the leader's hand from the unseen cards (holding the
    signal's two) and tallies only hands the standard partner would lead the signal from."""
    state = DealState.deal(Seat.N, random.Random(11))
    bot = SignalBot()
    c1, c2 = bot.lead_plan(state.held(Seat.N), 1, state.rule)
    obs = state.observation(Seat.S)
    visible = set(obs.own_cards)
    sampler = SignalBot()
    drawn = []
    own_lead = sampler._own_lead

    def watched(hand, side_hand, rule, signal):
        drawn.append(tuple(hand))
        return own_lead(hand, side_hand, rule, signal)

    sampler._own_lead = watched
    item, kept = ceiling._policy_reading(sampler, (c1, c2), obs, 13, random.Random(2), 200)
    assert len(drawn) == 200 and all(len(set(h)) == 13 for h in drawn)
    assert all(c1 in h and c2 in h and not set(h) & visible for h in drawn)
    kept_hands = [h for h in drawn if bot.lead_plan(h, 1, state.rule) == (c1, c2)]
    assert kept == len(kept_hands) > 0
    # The leader's own hand leads the signal: its shown item is one the reading can give.
    assert item is not None


def test_the_strong_row_is_the_tournaments(ceiling):
    diffs = ceiling._play_boards(("strong", "classic", "parlett-2008", 1, 0, 4, 0))
    spec = TournamentSpec(PairSpec("strong", "parlett-2008"), PairSpec("greedy"), 4, 1)
    assert sum(diffs) / len(diffs) == pytest.approx(run_tournament(spec).diff, abs=1e-4)
