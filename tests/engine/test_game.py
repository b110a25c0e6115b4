import random

import pytest

from engine.cards import DECK, Card
from engine.errors import IllegalPlayError, InvalidCardsError, InvalidNotationError
from engine.game import (
    FORCE,
    PASS,
    Action,
    DealState,
    GameState,
    game_outcome,
    is_game_over,
)
from engine.scoring import Combination
from engine.seats import Seat, Side

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def suit_hands():
    """N holds the spades, E the hearts, S the diamonds, W the clubs."""
    return {seat: DECK[13 * k : 13 * k + 13] for k, seat in enumerate((N, E, S, W))}


def new_deal(dealer=W, rule="classic"):
    """W deals, so N leads hand 1 and the hands are led N E S W N E S W."""
    return DealState(dealer, suit_hands(), rule)


def run(state, script):
    for text in script.split():
        state.apply_action(Action.parse(text))


def play_simple_hand(state):
    """Finish the current hand playing the first legal card every turn."""
    done = len(state.played_hands) + 1
    while len(state.played_hands) < done:
        state.apply_action(next(a for a in state.legal_actions() if a.is_play))


def test_action_round_trips_through_strings():
    for text in ("AS", "pass", "force"):
        assert str(Action.parse(text)) == text
        assert eval(repr(Action.parse(text))) == Action.parse(text)
    assert Action.parse("Play!") is FORCE
    assert Action.from_id(Action.parse("TD").id) == Action.parse("TD")
    with pytest.raises(InvalidNotationError, match="not an action"):
        Action.parse("fold")


def test_every_action_reads_back_from_what_it_writes_and_from_other_notations():
    """Records store ``str(action)``: each of the 54 reads back as itself (by the quick path
    for written text), and the other spellings (lower case, spaces, ids) read the same."""
    every = [Action.from_id(i) for i in range(54)]
    assert len({str(a) for a in every}) == 54
    for action in every:
        text = str(action)
        assert Action.parse(text) == action
        assert Action.parse(f" {text.lower()} ") == action == Action.from_id(action.id)
    for text in ("", " ", "A", "XS", "pas", "AS AS", "1H"):
        with pytest.raises(InvalidNotationError):
            Action.parse(text)


def test_deal_needs_four_distinct_thirteen_card_hands():
    hands = suit_hands()
    hands[E] = hands[N]
    with pytest.raises(InvalidCardsError, match="duplicate card"):
        DealState(W, hands)
    hands = suit_hands()
    hands[E] = hands[E][:12]
    with pytest.raises(InvalidCardsError, match="hand E: expected 13 cards"):
        DealState(W, hands)


def test_seeded_deal_replays():
    a = DealState.deal(N, random.Random(42))
    b = DealState.deal(N, random.Random(42))
    assert a.hands_dealt == b.hands_dealt
    assert sorted(c.index for h in a.hands_dealt.values() for c in h) == list(range(52))


def test_player_left_of_dealer_leads_hand_one():
    state = new_deal(dealer=S)
    assert state.leader is W and state.current_player() is W
    assert state.side_of_hand is Side.EW


def test_lead_rotates_left_and_sides_alternate():
    state = new_deal()
    leaders, sides = [], []
    while not state.is_terminal():
        leaders.append(state.leader)
        sides.append(state.side_of_hand)
        assert state.side_hand == (state.hand_number + 1) // 2
        play_simple_hand(state)
    assert leaders == [N, E, S, W, N, E, S, W]
    assert sides == [Side.NS, Side.EW] * 4
    assert [h.number for h in state.played_hands] == list(range(1, 9))


def test_only_the_leaders_side_plays():
    state = new_deal()
    run(state, "AS")
    assert state.current_player() is S
    with pytest.raises(IllegalPlayError, match="S cannot play 2H"):
        state.apply_action(Action.parse("2H"))


def test_partners_alternate_starting_with_the_leader():
    state = new_deal()
    players = []
    for text in ["AS", "2D", "KS", "3D", "QS"]:
        players.append(state.current_player())
        run(state, text)
    assert players == [N, S, N, S, N]
    assert state.played_hands[0].played_by == (N, S, N, S, N)


def test_leader_may_not_pass_or_force_on_the_first_turn():
    state = new_deal()
    assert PASS not in state.legal_actions() and FORCE not in state.legal_actions()
    with pytest.raises(IllegalPlayError, match="first card of a hand must be played"):
        state.apply_action(PASS)
    with pytest.raises(IllegalPlayError, match="first card of a hand must be played"):
        state.apply_action(FORCE)


def test_pass_gives_the_turn_to_the_partner():
    state = new_deal()
    run(state, "AS")
    assert PASS in state.legal_actions()
    run(state, "pass")
    assert state.current_player() is N


def test_no_third_pass_in_a_row():
    state = new_deal()
    run(state, "AS pass pass")
    assert state.current_player() is S
    assert state.legal_actions() == [Action.play(c) for c in state.held(S)]
    with pytest.raises(IllegalPlayError, match="two previous turns were both passes"):
        state.apply_action(PASS)


def test_force_not_allowed_after_two_passes():
    state = new_deal()
    run(state, "AS pass pass")
    with pytest.raises(IllegalPlayError, match="cannot force: the two previous turns"):
        state.apply_action(FORCE)


def test_a_played_card_resets_the_pass_count():
    state = new_deal()
    run(state, "AS pass pass 2D")
    assert state.passes_in_row == 0
    run(state, "pass")
    assert state.current_player() is S and PASS in state.legal_actions()


def test_partner_may_pass_every_turn_so_the_leader_plays_all_five():
    state = new_deal()
    run(state, "AS pass KS pass QS pass JS pass TS")
    hand = state.played_hands[0]
    assert hand.played_by == (N,) * 5 and hand.combination is Combination.STRAIGHT_FLUSH


def test_force_makes_the_partner_supply_every_remaining_card():
    state = new_deal()
    run(state, "AS force")  # S says force: N must play the other four cards
    for _ in range(4):
        assert state.current_player() is N
        assert all(a.is_play for a in state.legal_actions())
        state.apply_action(state.legal_actions()[-1])  # the forced player chooses the card
    hand = state.played_hands[0]
    assert hand.played_by == (N,) * 5
    assert [str(a) for _, a in hand.actions] == ["AS", "force", "2S", "3S", "4S", "5S"]


def test_force_is_allowed_exactly_when_pass_is():
    state = new_deal()
    assert FORCE not in state.legal_actions()
    run(state, "AS")
    assert {PASS, FORCE} <= set(state.legal_actions())
    run(state, "pass pass")
    assert FORCE not in state.legal_actions()


def test_no_pass_after_a_force():
    state = new_deal()
    run(state, "AS force 2S")
    with pytest.raises(IllegalPlayError, match="S forced N to play the rest"):
        state.apply_action(PASS)


def test_card_not_held_is_illegal():
    state = new_deal()
    with pytest.raises(IllegalPlayError, match="N cannot play 2D: it is not in their hand"):
        state.apply_action(Action.parse("2D"))
    run(state, "AS pass")
    with pytest.raises(IllegalPlayError, match="not in their hand"):
        state.apply_action(Action.parse("AS"))


def test_apply_action_wants_an_action():
    with pytest.raises(TypeError):
        new_deal().apply_action("AS")


# The next positions empty South's hand: S plays 4 cards of hand 1, 5 of hand 3, 2 or 4 of
# hand 5, while E and W play their own hands plainly.
SOUTH_EMPTIES = [
    "AS 2D pass 3D pass 4D pass 5D",  # hand 1, N leads: S has 9 left
    None,  # hand 2, E
    "6D pass 7D pass 8D pass 9D pass TD",  # hand 3, S leads: S has 4 left
    None,  # hand 4, W
]


def reach_hand_7(hand_5_script):
    state = new_deal()
    for script in [*SOUTH_EMPTIES, hand_5_script, None]:
        if script is None:
            play_simple_hand(state)
        else:
            run(state, script)
    assert state.hand_number == 7 and state.leader is S
    return state


def test_forced_partner_who_runs_out_leaves_the_rest_to_the_forcing_player():
    state = reach_hand_7("KS JD QS QD JS")  # S keeps KD AD
    run(state, "KD force AD")
    assert state.held(S) == ()
    assert state.current_player() is N
    run(state, "TS 9S 8S")
    hand = state.played_hands[-1]
    assert hand.played_by == (S, S, N, N, N)
    assert [str(a) for _, a in hand.actions] == ["KD", "force", "AD", "TS", "9S", "8S"]


def test_force_is_allowed_when_the_partner_holds_too_few_cards():
    state = reach_hand_7("KS JD QS QD JS")
    run(state, "KD")
    assert state.card_counts()[S] == 1
    assert FORCE in state.legal_actions()


def test_empty_handed_partner_is_skipped_and_cannot_be_passed_to():
    state = reach_hand_7("KS JD pass QD pass KD QS")  # S keeps AD only
    run(state, "AD JS")
    assert state.held(S) == ()
    assert state.current_player() is N
    assert PASS not in state.legal_actions() and FORCE not in state.legal_actions()
    with pytest.raises(IllegalPlayError, match="partner S holds no cards"):
        state.apply_action(PASS)
    run(state, "TS 9S 8S")
    assert state.played_hands[-1].played_by == (S, N, N, N, N)


def test_empty_handed_leader_lets_the_partner_lead():
    state = reach_hand_7("KS JD pass QD pass KD pass AD")  # S has no cards left
    assert state.leader is S and state.current_player() is N
    assert PASS not in state.legal_actions()
    run(state, "QS JS TS 9S 8S")
    hand = state.played_hands[-1]
    assert hand.leader is S and hand.side is Side.NS
    assert hand.played_by == (N,) * 5


def test_each_side_keeps_six_left_overs():
    state = new_deal()
    while not state.is_terminal():
        play_simple_hand(state)
    leftovers = state.leftovers()
    assert {side: len(cards) for side, cards in leftovers.items()} == {Side.NS: 6, Side.EW: 6}
    assert state.current_player() is None and state.legal_actions() == []
    with pytest.raises(IllegalPlayError, match="the deal is over"):
        state.apply_action(Action.parse("2S"))


def test_left_overs_only_at_the_end():
    with pytest.raises(IllegalPlayError, match="left-overs exist only"):
        new_deal().leftovers()


def test_result_adds_hand_scores_and_left_over_bonus():
    state = new_deal()
    while not state.is_terminal():
        play_simple_hand(state)
    result = state.result()
    for side in Side:
        assert result.scores[side] == result.hand_scores[side] + result.leftover_bonus[side]
        assert result.hand_scores[side] == sum(
            h.points for h in state.played_hands if h.side is side
        )


def test_clone_is_independent():
    state = new_deal()
    run(state, "AS")
    copy = state.clone()
    run(copy, "pass KS")
    assert state.current_cards == ((N, Card.parse("AS")),)
    assert len(copy.current_cards) == 2 and Card.parse("KS") in state.held(N)


def test_observation_shows_own_cards_and_the_table_only():
    state = new_deal()
    run(state, "AS pass")
    obs = state.observation(E)
    assert obs.own_cards == state.held(E)
    assert obs.current_cards == ((N, Card.parse("AS")),)
    assert obs.card_counts == {N: 12, E: 13, S: 13, W: 13}
    assert obs.current_player is N and obs.legal_actions == ()
    assert state.observation(N).legal_actions == tuple(state.legal_actions())
    assert not hasattr(obs, "hands_dealt")


def test_worked_check_game_ends_at_100_with_bonus_for_unplayed_deals():
    totals = {Side.NS: 104, Side.EW: 61}
    assert is_game_over(totals, 2)
    outcome = game_outcome(totals, 2)
    assert outcome.game_bonus == {Side.NS: 300, Side.EW: 0}
    assert outcome.final == {Side.NS: 404, Side.EW: 61}
    assert outcome.winner is Side.NS


def test_no_game_bonus_when_both_reach_100():
    outcome = game_outcome({Side.NS: 120, Side.EW: 101}, 3)
    assert outcome.game_bonus == {Side.NS: 0, Side.EW: 0} and outcome.winner is Side.NS


def test_no_game_bonus_when_neither_reaches_100_and_equal_totals_draw():
    assert not is_game_over({Side.NS: 40, Side.EW: 40}, 3)
    assert is_game_over({Side.NS: 40, Side.EW: 40}, 4)
    outcome = game_outcome({Side.NS: 40, Side.EW: 40}, 4)
    assert outcome.game_bonus == {Side.NS: 0, Side.EW: 0} and outcome.winner is None


def test_game_bonus_after_four_deals_is_100():
    assert game_outcome({Side.NS: 20, Side.EW: 100}, 4).game_bonus[Side.EW] == 100


def test_game_deal_passes_left():
    from engine.bots import play_game

    game = play_game(8)
    assert [d.dealer for d in game.deals] == [N, E, S, W][: len(game.deals)]


def test_game_replays_from_its_seed():
    a, b = GameState.new(9), GameState.new(random.Random(9))
    assert a.deal.hands_dealt == b.deal.hands_dealt


def test_game_over_refuses_actions():
    from engine.bots import play_game

    game = play_game(1)
    with pytest.raises(IllegalPlayError, match="the game is over"):
        game.apply_action(PASS)


def test_game_outcome_only_at_the_end():
    with pytest.raises(IllegalPlayError, match="not over"):
        GameState.new(1).outcome()
