"""A table with several people: each seat acts only for itself, sees only its own cards, and
the bots fill the other seats; the record replays the same whoever sat where."""

from __future__ import annotations

import random

import pytest

from engine.game import Action
from engine.play import IllegalPlay, PlaySetup, PlayTable
from engine.scoring import get_rule
from engine.seats import SEATS, Seat

ALL = frozenset(SEATS)


def hidden_from(table: PlayTable, seat: Seat) -> set[str]:
    """Cards ``seat`` may not see now: the other seats' unplayed cards."""
    return {str(c) for s in SEATS if s is not seat for c in table.deal.held(s)}


@pytest.mark.parametrize("humans", [frozenset({Seat.N, Seat.S}), ALL, frozenset({Seat.E, Seat.S})])
def test_people_take_turns_and_see_only_their_own_cards(humans):
    rng = random.Random(3)
    table, steps = PlayTable.start(PlaySetup(seed=11, opponents="signal"), humans)
    assert all(step.seat not in humans for step in steps)
    while not table.is_over():
        seat = table.to_move()
        assert seat in humans
        for other in humans - {seat}:
            assert table.legal(other) == []
            with pytest.raises(IllegalPlay):
                table.act(table.deal.legal_actions()[0], other)
        for viewer in humans:
            shown = str(table.view(viewer).to_json())
            assert not any(f"'{c}'" in shown for c in hidden_from(table, viewer)), viewer
            assert table.view(viewer).seat is viewer
        table.act(rng.choice(table.legal(seat)), seat)
    again = PlayTable.replay(table.setup, table.actions, humans)
    assert again.view(Seat.S) == table.view(Seat.S)
    assert PlayTable.replay(table.setup, table.actions).outcome() == table.outcome()


def test_a_seat_handed_to_a_bot_is_played_by_it_and_can_be_taken_back():
    humans = frozenset({Seat.N, Seat.S})
    table, _ = PlayTable.start(PlaySetup(seed=5), humans)
    table.humans = frozenset({Seat.S})  # North leaves: the signal bot takes the seat
    table.act(table.legal(Seat.S)[0], Seat.S) if table.to_move() is Seat.S else table.advance()
    assert table.to_move() in (Seat.S, None)
    table.humans = humans  # North is back
    assert table.view(Seat.N).legal == () or table.to_move() is Seat.N


def test_a_watcher_sees_every_hand_through_its_own_door():
    table, _ = PlayTable.start(PlaySetup(seed=2), ALL)
    hands = table.hands_now()
    assert sum(len(h) for h in hands.values()) == 52 - sum(
        len(h.card_list) for h in table.deal.played_hands
    ) - len(table.deal.current_cards)
    assert table.view(Seat.S).legal == tuple(table.legal(Seat.S))


def test_a_seat_nobody_sits_in_has_no_legal_actions_in_its_view():
    table, _ = PlayTable.start(PlaySetup(seed=9), frozenset({Seat.S}))
    assert table.view(Seat.N).legal == ()
    with pytest.raises(IllegalPlay):
        table.act(Action.parse("pass"), Seat.N)


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_the_coach_advises_every_seat_by_its_own_cards_and_nothing_hidden(seed):
    """At a table of four people the coach works for whoever is to move: its lead advice is the
    encoder's for that seat's cards and its quiz reads that seat's partner, and neither names a
    card the seat cannot see."""
    from engine.drills import make_drill_at  # noqa: F401  (the drills answer keys load)
    from engine.play import coach_lead, coach_read
    from engine.signals import encode, get_convention

    conv = get_convention("parlett-2008")
    rng = random.Random(seed)
    table, _ = PlayTable.start(PlaySetup(seed=seed, opponents="signal"), ALL)
    advised = read = 0
    while not table.is_over():
        seat = table.to_move()
        for other in set(SEATS) - {seat}:
            assert coach_lead(table, other) is None and coach_read(table, other) is None
        advice = coach_lead(table, seat)
        if advice is not None:
            advised += 1
            if not table.deal.current_actions:
                enc = encode(table.deal.held(seat), table.deal.side_hand, conv)
                assert advice.item == str(enc.item) and advice.plays == tuple(enc.plays)
            shown = str(advice.to_json())
            assert not any(f"'{c}'" in shown for c in hidden_from(table, seat)), seat
        quiz = coach_read(table, seat)
        if quiz is not None:
            read += 1
            assert table.deal.current_actions[0][0] is seat.partner
            shown = str(quiz.to_json())
            assert not any(f"'{c}'" in shown for c in hidden_from(table, seat)), seat
        table.act(_signalling(table, seat, advice, rng), seat)
    assert advised and read


def _signalling(table: PlayTable, seat: Seat, advice, rng: random.Random) -> Action:
    """Lead as the coach advises and let partner's signal stand (pass after its first card),
    else any legal action: a table where signals are given and read."""
    from engine.game import PASS

    legal = table.legal(seat)
    acts = table.deal.current_actions
    if advice is not None:
        card = advice.plays[0][len(acts) // 2]
        return Action.play(card) if card is not None else PASS
    if len(acts) == 1 and PASS in legal:
        return PASS
    return rng.choice(legal)


@pytest.mark.parametrize("game", [False, True])
@pytest.mark.parametrize("rule", ["classic", "contribution"])
def test_a_copy_plays_on_apart_and_exactly_as_the_replayed_record_would(game, rule):
    """A copy (what a live table acts on instead of replaying the record) goes on like the
    record's replay, deals of a game included, and leaves the table it was copied from as it
    was."""
    rng = random.Random(f"{game}{rule}")
    humans = frozenset({Seat.N, Seat.S})
    for seed in range(25 if game else 80):
        setup = PlaySetup(seed=seed, rule=get_rule(rule), game=game, opponents="signal")
        table, _ = PlayTable.start(setup, humans)
        for _ in range(rng.randrange(0, 60)):
            if table.is_over():
                break
            table.act(rng.choice(table.legal(table.to_move())), table.to_move())
        before = table.actions
        views = [table.view(s) for s in SEATS]
        made = (table.summaries(), [table.attempts(s) for s in SEATS])
        copied, again, apart = table.copy(), PlayTable.replay(setup, before, humans), table.copy()
        while not copied.is_over():
            seat = copied.to_move()
            action = rng.choice(copied.legal(seat))
            assert copied.act(action, seat) == again.act(action, seat)
        assert copied.actions == again.actions and copied.outcome() == again.outcome()
        assert [copied.view(s) for s in SEATS] == [again.view(s) for s in SEATS]
        assert copied.summaries() == again.summaries()
        assert [copied.attempts(s) for s in SEATS] == [again.attempts(s) for s in SEATS]
        assert table.actions == before and [table.view(s) for s in SEATS] == views
        assert (table.summaries(), [table.attempts(s) for s in SEATS]) == made
        while not apart.is_over():  # another copy, other moves: nothing of the first leaks in
            apart.act(rng.choice(apart.legal(apart.to_move())), apart.to_move())
        replayed = PlayTable.replay(setup, apart.actions, humans)
        assert apart.summaries() == replayed.summaries()
        assert [apart.attempts(s) for s in SEATS] == [replayed.attempts(s) for s in SEATS]
        for action in copied.actions[len(before) :]:  # the next deals too: the same cards
            table.apply(action)
        assert [table.view(s) for s in SEATS] == [copied.view(s) for s in SEATS]


@pytest.mark.parametrize(
    ("humans", "north", "south"),
    [
        ({"S"}, "card", "bot"),
        ({"N"}, "bot", "card"),
        ({"E"}, "bot", "bot"),
        ({"N", "S"}, "card", "card"),
    ],
)
def test_a_strong_bot_reads_a_persons_leads_by_the_card_and_a_bots_as_its_own(humans, north, south):
    """A ``strong`` North or South reads its partner's signals by the odds of the hands its
    partner could lead them from: by the card's accepted leads when a person sits there, by its
    own leads when the seat is a bot's."""
    seats = frozenset(Seat(s) for s in humans)
    table = PlayTable(PlaySetup(seed=3, partner="strong"), seats)
    assert table.bot_for(Seat.N).partner_leads == north
    assert table.bot_for(Seat.S).partner_leads == south
    assert table.bot_for(Seat.N).strength == table.bot_for(Seat.S).strength == "strong"


#: A deal where North, a person, signals in hand 4 and a strong South reading it by the card
#: replies otherwise than reading it as a bot leads (found by trying seeds).
SIGNAL_SEED, SIGNAL_HAND, BY_CARD, BY_BOT = 1, 4, "TH", "AD"


def _north_signals(setup: PlaySetup) -> PlayTable:
    """The table when South is to reply to North's two-card signal in hand ``SIGNAL_HAND``,
    North (a person) leading by the card's first play and playing on as the card's bot."""
    from engine.play.table import signal_bot

    north = signal_bot(setup.convention, "strong", "card")
    table, _ = PlayTable.start(setup, frozenset({Seat.N}))
    while True:
        if table.to_move() is not Seat.N:
            table.advance()
            continue
        obs = table.deal.observation(Seat.N)
        table.apply(north.choose(obs, obs.legal_actions))
        acts = table.deal.current_actions
        if table.deal.hand_number == SIGNAL_HAND and len(acts) == 3 and acts[0][0] is Seat.N:
            assert acts[2][1].is_play and table.to_move() is Seat.S
            return table


def test_a_signal_is_read_as_its_maker_led_it_when_a_seat_changes_hands():
    """A person who hands their seat to a bot, or takes it back, in the middle of a hand does
    not change how partner reads the signal already given: North's own signal is still read
    by the card once a bot plays North, and a signal a bot made for North is read as a bot's
    once North is back."""
    setup = PlaySetup(seed=SIGNAL_SEED, partner="strong")
    table = _north_signals(setup)
    hand = (1, SIGNAL_HAND)
    assert table.bot_for(Seat.S).partner_leads == "card"
    # North hands the seat over right after the signal: South still reads it by the card.
    left = PlayTable.replay(setup, table.actions, frozenset(), away=frozenset({Seat.N}))
    assert left.bot_for(Seat.S).partner_leads == "card"
    steps = left.advance()
    assert str(steps[0].action) == BY_CARD and steps[0].seat is Seat.S
    # The bot plays North's later cards of the hand: the signal stays North's own.
    assert hand not in left.bot_signals
    later = {(d, h) for d, h in left.bot_signals if (d, h) > hand}
    assert later  # (North's later leads, made by the bot, are the bot's)
    # A signal the bot made for North, North now back: read as a bot leads.
    back = PlayTable.replay(setup, table.actions, frozenset({Seat.N}), bot_signals={hand})
    assert back.bot_for(Seat.S).partner_leads == "bot"
    obs = back.deal.observation(Seat.S)
    assert str(back.bot_for(Seat.S).choose(obs, obs.legal_actions)) == BY_BOT


def test_a_bot_leading_for_a_person_away_marks_the_signal_as_a_bots():
    """While North is away the bot's leads for North are the bot's signals; a replayed table
    and a copy keep them."""
    setup = PlaySetup(seed=SIGNAL_SEED, partner="strong")
    start = _north_signals(setup).actions
    at = len(start) - 3  # (the hand's first action: North's first card)
    table = PlayTable.replay(setup, start[:at], frozenset(), away=frozenset({Seat.N}))
    assert table.bot_signals == set()
    untouched = table.copy()
    copied = table.copy()
    copied.advance()  # (a copy keeps the seats away: its bots mark North's signals too)
    table.advance()
    assert (1, SIGNAL_HAND) in table.bot_signals
    assert copied.bot_signals == table.bot_signals and copied.away == table.away
    assert untouched.bot_signals == set()  # (a copy's set is its own)
    again = table.copy()
    assert again.bot_signals == table.bot_signals and again.away == frozenset({Seat.N})
    led = {(1, a.hand_number) for a in table.attempts(Seat.N) if a.hand_number >= SIGNAL_HAND}
    assert led and led <= table.bot_signals
    # Nobody away: the bots' leads for their own seats are not marked.
    alone = PlayTable.replay(setup, start[:at], frozenset())
    alone.advance()
    assert alone.bot_signals == set()
