"""The play table: setup, start, act, replay, steps and views (engine.play)."""

import random

import pytest

from engine.bots import SignalBot
from engine.errors import ConcertoError, WrongTypeError
from engine.game import FORCE, PASS, Action, DealState
from engine.play import (
    IllegalPlay,
    InvalidSetupError,
    PlaySetup,
    PlayTable,
    hand_summary,
)
from engine.scoring import CONTRIBUTION
from engine.seats import Seat


def south_signal_bot(table: PlayTable) -> Action:
    obs = table.deal.observation(Seat.S)
    return SignalBot(table.setup.convention).choose(obs, obs.legal_actions)


def play_out(table: PlayTable, rng: random.Random, steps=None) -> list:
    """Play South at random until the end; returns every step."""
    steps = list(steps or [])
    while not table.is_over():
        steps += table.act(rng.choice(table.legal()))
    return steps


# -- setup ------------------------------------------------------------------------------------


def test_setup_round_trips_through_json():
    setup = PlaySetup(seed=12, rule=CONTRIBUTION, opponents="signal", game=True)
    assert PlaySetup.from_json(setup.to_json()) == setup
    assert setup.to_json()["rule"] == "contribution"


def test_a_setup_takes_a_scoring_rule_not_its_name():
    with pytest.raises(WrongTypeError):
        PlaySetup(seed=12, rule="contribution")


def test_setup_from_json_fills_defaults():
    assert PlaySetup.from_json({"seed": 5}) == PlaySetup(seed=5)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"seed": "5"},
        {"seed": True},
        {"seed": -1},
        {"seed": 2**63},
        {"seed": 1, "rule": "bridge"},
        {"seed": 1, "convention": "acol"},
        {"seed": 1, "opponents": "random"},
        {"seed": 1, "opponents_convention": 3},
        {"seed": 1, "game": "yes"},
        {"seed": 1, "colour": "red"},
        [1, 2],
    ],
)
def test_setup_from_bad_json_raises_a_value_error(data):
    with pytest.raises(ConcertoError):  # a ValueError
        PlaySetup.from_json(data)


def test_bad_setup_error_names_the_field():
    with pytest.raises(InvalidSetupError, match="opponents"):
        PlaySetup(seed=1, opponents="open")


# -- start and act ----------------------------------------------------------------------------


def test_start_plays_the_bots_until_souths_first_turn():
    table, steps = PlayTable.start(PlaySetup(seed=7))
    assert table.learner_to_move()
    assert steps and all(s.seat is not Seat.S for s in steps)
    assert list(table.actions) == [s.action for s in steps]
    # North deals the first deal: East leads hand 1, South hand 2.
    assert steps[0].seat is Seat.E and table.deal.hand_number == 2


def test_the_deal_is_the_seeds_first_deal():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    dealt = DealState.deal(Seat.N, random.Random(7))
    assert table.deal.hands_dealt == dealt.hands_dealt


def test_legal_lists_souths_actions_only_on_souths_turn():
    table, _ = PlayTable.start(PlaySetup(seed=3))
    assert table.legal() == table.deal.legal_actions()
    assert all(isinstance(a, Action) for a in table.legal())
    assert table.view().legal == tuple(table.legal())
    table.act(table.legal()[0])
    if not table.learner_to_move():
        assert table.legal() == [] and table.view().legal == ()


def test_act_returns_souths_step_then_every_bot_step():
    table, _ = PlayTable.start(PlaySetup(seed=3))
    before = len(table.actions)
    steps = table.act(table.legal()[0])
    assert steps[0].seat is Seat.S
    assert all(s.seat is not Seat.S for s in steps[1:])
    assert list(table.actions[before:]) == [s.action for s in steps]
    assert table.learner_to_move() or table.is_over()


def test_the_table_takes_actions_and_text_is_read_at_the_edge():
    table, _ = PlayTable.start(PlaySetup(seed=3))
    card = table.legal()[0]
    before = table.actions
    for text in (str(card), str(card).lower(), "pass", None):
        with pytest.raises(WrongTypeError):
            table.act(text)
        with pytest.raises(WrongTypeError):
            table.apply(text)
    assert table.actions == before
    table.act(Action.parse(str(card).lower()))
    assert card in table.actions


def test_a_card_south_does_not_hold_is_illegal():
    table, _ = PlayTable.start(PlaySetup(seed=3))
    other = table.deal.held(Seat.N)[0]
    with pytest.raises(IllegalPlay, match="not in their hand"):
        table.act(Action.play(other))


def test_pass_on_the_first_card_of_a_hand_is_illegal():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    assert not table.deal.current_actions  # South leads hand 2
    with pytest.raises(IllegalPlay, match="first card"):
        table.act(PASS)
    with pytest.raises(IllegalPlay):
        table.act(FORCE)


def test_acting_after_the_end_is_illegal():
    table, _ = PlayTable.start(PlaySetup(seed=4))
    play_out(table, random.Random(4))
    assert table.is_over() and table.legal() == []
    with pytest.raises(IllegalPlay, match="over"):
        table.act(PASS)


def test_a_single_deal_ends_after_eight_hands():
    table, _ = PlayTable.start(PlaySetup(seed=4))
    play_out(table, random.Random(4))
    assert table.deal_number == 1 and len(table.deal.played_hands) == 8
    view = table.view()
    assert view.is_over and view.to_move is None
    assert view.outcome is not None and view.outcome.game_bonus == {"NS": 0, "EW": 0}
    assert dict(view.outcome.final) == dict(view.finished_deals[0].scores)


def test_a_game_plays_deals_until_four_or_100_with_the_bonus():
    setup = PlaySetup(seed=11, game=True, opponents="signal")
    table, steps = PlayTable.start(setup)
    steps = play_out(table, random.Random(11), steps)
    outcome = table.view().outcome
    assert outcome is not None
    assert outcome.deals_played == table.deal_number == len(table.view().finished_deals)
    assert outcome.deals_played == 4 or max(outcome.totals.values()) >= 100
    assert [s.deal_number for s in steps] == sorted(s.deal_number for s in steps)
    assert sum(s.deal_finished for s in steps) == outcome.deals_played


def test_the_same_setup_and_choices_give_the_same_table():
    def run():
        table, _ = PlayTable.start(PlaySetup(seed=21, opponents="signal"))
        play_out(table, random.Random(5))
        return table.actions

    assert run() == run()


# -- replay -----------------------------------------------------------------------------------


def test_replay_rebuilds_the_table_mid_deal():
    setup = PlaySetup(seed=8, opponents="signal")
    table, _ = PlayTable.start(setup)
    rng = random.Random(8)
    for _ in range(5):
        table.act(rng.choice(table.legal()))
    again = PlayTable.replay(setup, table.actions)
    assert again.view() == table.view()
    assert again.attempts() == table.attempts()


def test_replay_then_act_equals_acting_on_the_original():
    setup = PlaySetup(seed=8)
    table, _ = PlayTable.start(setup)
    again = PlayTable.replay(setup, table.actions)
    action = table.legal()[-1]
    assert again.act(action) == table.act(action)
    assert again.actions == table.actions


def test_replay_names_the_first_illegal_action():
    setup = PlaySetup(seed=8)
    table, _ = PlayTable.start(setup)
    first = table.actions[0]
    with pytest.raises(IllegalPlay, match="action 2"):
        PlayTable.replay(setup, [first, first])  # the same card played twice
    with pytest.raises(IllegalPlay, match="action 1"):
        PlayTable.replay(setup, [PASS])  # a pass on the first card of hand 1


def test_replay_refuses_actions_after_the_end():
    setup = PlaySetup(seed=4)
    table, _ = PlayTable.start(setup)
    play_out(table, random.Random(4))
    with pytest.raises(IllegalPlay, match="over"):
        PlayTable.replay(setup, [*table.actions, PASS])


def test_replay_takes_actions_not_text():
    setup = PlaySetup(seed=1)
    first = PlayTable.start(setup)[0].actions[0]
    with pytest.raises(WrongTypeError):
        PlayTable.replay(setup, [first, "7C"])


# -- steps and summaries ----------------------------------------------------------------------


def test_a_step_that_ends_a_hand_carries_its_summary():
    table, steps = PlayTable.start(PlaySetup(seed=7, opponents="signal"))
    steps = play_out(table, random.Random(7), steps)
    finished = [s for s in steps if s.hand_finished]
    assert len(finished) == 8
    assert all(s.made is not None for s in finished)
    assert all(s.made is None for s in steps if not s.hand_finished)
    assert [s.made.hand_number for s in finished] == list(range(1, 9))
    for step, hand in zip(finished, table.deal.played_hands, strict=True):
        assert step.made.points == hand.points
        assert [c for _, c in step.made.cards] == list(hand.card_list)


def test_summary_reads_a_signal_and_says_what_was_made():
    table, _ = PlayTable.start(PlaySetup(seed=7, opponents="signal"))
    play_out(table, random.Random(7))
    signalled = [s for s in table.summaries() if s.signal is not None and s.readings]
    assert signalled
    summary = signalled[0]
    assert summary.primary == summary.readings[0]
    seat = {"N": "North", "E": "East", "S": "South", "W": "West"}[summary.leader]
    assert summary.text.startswith(f"Hand {summary.hand_number}: {seat} signalled")
    assert f"for {summary.points}." in summary.text


def test_greedy_opponents_give_no_readings():
    table, _ = PlayTable.start(PlaySetup(seed=7, opponents="greedy"))
    play_out(table, random.Random(7))
    for summary in table.summaries():
        if summary.side == "EW":
            assert summary.convention is None and summary.readings == ()
            assert "without a signal" in summary.text


def test_hand_summary_records_the_learners_read():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    while not table.is_over():
        table.act(south_signal_bot(table))
    north = next(s for s in table.summaries() if s.leader == "N" and s.readings)
    summary = hand_summary(table, north.hand_number, read="one_pair", read_correct=False)
    assert summary.read == "one_pair" and "you read one pair (wrong)" in summary.text


def test_hand_summary_of_an_unfinished_hand_is_illegal():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    with pytest.raises(IllegalPlay, match="not finished"):
        hand_summary(table, 2)


# -- the view ---------------------------------------------------------------------------------


def test_view_shows_souths_hand_and_counts():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    view = table.view()
    assert view.hand == table.deal.held(Seat.S)
    assert dict(view.counts) == {str(s): n for s, n in table.deal.card_counts().items()}
    assert view.to_move is Seat.S and view.hand_number == 2 and view.side_hand == 1
    assert len(view.completed) == 1 and view.completed[0].leader is Seat.E
    assert view.legal == tuple(table.legal()) and view.to_json()["to_move"] == "S"


def test_view_json_is_plain_json():
    import json

    table, _ = PlayTable.start(PlaySetup(seed=7, game=True))
    play_out(table, random.Random(1))
    data = table.view().to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["outcome"]["winner"] in ("NS", "EW", None)


def test_souths_leads_are_graded_by_the_lead_answer_key():
    from engine.drills import grade, parse_answer
    from engine.play.grading import lead_drill

    setup = PlaySetup(seed=2)
    table, _ = PlayTable.start(setup)
    while not table.is_over():
        table.act(south_signal_bot(table))
    attempts = table.attempts()
    assert attempts and all(a.kind == "lead" for a in attempts)
    for attempt in attempts:
        held = table.start_holding(1, attempt.hand_number)[Seat.S]
        drill = lead_drill(held, attempt.side_hand, setup.convention, setup.rule)
        c1, c2 = attempt.answer.split()
        graded = grade(drill, parse_answer(drill, {"c1": c1, "c2": c2}))
        assert graded.correct == attempt.correct
        assert attempt.skill == drill.skill


def test_the_timing_script_measures_learner_requests():
    from benchmarks.bench_play import measure

    result = measure(1, "greedy", coach=True, south="signal", seed=3)
    assert result["requests"] > 0 and 0 < result["p50_ms"] <= result["max_ms"]


def test_the_opponents_strength_is_a_setting_kept_in_the_record_only_when_chosen():
    from engine.bots.signal import SignalBot
    from engine.play.setup import InvalidSetupError

    plain = PlaySetup(seed=5, opponents="signal")
    assert "opponents_strength" not in plain.to_json()  # older records read the same
    strong = PlaySetup(seed=5, opponents="signal", opponents_strength="strong")
    assert strong.to_json()["opponents_strength"] == "strong"
    assert PlaySetup.from_json(strong.to_json()) == strong
    table, _ = PlayTable.start(strong)
    assert (
        isinstance(table.bot_for(Seat.E), SignalBot) and table.bot_for(Seat.E).strength == "strong"
    )
    with pytest.raises(InvalidSetupError, match="strength of the opponents"):
        PlaySetup.from_json({"seed": 5, "opponents_strength": "godlike"})
