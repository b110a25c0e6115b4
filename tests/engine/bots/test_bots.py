"""The bots: every action legal, nothing hidden read, the signal bot true to its card."""

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import GreedyBot, RandomBot, SignalBot, make_bot, odds_reading
from engine.bots.hands import best_fill, keep_values, points5
from engine.bots.odds_reading import Position, kept_holdings, odds_plan
from engine.bots.signal import BEGINNER, FULL_HOUSE_OVER, STRONG, given_signal
from engine.cards import DECK, parse_cards
from engine.game import PASS, Action, DealState
from engine.scoring import CLASSIC, CONTRIBUTION, score_hand
from engine.seats import SEATS, Seat
from engine.signals import encode, get_convention, reply_advice, signal_holdings
from engine.signals.checklist import hand_mask
from engine.signals.decoder import decode
from engine.signals.reply import best_completion

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rules = st.sampled_from(["classic", "contribution"])
conventions = st.sampled_from(["parlett-2008", "teach-yourself-1994"])


def _bots(kind: str, convention: str, seed: int):
    if kind == "random":
        return RandomBot(random.Random(seed))
    if kind == "greedy":
        return GreedyBot()
    if kind == "strong":
        return SignalBot(convention, strength=STRONG)
    return SignalBot(convention)


def playout(seed, rule, ns, ew, convention="parlett-2008"):
    """Play one deal, checking every chosen action is among the legal ones."""
    state = DealState.deal(Seat.N, random.Random(seed), rule)
    bots = {seat: _bots(ns if seat in (Seat.N, Seat.S) else ew, convention, seed) for seat in SEATS}
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        action = bots[seat].choose(obs, obs.legal_actions)
        assert action in obs.legal_actions
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@settings(max_examples=25, deadline=None)
@given(
    seeds,
    rules,
    st.sampled_from(["greedy", "signal", "strong", "random"]),
    st.sampled_from(["greedy", "signal", "strong"]),
    conventions,
)
def test_every_action_of_every_bot_is_legal(seed, rule, ns, ew, convention):
    state = playout(seed, rule, ns, ew, convention)
    assert state.is_terminal() and len(state.played_hands) == 8


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seeds, rules, conventions)
def test_signal_against_signal_volume(seed, rule, convention):
    assert playout(seed, rule, "signal", "signal", convention).is_terminal()


def test_an_observation_holds_no_hidden_card():
    state = DealState.deal(Seat.N, random.Random(5))
    obs = state.observation(Seat.E)
    hidden = {c for seat in SEATS if seat is not Seat.E for c in state.held(seat)}
    seen = set(obs.own_cards) | {c for h in obs.played_hands for _, c in h.cards}
    assert not hidden & seen


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", ["greedy", "signal", "strong"])
def test_a_bot_handed_a_doctored_observation_behaves_the_same(seed, kind):
    """Change every hidden card (the other three hands are re-dealt among themselves, keeping
    the played cards and the counts): the seat's observations are equal, so are its choices
    (asked of a second bot, so that no memo table answers for the first)."""
    rng = random.Random(1000 + seed)
    state = DealState.deal(Seat.N, random.Random(seed))
    bots = {s: _bots(kind, "parlett-2008", seed) for s in SEATS}
    twins = {s: _bots(kind, "parlett-2008", seed) for s in SEATS}
    while not state.is_terminal():
        player = state.current_player()
        obs = state.observation(player)
        twin_state = _redeal_hidden(state, player, rng)
        if twin_state is not None:
            twin = twin_state.observation(player)
            assert twin.own_cards == obs.own_cards
            assert any(twin_state.held(s) != state.held(s) for s in SEATS if s is not player)
            assert twins[player].choose(twin, twin.legal_actions) == bots[player].choose(
                obs, obs.legal_actions
            )
        state.apply_action(bots[player].choose(obs, obs.legal_actions))


def _redeal_hidden(state, seat, rng):
    """A state with the same history and the same cards for ``seat``, whose other players'
    unplayed cards are shuffled among them (hand sizes kept)."""
    hidden = [c for s in SEATS if s is not seat for c in state.held(s)]
    if len(hidden) < 2:
        return None
    shuffled = hidden[:]
    for _ in range(5):
        rng.shuffle(shuffled)
        if shuffled != hidden:
            break
    new_held = {}
    k = 0
    for s in SEATS:
        if s is seat:
            new_held[s] = list(state.held(s))
        else:
            n = len(state.held(s))
            new_held[s] = shuffled[k : k + n]
            k += n
    dealt = {s: list(new_held[s]) for s in SEATS}
    for hand in state.played_hands:
        for s, c in hand.cards:
            dealt[s].append(c)
    for s, c in state.current_cards:
        dealt[s].append(c)
    twin = DealState(state.dealer, dealt, state.rule)
    for hand in state.played_hands:
        for _, action in hand.actions:
            twin.apply_action(action)
    for _, action in state.current_actions:
        twin.apply_action(action)
    return twin


def test_the_beginner_partner_leads_the_encoders_preferred_play():
    """Every lead is the encoder's preferred play: for the whole hand, or (when the leader's
    own best five beats what the signal would bring) for those five cards alone."""
    solo = 0
    for seed in range(30):
        state = DealState.deal(Seat.N, random.Random(seed))
        for conv in ("parlett-2008", "teach-yourself-1994"):
            obs = state.observation(state.current_player())
            bot = SignalBot(conv, strength=BEGINNER)
            action = bot.choose(obs, obs.legal_actions)
            whole = encode(obs.own_cards, 1, get_convention(conv)).plays[0]
            five = best_fill((), obs.own_cards, obs.seat, obs.rule).cards
            alone = encode(five, 1, get_convention(conv)).plays[0]
            assert bot.lead_plan(obs.own_cards, 1, obs.rule) in (whole, alone)
            assert action.card is bot.lead_plan(obs.own_cards, 1, obs.rule)[0]
            solo += bot.lead_plan(obs.own_cards, 1, obs.rule) != whole
    assert 0 < solo < 60


def test_a_signal_whose_cards_are_the_leaders_best_is_led_as_encoded():
    north = parse_cards("2D 3D 4D 5D KS 9C 7H JH 8S 6C QC 4S TH")
    state = _position(north, parse_cards("AS AH AC 2S 3S 5S 6S 7S 9S TS JS QS 9D"), [])
    obs = state.observation(Seat.N)
    assert SignalBot().choose(obs, obs.legal_actions) == Action.parse("2D")
    assert encode(north, 1).plays[0] == tuple(parse_cards("2D 5D"))


def test_a_hand_whose_item_is_a_draw_is_led_as_its_best_five():
    # Three diamonds to a straight flush (TD KD AD) is a draw partner seldom completes: the
    # leader plays its two pair instead, shown by the encoder's play for those five cards.
    north = parse_cards("2S 6S TS 4H QH 6D TD KD AD 3C 8C 9C KC")
    whole = encode(north, 1)
    assert whole.item == "three_sf"
    five = best_fill((), north, Seat.N, CLASSIC).cards
    alone = encode(five, 1)
    assert alone.item == "two_pair" and alone.plays[0] != whole.plays[0]
    state = _position(north, parse_cards("AS AH AC 2H 3H 5H 7H 9H JH KH 2D 3D 4D"), [])
    obs = state.observation(Seat.N)
    bot = SignalBot(strength=BEGINNER)
    assert bot.lead_plan(north, 1, CLASSIC) == alone.plays[0]
    assert bot.choose(obs, obs.legal_actions).card is alone.plays[0][0]


def test_the_standard_partner_shows_two_pairs_or_a_three_for_a_full_house():
    # The same draw hand holds three pairs (6s, tens, kings): the standard partner shows its
    # two lowest (the encoder's play for 6S 6D TS TD: two pair), for partner to add a 6 or a
    # ten; a hand whose draw sits beside a three shows the three (red, then pass).
    north = parse_cards("2S 6S TS 4H QH 6D TD KD AD 3C 8C 9C KC")
    bot = SignalBot()
    shown = encode(parse_cards("6S 6D TS TD"), 1)
    assert shown.item == "two_pair"
    assert bot.lead_plan(north, 1, CLASSIC) == shown.plays[0]
    three = parse_cards("2S 6S 6H 6D 4H QH TD KD AD 3C 8C 9C JC")
    assert encode(three, 1).item in FULL_HOUSE_OVER
    threes = encode(parse_cards("6S 6H 6D"), 1)
    assert threes.item == "threes" and bot.lead_plan(three, 1, CLASSIC) == threes.plays[0]
    # Neither a three nor two pairs: the beginner's lead.
    flush = parse_cards("2S 5S 9S JS KS 3H 7H 4D 8D QD 6C TC AC")
    assert bot.lead_plan(flush, 1, CLASSIC) == SignalBot(strength=BEGINNER).lead_plan(
        flush, 1, CLASSIC
    )
    with pytest.raises(ValueError, match="unknown strength"):
        SignalBot(strength="expert")


@pytest.mark.parametrize("conv", ["parlett-2008", "teach-yourself-1994"])
def test_every_lead_of_the_standard_partner_is_a_correct_lead_of_cards_it_holds(conv):
    """Over whole deals: each signal the standard partner gives is one of the card's correct
    plays (the encoder's, any of them) for some five or fewer of the leader's cards holding
    both signal cards; and the full-house leads happen."""
    card = get_convention(conv)
    bots = {s: SignalBot(conv) if s in (Seat.N, Seat.S) else GreedyBot() for s in SEATS}
    checked = for_full_house = 0
    for seed in range(260):
        state = DealState.deal(Seat.W, random.Random(seed))
        held_at_lead: dict[int, tuple] = {}
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            if not obs.current_actions:
                held_at_lead[obs.hand_number] = (seat, obs.own_cards, obs.side_hand)
            state.apply_action(bots[seat].choose(obs, obs.legal_actions))
            acts = state.current_actions
            if len(acts) != 3 or acts[0][0] not in (Seat.N, Seat.S):
                continue
            (lead, a1), (_, a2), (who, a3) = acts
            if a1.card is None or a2 != PASS or who is not lead or not (a3.is_play or a3 == PASS):
                continue
            leader, own, side_hand = held_at_lead[state.hand_number]
            assert leader is lead
            signal = (a1.card, a3.card)
            if encode(own, side_hand, card).item == "none":
                continue  # no item left to show (late in a deal): the bot just plays
            assert _shows_some_of(own, signal, side_hand, card), (seed, [str(c) for c in own])
            checked += 1
            for_full_house += encode(own, side_hand, card).item in FULL_HOUSE_OVER and (
                encode(own, side_hand, card).plays[0] != signal
            )
    assert checked > 1000 and for_full_house > 100, (checked, for_full_house)


def _shows_some_of(own, signal, side_hand, card) -> bool:
    """Whether ``signal`` is a correct play of the item of ``own``, or of some five or fewer of
    its cards (the signal's among them)."""
    if signal in encode(own, side_hand, card).plays:
        return True
    given = [c for c in signal if c is not None]
    rest = [c for c in own if c not in given]
    for size in range(0, 6 - len(given)):
        for more in itertools.combinations(rest, size):
            if signal in encode((*given, *more), side_hand, card).plays:
                return True
    return False


def _position(leader_cards, partner_cards, plays, side_hand=1):
    """A deal whose hand ``2 * side_hand - 1`` starts with N leading; ``plays`` are applied."""
    rest = [c for c in DECK if c not in set(leader_cards) | set(partner_cards)]
    hands = {
        Seat.N: list(leader_cards),
        Seat.S: list(partner_cards),
        Seat.E: rest[:13],
        Seat.W: rest[13:26],
    }
    state = DealState(Seat.W, hands)
    for p in plays:
        state.apply_action(Action.parse(p))
    return state


def test_the_signal_bot_gives_the_encoders_second_card():
    north = parse_cards("2D 3D 4D 5D KS 9C 7H JH 8S 6C QC 4S TH")
    south = parse_cards("AS AH AC 2S 3S 5S 6S 7S 9S TS JS QS 9D")
    state = _position(north, south, ["2D", "pass"])
    obs = state.observation(Seat.N)
    assert SignalBot().choose(obs, obs.legal_actions) == Action.parse("5D")


@pytest.mark.parametrize(
    ("south", "signal", "expected"),
    [
        ("6D AS AH AC 2S 3S 5S 7S 9S TS JS QS 9H", ["2D", "pass", "5D"], "6D"),
        ("AS AH AC 2S 3S 5S 7S 9S TS JS QS 9H KH", ["2D", "pass", "5D"], "pass"),
    ],
)
def test_the_signal_bots_reply_is_the_reply_guides(south, signal, expected):
    north = parse_cards("2D 3D 4D 5D KS 9C 7H JH 8S 6C QC 4S TH")
    state = _position(north, parse_cards(south), signal)
    obs = state.observation(Seat.S)
    got = SignalBot().choose(obs, obs.legal_actions)
    advice = reply_advice(
        obs.own_cards,
        parse_cards(signal[0])[0],
        parse_cards(signal[2])[0],
        1,
        leader_cards=obs.card_counts[Seat.N],
    )
    assert str(got) == expected
    if advice.action == "play":
        assert got.card is advice.cards[0]
    else:
        assert got == Action.parse(advice.action)


# North shows two pairs by its higher pair (TS TD) and holds 7C 7H; East and West hold the rest.
_TWO_PAIRS = "TS TD 7C 7H KS 9C 2H JH 8S 6C QC 4S 3H"


@pytest.mark.parametrize(
    ("south", "expected"),
    [
        # A third ten: the guide's full house, certain.
        ("TC 7D AS AH AC 2S 3S 5S 9S JS QS 9H KH", "TC"),
        # No ten, nothing better than two pair of its own: a seven (three sevens unseen, three
        # ways for the leader to hold two) rather than the guide's pass; South's eights, fives
        # and fours leave one way each.
        ("AS AH KD KC QS QH 7S 8D 8C 5D 5C 4H 4D", "7S"),
        # Partner's own straight flush (15) is worth more than any guess (8 at best): "Play!".
        ("2D 3D 4D 5D 6D AS AH AC 9S JS QS KH 8H", "force"),
    ],
)
def test_after_two_pairs_shown_by_a_pair_the_standard_partner_offers_the_likeliest_lower_rank(
    south, expected
):
    state = _position(parse_cards(_TWO_PAIRS), parse_cards(south), ["TS", "pass", "TD"])
    obs = state.observation(Seat.S)
    assert str(SignalBot().choose(obs, obs.legal_actions)) == expected


def test_without_a_card_lower_than_the_shown_pair_the_standard_partner_does_as_the_guide_says():
    south = parse_cards("AS AH AD AC KH KD KC QS QH QD JS JD JC")
    state = _position(parse_cards(_TWO_PAIRS), south, ["TS", "pass", "TD"])
    obs = state.observation(Seat.S)
    advice = reply_advice(
        obs.own_cards, *parse_cards("TS TD"), 1, leader_cards=obs.card_counts[Seat.N]
    )
    assert SignalBot().choose(obs, obs.legal_actions) == Action.parse(advice.action)


def test_the_guess_looks_only_below_the_shown_pair():
    # One ace of South's leaves three unseen (three ways), but the card shows the higher pair:
    # the other pair is lower. Of South's lower ranks (5s, 8s, 9s: one way each) the lowest.
    south = parse_cards("AS 8D 8C 5D 5C QS QH KD KC JD JC 9S 9H")
    state = _position(parse_cards(_TWO_PAIRS), south, ["TS", "pass", "TD"])
    obs = state.observation(Seat.S)
    got = SignalBot().choose(obs, obs.legal_actions)
    assert got.is_play and got.card.rank == 5


@pytest.mark.parametrize("conv", ["parlett-2008", "teach-yourself-1994"])
def test_where_the_guide_passes_with_too_few_completions_the_standard_partner_completes(conv):
    """At every first reply where the guide passes although partner's cards complete some of
    the holdings (not half), the standard partner plays a card of the guide's best completion
    and the beginner passes as the guide says."""
    standard, beginner = SignalBot(conv), SignalBot(conv, strength=BEGINNER)
    checked = 0
    for seed in range(150):
        state = DealState.deal(Seat.N, random.Random(seed))
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            acts = obs.current_actions
            signal = given_signal(obs) if len(acts) == 3 else None
            if signal is not None and signal[1] is not None and acts[1][0] is seat:
                seen = [c for h in obs.played_hands for _, c in h.cards]
                advice = reply_advice(
                    obs.own_cards,
                    *signal,
                    obs.side_hand,
                    get_convention(conv),
                    seen,
                    leader_cards=obs.card_counts[acts[0][0]],
                )
                if advice.action == "pass" and advice.odds and advice.odds[0]:
                    assert beginner.choose(obs, obs.legal_actions) == PASS
                    got = standard.choose(obs, obs.legal_actions)
                    assert got.is_play, (seed, signal, advice)
                    assert got.card in _guides_best(obs, signal, conv)
                    checked += 1
            state.apply_action(standard.choose(obs, obs.legal_actions))
    assert checked >= 10


def _guides_best(obs, signal, conv):
    """The cards of the reply guide's best completion (the card set completing the most of the
    holdings the primary reading allows), from partner's cards."""
    seen = [c for h in obs.played_hands for _, c in h.cards]
    visible = (*obs.own_cards, *seen)
    readings = decode(*signal, obs.side_hand, get_convention(conv), visible)
    shapes = {r.shape for r in readings if r.item == readings[0].item}
    holdings = signal_holdings(
        readings[0].item, shapes, *signal, get_convention(conv), hand_mask(visible)
    )
    best, _ = best_completion(list(obs.own_cards), holdings)
    return best[0]


def test_the_guess_picks_the_rank_the_leader_most_likely_holds_two_of():
    # South holds one 4 (three unseen: three ways) and two 6s and two 8s (one way each).
    south = parse_cards("AS AC KH KC QS QH JS JC 6D 6H 8D 8C 4D")
    state = _position(parse_cards(_TWO_PAIRS), south, ["TS", "pass", "TD"])
    obs = state.observation(Seat.S)
    assert str(SignalBot().choose(obs, obs.legal_actions)) == "4D"
    # The beginner partner follows the guide: nothing of the shown rank, so it passes.
    assert SignalBot(strength=BEGINNER).choose(obs, obs.legal_actions) == PASS


@pytest.mark.parametrize(
    ("south", "jumps"),
    [
        ("2S 2H 2C AS AH AC 3S 5S 7S 9S TS JS QS", True),  # 2D and three 2s: fours
        ("2S 2H AC AS AH 3C 3S 5S 7S 9S TS JS QS", False),  # a full house is not a big hand
    ],
)
def test_partner_plays_at_once_on_the_led_card_only_with_a_big_hand(south, jumps):
    north = parse_cards("2D 3D 4D 5D KS 9C 7H JH 8S 6C QC 4S TH")
    obs = _position(north, parse_cards(south), ["2D"]).observation(Seat.S)
    got = SignalBot().choose(obs, obs.legal_actions)
    assert got.is_play is jumps
    assert got.is_play or got == PASS


def test_after_card_and_pass_the_partner_plays_as_the_guide_says():
    north = parse_cards("7H 3D 4C 9S KS 2C 8H JD 6S QC TD 5C 4S")
    south = parse_cards("7C 2D AS AH AC 2S 3S 5S 9H TS JS QS KH")
    state = _position(north, south, ["7H", "pass", "pass"])
    obs = state.observation(Seat.S)
    got = SignalBot().choose(obs, obs.legal_actions)
    advice = reply_advice(
        obs.own_cards, parse_cards("7H")[0], None, 1, leader_cards=obs.card_counts[Seat.N]
    )
    assert PASS not in obs.legal_actions
    assert got.card is advice.cards[0]


def test_best_fill_finds_the_full_house_and_the_straight_flush():
    fill = best_fill((), parse_cards("7C 7D 7H KS KH 2C 9D"), Seat.N, CLASSIC)
    assert fill.points == 8
    table = [(Seat.N, c) for c in parse_cards("2D 5D")]
    fill = best_fill(table, parse_cards("3D 4D 6D 9S 9H 9C"), Seat.S, CLASSIC)
    assert fill.points == 15 and set(fill.cards) == set(parse_cards("3D 4D 6D"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True), st.integers(0, 4), rules
)
def test_best_fill_is_the_best_of_all_completions(cards, on_table, rule):
    import itertools

    rule_value = CLASSIC if rule == "classic" else CONTRIBUTION
    table = [(Seat.N, c) for c in cards[:on_table]]
    own = cards[on_table:]
    fill = best_fill(table, own, Seat.S, rule_value)
    need = 5 - on_table
    best = max(
        points5(
            [c for _, c in table] + list(extra), [Seat.N] * on_table + [Seat.S] * need, rule_value
        )
        for extra in itertools.combinations(own, need)
    )
    assert fill.points == best
    assert (
        fill.points
        == score_hand(
            [c for _, c in table] + list(fill.cards), rule_value, by="N" * on_table + "S" * need
        ).points
    )


def test_make_bot_knows_the_ladder():
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("signal", convention="teach-yourself-1994"), SignalBot)
    with pytest.raises(ValueError, match="oracle"):
        make_bot("oracle")


def test_the_1994_signal_bot_plays_four_of_a_kind_out_at_once():
    """teach-yourself-1994 gives four of a kind no signal: the leader plays it out on this
    lead, a card of the four, another after partner's pass, then the other two."""
    north = parse_cards("QS QH QD QC 2D 5H 7S 9C JD KH 3C 4S 8H")
    south = parse_cards("AS AH AC 2S 3S 5S 6S 7H 9S TS JS KS 9D")
    bot = SignalBot("teach-yourself-1994")
    state = _position(north, south, [])
    played = []
    while len(played) < 4:
        seat = state.current_player()
        obs = state.observation(seat)
        if seat is Seat.N:
            action = bot.choose(obs, obs.legal_actions)
            assert action.card is not None and action.card.rank == 12, (played, action)
            played.append(action.card)
        else:
            action = Action.parse("pass")
        state.apply_action(action)
    assert len(set(played)) == 4
    # The 2008 card signals the same fours with the heart then the diamond.
    assert SignalBot("parlett-2008").lead_plan(north, 1, CLASSIC) == tuple(parse_cards("QH QD"))


@pytest.mark.parametrize("conv", ["parlett-2008", "teach-yourself-1994"])
def test_the_lead_is_a_correct_play_of_the_cards_it_says_it_shows(conv):
    bot, rng = SignalBot(conv), random.Random(3)
    checked = 0
    for _ in range(1500):
        hand = rng.sample(DECK, rng.choice([13, 10, 8, 6, 5]))
        side_hand = rng.choice([1, 2, 3, 4])
        shown = bot.shown_cards(hand, side_hand, CLASSIC)
        if shown:
            assert set(shown) <= set(hand)
            lead = bot.lead_plan(hand, side_hand, CLASSIC)
            assert lead in encode(shown, side_hand, get_convention(conv)).plays, (hand, shown)
            checked += 1
    assert checked > 1400


def test_the_ladder_reads_partners_signals_against_the_item_shown():
    from engine.tournament import PairSpec, TournamentSpec, run_tournament

    spec = TournamentSpec(PairSpec("signal", "parlett-2008"), PairSpec("greedy"), 30, 1)
    # Against the whole hand's item the standard partner's reading is right about half the time.
    assert run_tournament(spec).signals["NS"]["first_reading_right"] > 0.8


# -- the strong partner: reading by the odds of partner's leads ---------------------------------


def _at_signal(seed: int, strength: str = STRONG, partner_leads: str = "bot"):
    """A deal played by four signal bots (NS ``strength``) up to the first complete two-card
    signal given by North or South: the state, the reader and its bot."""
    state = DealState.deal(Seat.N, random.Random(seed))
    ns = SignalBot(strength=strength, partner_leads=partner_leads)
    ew = SignalBot()
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        signal = given_signal(obs)
        if (
            seat.side is Seat.N.side
            and signal is not None
            and signal[1] is not None
            and len(obs.current_actions) == 3
        ):
            return state, seat, ns
        bot = ns if seat.side is Seat.N.side else ew
        state.apply_action(bot.choose(obs, obs.legal_actions))
    return None


def _reading_position(state, reader):
    obs = state.observation(reader)
    c1, c2 = given_signal(obs)
    leader = reader.partner
    return Position(
        signal=(c1, c2),
        own=tuple(sorted(obs.own_cards, key=lambda c: c.index)),
        seat=reader,
        leader=leader,
        seen=tuple(c for h in obs.played_hands for _, c in h.cards),
        size=len(state.held(leader)) + 2,
        side_hand=obs.side_hand,
        rule=obs.rule,
    )


@pytest.mark.parametrize("partner_leads", ["bot", "card"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_strong_partner_draws_unseen_cards_and_keeps_the_hands_that_lead_the_signal(
    seed, partner_leads
):
    """Every drawn hand holds the signal's two cards and the leader's count of cards the
    reader cannot see; a hand is kept exactly when the leader it models leads the signal from
    it (the standard partner's lead for a bot, any of the card's accepted plays for a person),
    with the cards that lead shows."""
    found = _at_signal(seed, partner_leads=partner_leads)
    assert found is not None
    state, reader, bot = found
    position = _reading_position(state, reader)
    visible = {*position.own, *position.seen}
    drawn = []

    def model(hand, side_hand, rule, signal):
        drawn.append(tuple(hand))
        lead = bot._own_lead if partner_leads == "bot" else bot._card_lead
        return lead(hand, side_hand, rule, signal)

    kept = kept_holdings(model, position, random.Random(4), draws=120, enough=None)
    assert len(drawn) == 120
    for hand in drawn:
        assert len(set(hand)) == position.size and set(position.signal) <= set(hand)
        assert not set(hand) & visible
    standard = SignalBot()
    expected = []
    for hand in drawn:
        if partner_leads == "bot":
            if standard.lead_plan(hand, position.side_hand, position.rule) == position.signal:
                expected.append((hand, standard.shown_cards(hand, position.side_hand, CLASSIC)))
        elif position.signal in encode(hand, position.side_hand).plays:
            expected.append((hand, None))
    assert [h for h, _ in kept] == [h for h, _ in expected]
    if partner_leads == "bot":
        assert kept == expected
    # The leader's real hand leads the signal, so some hand like it is kept.
    assert kept


def test_the_strong_partner_reads_its_partners_signals_better_than_the_first_reading():
    from engine.tournament import PairSpec, TournamentSpec, run_tournament

    def right(bot):
        spec = TournamentSpec(PairSpec(bot, "parlett-2008"), PairSpec("greedy"), 24, 1)
        return run_tournament(spec).signals["NS"]["first_reading_right"]

    standard, strong = right("signal"), right("strong")
    assert strong > standard > 0.8
    assert strong > 0.95


def _strong_replies(seeds):
    """For each deal of ``seeds`` with a two-card signal for a strong reader: the reader's
    observation, its bot, the position and the plan."""
    for seed in seeds:
        found = _at_signal(seed)
        if found is None:
            continue
        state, reader, bot = found
        position = _reading_position(state, reader)
        plan = odds_plan(position, kept_holdings(bot._own_lead, position))
        yield state.observation(reader), bot, position, plan


@settings(max_examples=300, deadline=None)
@given(seed=seeds, rule=st.sampled_from([CLASSIC, CONTRIBUTION]), placed=st.integers(1, 3))
def test_the_strong_partners_completion_is_the_most_points_with_the_fewest_own_cards(
    seed, rule, placed
):
    """``best_completion`` (scored by the combination tables) against every completion scored
    by ``score_hand``: most points, then fewest of the replier's cards, then its least useful.
    Cards of five ranks, so that fours and straight flushes (split by who played them under
    the contribution rule) come often."""
    rng = random.Random(seed)
    cards = rng.sample([c for c in DECK if c.rank in (5, 6, 7, 8, 9)], 16)
    table = [(Seat.N, c) for c in cards[:placed]]
    pool = [(Seat.N, c) for c in cards[placed:8]] + [(Seat.S, c) for c in cards[8:]]
    keep = keep_values(cards[8:])
    plan = odds_reading.best_completion(table, pool, Seat.S, rule, keep)
    ranked = []
    for combo in itertools.combinations(pool, 5 - placed):
        hand = [*table, *combo]
        points = score_hand([c for _, c in hand], rule, by=[s for s, _ in hand]).points
        own = [c for s, c in combo if s is Seat.S]
        ranked.append(((points, -len(own), -sum(keep[c] for c in own)), combo))
    top = max(key for key, _ in ranked)
    if top[0] == 0:
        assert plan is None
    else:
        assert plan in [combo for key, combo in ranked if key == top]


def _nines():
    """Partner led the pair 9♠ 9♥; South holds a nine and a pair of fours."""
    signal = tuple(parse_cards("9S 9H"))
    own = tuple(parse_cards("9C 4H 4S 2D 6C JD KS"))
    position = Position(
        signal=signal,
        own=own,
        seat=Seat.S,
        leader=Seat.N,
        seen=(),
        size=7,
        side_hand=1,
        rule=CLASSIC,
    )
    table = [(Seat.N, c) for c in signal]
    return signal, own, position, table


def test_a_played_out_hand_has_the_leader_play_its_best_fill_between_the_repliers_cards():
    _, own, position, table = _nines()
    third_nine = parse_cards("9D 3S 5D 8H QC")
    nothing = parse_cards("7D 3S 5D 8H QC")
    # South's nine, then North's own nine: fours (12, classic).
    assert odds_reading.play_out(table, parse_cards("9C"), third_nine, own, position) == 12
    # South's nine and four with a card of North's between: threes, never the full house.
    assert odds_reading.play_out(table, parse_cards("9C 4H"), nothing, own, position) == 3
    # A leader out of cards is skipped: South fills the hand alone (the full house), after
    # the cards it planned (a nine and a two: threes).
    assert odds_reading.play_out(table, (), (), own, position) == 8
    assert odds_reading.play_out(table, parse_cards("9C 2D"), (), own, position) == 3


def test_the_strong_partner_plans_with_the_leaders_whole_hand_and_at_most_two_of_its_cards():
    """The kept hand's unshown third nine makes South's single nine worth fours; without it,
    South's full house would need three cards of its own in a row, which the leader's turns
    between them do not allow: a single nine (threes) is as good, and cheaper."""
    signal, _, position, _ = _nines()
    with_nine = (*signal, *parse_cards("9D 3S 5D 8H QC"))
    without = (*signal, *parse_cards("7D 3S 5D 8H QC"))
    assert odds_plan(position, [(with_nine, signal)]) == tuple(parse_cards("9C"))
    assert odds_plan(position, [(without, signal)]) == tuple(parse_cards("9C"))
    # A leader with a flush of its own: any card of South's would break it.
    spades = tuple(parse_cards("2S 5S"))
    flush = (*spades, *parse_cards("8S JS QS 3D 7H"))
    assert odds_plan(dataclasses.replace(position, signal=spades), [(flush, spades)]) == ()


def test_the_strong_partner_plays_its_plan_and_the_same_plan_from_the_same_position():
    """The reply's first card is the plan's; a fresh bot asked in the same position (its draws
    are seeded by the position alone) makes the same plan, whatever the leader holds."""
    played = 0
    for obs, bot, position, plan in _strong_replies(range(1, 30)):
        assert SignalBot(strength=STRONG)._odds(position).plan == plan
        # One or two cards of its own: the leader plays between them.
        assert set(plan) <= set(obs.own_cards)
        assert len(plan) <= 2
        action = bot.choose(obs, obs.legal_actions)
        if plan:
            assert action.card is plan[0]
            played += 1
    assert played >= 5


def test_without_a_plan_the_strong_partner_replies_as_the_standard_one():
    """Where no card of the reader's adds points on average over the kept hands, it has no
    plan and replies as the standard partner does."""
    same = 0
    for obs, bot, _position, plan in _strong_replies(range(1, 40)):
        if not plan:
            assert bot.choose(obs, obs.legal_actions) == SignalBot().choose(obs, obs.legal_actions)
            same += 1
    assert same >= 2


def test_the_strong_partner_refuses_an_unknown_model_of_partners_leads():
    with pytest.raises(ValueError, match="unknown partner_leads"):
        SignalBot(strength=STRONG, partner_leads="mind-reading")
    assert make_bot("strong").strength == STRONG


def _worth(position: Position, kept, option) -> int:
    """An option's points summed over the kept hands, played out as the plan scores them."""
    table = [(position.leader, c) for c in position.signal]
    return sum(
        odds_reading.play_out(
            table, option, [c for c in hand if c not in position.signal], position.own, position
        )
        for hand, _ in kept
    )


def test_the_strong_reply_also_weighs_each_of_the_repliers_cards_alone():
    """Each of the replier's cards alone is one of the strong reply's candidates: its plan is
    never worth less on the kept hands than the plan without them (``every_single=False``, the
    strong partner before), and on some signal a card in no kept hand's completion beats
    replying with nothing."""
    changed = 0
    for _obs, bot, position, plan in _strong_replies(range(20)):
        kept = kept_holdings(bot._own_lead, position)
        narrow = odds_plan(position, kept, every_single=False)
        assert _worth(position, kept, plan) >= _worth(position, kept, narrow)
        changed += narrow == () and len(plan) == 1  # (a single card wins only on points)
    assert changed
