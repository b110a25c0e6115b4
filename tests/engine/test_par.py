"""The par solver: exact against brute force on reduced decks, legal, an upper bound, fast."""

import io
import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import GreedyBot, SignalBot
from engine.bots.hands import points5
from engine.cards import DECK
from engine.cli import main
from engine.game import DealState
from engine.par import _leftover_points, brute_force, solve, solve_deal
from engine.scoring import CLASSIC, CONTRIBUTION, leftover_value
from engine.seats import SEATS, SIDES, Seat

rules = st.sampled_from([CLASSIC, CONTRIBUTION])


@st.composite
def small_sides(draw):
    """A side's cards from a reduced deck (few ranks, so combinations abound), for 1-2 hands."""
    hands = draw(st.sampled_from([1, 2]))
    ranks = draw(st.integers(3, 13))
    deck = [c for c in DECK if c.rank <= 1 + ranks]
    n = min(len(deck), 5 * hands + draw(st.integers(0, 3)))
    cards = draw(st.permutations(deck))[:n]
    split = draw(st.integers(1, n - 1))
    return cards[:split], cards[split:], hands


@settings(max_examples=150, deadline=None)
@given(small_sides(), rules)
def test_par_matches_brute_force_on_reduced_decks(side, rule):
    first, second, hands = side
    got = solve(first, second, Seat.N, rule, hands)
    assert (got.hand_score, got.leftover_value) == brute_force(first, second, Seat.N, rule, hands)


@st.composite
def sides_with_leftovers(draw):
    """A reduced deck's side keeping four to six cards: the left-over tie-break at work."""
    hands = draw(st.sampled_from([1, 1, 2]))
    ranks = draw(st.integers(4, 13))
    deck = [c for c in DECK if c.rank <= 1 + ranks]
    n = min(len(deck), 5 * hands + draw(st.integers(4, 6 if hands == 1 else 4)))
    cards = draw(st.permutations(deck))[:n]
    split = draw(st.integers(1, n - 1))
    return cards[:split], cards[split:], hands


def _ties_like_brute_force(side, rule) -> None:
    first, second, hands = side
    got = solve(first, second, Seat.N, rule, hands)
    assert (got.hand_score, got.leftover_value) == brute_force(first, second, Seat.N, rule, hands)
    kept = [c for _, c in got.leftovers]
    assert len(kept) == len(first) + len(second) - 5 * hands
    assert got.leftover_value == _leftover_points(list(got.leftovers), rule)


@settings(max_examples=15, deadline=None)
@given(sides_with_leftovers(), rules)
def test_par_breaks_ties_by_the_weakest_leftovers_like_brute_force(side, rule):
    _ties_like_brute_force(side, rule)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(sides_with_leftovers(), rules)
def test_par_breaks_ties_by_the_weakest_leftovers_like_brute_force_volume(side, rule):
    _ties_like_brute_force(side, rule)


def _check_legal(solution, state, leader):
    holder = {c: s for s in SEATS for c in state.hands_dealt[s]}
    used = [c for hand in solution.hands for _, c in hand] + [c for _, c in solution.leftovers]
    assert len(used) == len(set(used)) == 26
    assert all(holder[c] is s for hand in solution.hands for s, c in hand)
    for k, hand in enumerate(solution.hands):
        lead = leader if k % 2 == 0 else leader.partner
        assert any(s is lead for s, _ in hand)
    total = sum(points5([c for _, c in h], [s for s, _ in h], state.rule) for h in solution.hands)
    assert total == solution.hand_score
    left = leftover_value(
        [c for _, c in solution.leftovers], state.rule, [s for s, _ in solution.leftovers]
    )
    assert left.value == solution.leftover_value


@pytest.mark.parametrize("rule", ["classic", "contribution"])
@pytest.mark.parametrize("seed", range(6))
def test_par_hands_are_legal_and_score_what_they_say(seed, rule):
    state = DealState.deal(Seat.N, random.Random(seed), rule)
    for side, solution in solve_deal(state).items():
        leader = next(state.dealer.after(k) for k in (1, 2) if state.dealer.after(k).side is side)
        _check_legal(solution, state, leader)


@pytest.mark.parametrize(("seed", "rule"), [(24, "classic"), (20, "contribution")])
def test_par_finds_worthless_leftovers_among_many_candidate_sets(seed, rule):
    # Deals whose first arrangement keeps a pair or two, and whose left-over candidates number
    # far more than a few thousand: only the exhaustive tie-break finds sets worth nothing.
    state = DealState.deal(Seat.N, random.Random(seed), rule)
    for side, solution in solve_deal(state).items():
        leader = next(state.dealer.after(k) for k in (1, 2) if state.dealer.after(k).side is side)
        _check_legal(solution, state, leader)
        assert solution.leftover_value == 0


@pytest.mark.parametrize("kind", ["greedy", "signal"])
@pytest.mark.parametrize("seed", range(5))
def test_par_bounds_every_bots_hand_score(kind, seed):
    for rule in ("classic", "contribution"):
        state = DealState.deal(Seat.N, random.Random(100 + seed), rule)
        par = {side: s.hand_score for side, s in solve_deal(state).items()}
        bot = GreedyBot() if kind == "greedy" else SignalBot()
        while not state.is_terminal():
            obs = state.observation(state.current_player())
            state.apply_action(bot.choose(obs, obs.legal_actions))
        scores = state.hand_scores()
        assert all(scores[side] <= par[side] for side in SIDES)


@pytest.mark.slow
def test_par_takes_at_most_50_ms_of_cpu_per_side_at_the_median():
    times = []
    for seed in range(30):
        state = DealState.deal(Seat.N, random.Random(seed))
        start = time.process_time()
        solve_deal(state)
        times.append((time.process_time() - start) / 2)
    times.sort()
    assert times[len(times) // 2] <= 0.050


def test_the_par_command_prints_both_sides():
    out = io.StringIO()
    assert main(["par", "--seed", "7"], stdout=out, stderr=io.StringIO()) == 0
    result = json.loads(out.getvalue())
    assert result["seed"] == 7 and result["rule"] == "classic"
    for side in ("NS", "EW"):
        got = result["sides"][side]
        assert len(got["hands"]) == 4 and all(len(h) == 5 for h in got["hands"])
        assert len(got["leftovers"]) == 6
        assert set(got) == {"hand_score", "hands", "leftovers", "leftover_value"}


def test_the_par_command_reads_seeds_from_stdin():
    out = io.StringIO()
    status = main(
        ["par"], stdin=io.StringIO("7\n8 --rule contribution\n"), stdout=out, stderr=io.StringIO()
    )
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 0 and [x["seed"] for x in lines] == [7, 8]
    assert lines[1]["rule"] == "contribution"
