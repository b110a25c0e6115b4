"""The coach at the table: its lead advice is the encoder's, its quiz answer is the read drill's,
and both grade as the drills' answer keys do (property tests over seeds, both conventions and
both scoring rules)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import SignalBot
from engine.drills import Answer, Drill, DrillKind, DrillParams, grade
from engine.game import PASS, Action
from engine.play import IllegalPlay, PlaySetup, PlayTable, coach_lead, coach_read, grade_read
from engine.scoring import get_rule
from engine.seats import Seat
from engine.signals import CONVENTIONS, encode, get_convention
from engine.signals.witness import sized_primary

COMBINATIONS = [(c, r) for c in sorted(CONVENTIONS) for r in ("classic", "contribution")]


def check_lead_advice(table: PlayTable, advice) -> None:
    conv = get_convention(table.setup.convention)
    held = table.deal.held(Seat.S)
    enc = encode(held, table.deal.side_hand, conv)
    assert advice.preferred == enc.plays[0]
    assert advice.plays == enc.plays and advice.item == enc.item
    assert Action.play(advice.preferred[0]) in table.legal()


def check_quiz(table: PlayTable, quiz) -> None:
    deal = table.deal
    conv = get_convention(table.setup.convention)
    c1, c2 = quiz.signal
    completed = tuple(h.card_list for h in deal.played_hands)
    own = deal.held(Seat.S)
    visible = own + tuple(c for h in completed for c in h)
    leader = table.start_holding(table.deal_number, deal.hand_number)[Seat.N]
    first = sized_primary((c1, c2), deal.side_hand, len(leader), visible, conv)
    assert first is not None and quiz.answer == first.item
    drill = Drill(
        kind=DrillKind.READ,
        seed=0,
        params=DrillParams(convention=conv.name, own_hand=True),
        skill=quiz.answer,
        side_hand=deal.side_hand,
        prompt="",
        hand=own,
        completed=completed,
        signal=(c1, c2),
        source=leader,
        options=quiz.options,
    )
    assert grade(drill, Answer(option=quiz.answer)).correct
    assert quiz.answer in quiz.option_keys
    assert len(set(quiz.option_keys)) == len(quiz.options) >= 2
    for key in quiz.option_keys:
        attempt = grade_read(table, key)
        assert attempt.correct == grade(drill, Answer(option=key)).correct
        assert attempt.kind == "read" and attempt.skill == quiz.answer
    if not quiz.odds.empty:
        assert abs(sum(o.p for o in quiz.odds.items) - 1) < 1e-6


def coached_deal(setup: PlaySetup, rng: random.Random) -> tuple[int, int]:
    """South follows the coach's lead advice and otherwise plays as a signal bot (now and then
    a random legal action). Checks every claim; returns (leads advised, quizzes)."""
    table, _ = PlayTable.start(setup)
    bot = SignalBot(setup.convention)
    advised = quizzes = 0
    followed: set[int] = set()
    while not table.is_over():
        deal = table.deal
        advice = coach_lead(table)
        quiz = coach_read(table)
        assert advice is None or quiz is None
        if quiz is not None:
            quizzes += 1
            check_quiz(table, quiz)
        if advice is not None and not deal.current_actions:
            advised += 1
            check_lead_advice(table, advice)
            followed.add(deal.hand_number)
            table.act(Action.play(advice.preferred[0]))
            continue
        if advice is not None and deal.hand_number in followed:
            led = deal.current_actions[0][1].card
            assert all(p[0] is led for p in advice.plays)
            second = advice.preferred[1]
            action = PASS if second is None else Action.play(second)
            assert action in table.legal()
            table.act(action)
            continue
        obs = deal.observation(Seat.S)
        if rng.random() < 0.15:
            table.act(rng.choice(table.legal()))
        else:
            table.act(bot.choose(obs, obs.legal_actions))
    for attempt in table.attempts():
        if attempt.hand_number in followed:
            assert attempt.correct, attempt
    return advised, quizzes


@pytest.mark.parametrize(("convention", "rule"), COMBINATIONS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), south=st.integers(0, 2**32))
def test_every_coach_claim_holds(convention, rule, seed, south):
    setup = PlaySetup(
        seed=seed,
        rule=get_rule(rule),
        convention=convention,
        opponents="signal",
        opponents_convention=convention,
    )
    coached_deal(setup, random.Random(south))


def test_the_coach_speaks_in_a_fixed_deal():
    advised, quizzes = coached_deal(PlaySetup(seed=7), random.Random(0))
    assert advised >= 1 and quizzes >= 1


def test_each_coach_speaks_only_at_its_moment():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    bot = SignalBot("parlett-2008")
    replying = leading = 0
    while not table.is_over():
        acts = table.deal.current_actions
        south_leads = (acts[0][0] if acts else Seat.S) is Seat.S
        if not south_leads:
            replying += 1
            assert coach_lead(table) is None
        if not acts or south_leads:
            leading += 1
            assert coach_read(table) is None
        if len(acts) > 3 or (acts and acts[0][0] is Seat.N and len(acts) != 3):
            assert coach_read(table) is None
        obs = table.deal.observation(Seat.S)
        table.act(bot.choose(obs, obs.legal_actions))
    assert replying and leading
    assert coach_lead(table) is None and coach_read(table) is None


def test_grade_read_without_a_quiz_is_illegal():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    with pytest.raises(IllegalPlay, match="no signal"):
        grade_read(table, "one_pair")


def test_grade_read_refuses_an_answer_not_offered():
    table, _ = PlayTable.start(PlaySetup(seed=7))
    bot = SignalBot("parlett-2008")
    while coach_read(table) is None:
        obs = table.deal.observation(Seat.S)
        table.act(bot.choose(obs, obs.legal_actions))
    quiz = coach_read(table)
    missing = next(
        i for i in CONVENTIONS["parlett-2008"].signal_checklist if i not in quiz.option_keys
    )
    with pytest.raises(IllegalPlay, match="not one of"):
        grade_read(table, missing)


def test_quiz_options_are_shuffled_from_the_signal_alone():
    """Two tables reaching the same signal with the same visible cards offer the same order."""
    table, _ = PlayTable.start(PlaySetup(seed=7))
    bot = SignalBot("parlett-2008")
    while coach_read(table) is None:
        obs = table.deal.observation(Seat.S)
        table.act(bot.choose(obs, obs.legal_actions))
    again = PlayTable.replay(table.setup, table.actions)
    assert coach_read(again) == coach_read(table)


def _south_leads_then_north_passes(first_card_ok: bool) -> PlayTable:
    """A table where South led a first card that begins an accepted lead (or begins none)
    and North passed."""
    for seed in range(50):
        table, _ = PlayTable.start(PlaySetup(seed=seed))
        advice = coach_lead(table)
        assert advice is not None
        firsts = {p[0] for p in advice.plays}
        cards = [c for c in table.deal.held(Seat.S) if (c in firsts) == first_card_ok]
        if not cards:
            continue
        table.act(Action.play(cards[0]))
        acts = table.deal.current_actions
        if table.learner_to_move() and len(acts) == 2 and acts[1][1] == PASS:
            return table
    raise AssertionError("no such table in 50 seeds")


def test_lead_advice_for_the_second_card_continues_the_first():
    table = _south_leads_then_north_passes(first_card_ok=True)
    advice = coach_lead(table)
    led = table.deal.current_actions[0][1].card
    assert advice is not None and all(p[0] is led for p in advice.plays)
    second = advice.preferred[1]
    assert (PASS if second is None else Action.play(second)) in table.legal()


def test_no_lead_advice_after_a_first_card_no_lead_begins_with():
    table = _south_leads_then_north_passes(first_card_ok=False)
    assert coach_lead(table) is None


def test_the_coach_says_what_the_last_hand_needs_from_the_hand_scores():
    """At South's turns in its side's last hand (and only then) the coach weighs the hand
    scores everyone can see: ahead or level, make the hand; far behind, keep the left-overs
    low; in between, either, as the hand allows."""
    from engine.play.coach import FAR_BEHIND, coach_stakes

    said = set()
    for seed in range(12):
        table, _ = PlayTable.start(PlaySetup(seed=seed, opponents="signal"))
        bot = SignalBot(table.setup.convention)
        while not table.is_over():
            deal = table.deal
            line = coach_stakes(table)
            last = deal.side_hand == 4 and deal.side_of_hand is Seat.S.side
            assert (line is not None) == (last and table.learner_to_move()), line
            if line is not None:
                scores = deal.hand_scores()
                gap = scores[Seat.S.side] - scores[Seat.S.side.other]
                first = line.params["first"] if line.id == "sentences" else line
                expected = (
                    "coach.stakes.ahead"
                    if gap > 0
                    else "coach.stakes.level"
                    if gap == 0
                    else "coach.stakes.far_behind"
                    if -gap >= FAR_BEHIND
                    else "coach.stakes.behind"
                )
                assert first.id == expected, (gap, str(line))
                assert (line.id == "sentences") == (deal.hand_number < 8)
                said.add(first.id)
            obs = deal.observation(Seat.S)
            table.act(bot.choose(obs, obs.legal_actions))
    assert len(said) >= 2
