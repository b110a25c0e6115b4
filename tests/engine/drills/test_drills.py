import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.drills import (
    GENERATOR_VERSION,
    KINDS,
    LEADER_SIZES,
    SCORE_SKILLS,
    DrillAddress,
    DrillParams,
    InvalidAnswerError,
    RetiredDrillError,
    answer_key,
    grade,
    make_drill,
    make_drill_at,
    parse_answer,
    skills_for,
    spec_for,
)
from engine.drills.build import _make_drill
from engine.errors import InvalidNotationError
from engine.scoring import LEFTOVER_MULTIPLIER, get_rule, hand_points, leftover_value
from engine.seats import Seat
from engine.signals import ITEMS, decode, detect, encode, get_convention


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_seed_and_params_rebuild_the_same_drill(kind):
    # Side hand 2, or the side hand the kind drills (a last hand is the fourth).
    params = next(
        p
        for p in (DrillParams(side_hand=2), DrillParams(side_hand=4))
        if any(
            spec_for(kind).feasible(s, p, get_convention(p.convention)) for s in skills_for(kind)
        )
    )
    _make_drill.cache_clear()
    first = make_drill(kind, 42, params)
    _make_drill.cache_clear()  # build it again instead of returning the cached object
    again = make_drill(kind, 42, params)
    assert first is not again
    assert first == again
    assert (first.source, first.table, answer_key(first)) == (
        again.source,
        again.table,
        answer_key(again),
    )


@pytest.mark.parametrize("kind", KINDS)
def test_different_seeds_give_different_drills(kind):
    drills = {make_drill(kind, seed) for seed in range(12)}
    assert len(drills) > 6


@pytest.mark.parametrize("item", ITEMS)
def test_lead_drills_hold_the_targeted_item_first(item):
    for seed in range(3):
        drill = make_drill("lead", seed, DrillParams(items=(item,)))
        assert drill.skill == item
        assert detect(drill.hand).item == item


@pytest.mark.parametrize("item", ITEMS)
def test_checklist_drills_offer_the_item_among_four_options(item):
    drill = make_drill("checklist", 5, DrillParams(items=(item,)))
    keys = [o.key for o in drill.options]
    assert item in keys and len(keys) == len(set(keys)) == 4


@pytest.mark.parametrize("skill", SCORE_SKILLS)
@pytest.mark.parametrize("rule", ["classic", "contribution"])
def test_score_drills_target_the_combination_and_grade_one_option_right(skill, rule):
    drill = make_drill("score", 9, DrillParams(items=(skill,), rule=rule))
    assert drill.skill == skill
    if rule == "contribution":
        assert len(drill.by) == len(drill.cards)
    # The points, from the scorer (checked exhaustively on its own), not from the drill's key.
    scoring = get_rule(rule)
    seats = drill.by or (Seat.N,) * len(drill.cards)
    if len(drill.cards) == 5:
        points = hand_points(drill.cards, seats, scoring)
    else:
        value = leftover_value(drill.cards, scoring, by=drill.by or None)
        points = LEFTOVER_MULTIPLIER * value.value
    assert [o.key for o in drill.options].count(str(points)) == 1
    for o in drill.options:
        assert grade(drill, parse_answer(drill, {"option": o.key})).correct == (
            o.key == str(points)
        )


def test_items_that_cannot_top_a_big_hand_are_drilled_in_later_side_hands():
    for seed in range(6):
        drill = make_drill("lead", seed, DrillParams(items=("one_pair",)))
        assert drill.side_hand in (3, 4) and len(drill.hand) < 9
        assert detect(drill.hand).item == "one_pair"
    with pytest.raises(InvalidNotationError, match="no drill “Lead a signal” for One pair"):
        make_drill("lead", 1, DrillParams(items=("one_pair",), hand_size=13))


@pytest.mark.parametrize("kind", ["checklist", "lead", "read", "reply"])
@pytest.mark.parametrize("hand_size", [3, 4, 9, 12, 13])
def test_a_hand_size_alone_picks_a_side_hand_that_allows_it(kind, hand_size):
    for seed in range(10):
        drill = make_drill(kind, seed, DrillParams(hand_size=hand_size))
        leader = drill.source if kind in ("read", "reply") else drill.hand
        assert len(leader) == hand_size
        lo, hi = LEADER_SIZES[drill.side_hand]
        assert lo <= hand_size <= hi


def test_lead_grading_accepts_every_encoder_play_and_nothing_else():
    drill = make_drill("lead", 3, DrillParams(items=("four_sf",), side_hand=1))
    plays = encode(drill.hand, 1).plays
    for c1, c2 in plays:
        answer = parse_answer(drill, {"c1": str(c1), "c2": str(c2) if c2 else "pass"})
        assert grade(drill, answer).correct
    others = [(a, b) for a in drill.hand for b in drill.hand if a != b and (a, b) not in plays]
    verdict = grade(drill, parse_answer(drill, {"c1": str(others[0][0]), "c2": str(others[0][1])}))
    assert not verdict.correct
    assert "Partner reads your lead" in verdict.details[0]


@pytest.mark.parametrize("kind", ["read", "reply", "checklist"])
def test_multiple_choice_drills_have_exactly_one_right_option(kind):
    for seed in range(8):
        drill = make_drill(kind, seed)
        right = [
            o for o in drill.options if grade(drill, parse_answer(drill, {"option": o.key})).correct
        ]
        assert len(right) == 1, (kind, seed, drill.options)
        assert right[0].key in answer_key(drill).accepted


def test_option_keys_are_item_ids_and_actions():
    for seed in range(20):
        read = make_drill("read", seed)
        assert all(key in ITEMS for key in read.option_keys)
        reply = make_drill("reply", seed)
        for key in reply.option_keys:
            assert key in ("pass", "force") or 1 <= len(key.split()) <= 2
            assert key in ("pass", "force") or all(Card.parse(w) in reply.hand for w in key.split())


def test_read_drill_answer_is_the_primary_reading_and_hides_partners_hand():
    drill = make_drill("read", 11, DrillParams(own_hand=True, side_hand=3))
    c1, c2 = drill.signal
    primary = decode(c1, c2, 3, visible=drill.visible)[0]
    assert drill.skill == primary.item
    assert not set(drill.source) & set(drill.visible)
    assert c1 in drill.source


def test_read_drills_only_target_items_with_a_signal():
    assert "fours" not in skills_for(
        "read", __import__("engine.signals").signals.get_convention("teach-yourself-1994")
    )
    with pytest.raises(InvalidNotationError):
        make_drill("read", 1, DrillParams(items=("fours",), convention="teach-yourself-1994"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "needs a first card"),
        ({"c1": "ZZ", "c2": "pass"}, "not a card"),
        ({"c1": "AS", "c2": ""}, "needs a first card"),
    ],
)
def test_bad_lead_answers_are_refused(data, message):
    drill = make_drill("lead", 2)
    with pytest.raises(ValueError, match=message):
        parse_answer(drill, data)


def test_a_card_not_in_the_hand_is_refused():
    drill = make_drill("lead", 2)
    missing = next(
        c for c in map(Card.parse, ["AS", "KS", "QS", "JS", "TS", "9S"]) if c not in drill.hand
    )
    with pytest.raises(InvalidAnswerError, match="not in your hand"):
        parse_answer(drill, {"c1": str(missing), "c2": "pass"})


def test_an_unknown_option_is_refused():
    drill = make_drill("checklist", 2)
    with pytest.raises(InvalidAnswerError, match="not one of this drill's options"):
        parse_answer(drill, {"option": "royal_flush"})


def test_params_round_trip_through_the_query_string():
    params = DrillParams(
        convention="teach-yourself-1994",
        rule="contribution",
        side_hand=3,
        items=("four_sf", "three_sf"),
        hand_size=8,
        own_hand=True,
    )
    assert DrillParams.from_query(params.to_query()) == params
    assert DrillParams.from_key(params.to_query()) == params
    assert DrillParams.from_key(params.key()) == params
    assert DrillParams().key() == f"v={GENERATOR_VERSION}"


def test_addresses_without_a_version_are_retired_drills():
    old = DrillParams.from_key({"side_hand": "2"})
    assert old.version == 1 and old.retired
    assert DrillParams.from_key("side_hand=2") == old
    with pytest.raises(RetiredDrillError, match="retired"):
        make_drill("lead", 9, old)
    with pytest.raises(RetiredDrillError, match="retired"):
        make_drill_at(DrillAddress.parse("lead/9?side_hand=2"))
    fresh = DrillParams.from_query({"side_hand": "2"})
    assert fresh.version == GENERATOR_VERSION and make_drill("lead", 9, fresh).side_hand == 2
    with pytest.raises(InvalidNotationError, match="version"):
        DrillParams.from_query({"v": "7"})


def test_defaults_fill_only_what_the_query_leaves_out_and_are_never_flags():
    defaults = {"convention": "teach-yourself-1994", "rule": "contribution", "address": "1"}
    params = DrillParams.from_query({"rule": "classic", "side_hand": ""}, defaults)
    assert (params.convention, params.rule, params.side_hand) == (
        "teach-yourself-1994",
        "classic",
        None,
    )
    assert params.version == GENERATOR_VERSION  # a default called "address" is no flag


@pytest.mark.parametrize(
    "text",
    [
        "read/7?items=fours&v=2",
        "lead/0?convention=teach-yourself-1994&side_hand=3&hand_size=8&v=2",
        "score/12?rule=contribution&v=2",
        "reply/9?v=1",
    ],
)
def test_a_drill_address_round_trips_through_its_string(text):
    address = DrillAddress.parse(text)
    assert str(address) == text
    assert DrillAddress.parse(str(address)) == address
    assert DrillAddress.of(str(address.kind), str(address.seed), address.key) == address


def test_a_drill_names_its_address_and_the_address_rebuilds_it():
    drill = make_drill("read", 7, DrillParams(items=("fours",)))
    assert str(drill.address) == "read/7?items=fours&v=2"
    assert make_drill_at(drill.address) == drill
    assert make_drill_at(DrillAddress.parse(str(drill.address))) == drill


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("poker/7?v=2", "unknown drill kind"),
        ("read/x?v=2", "seed"),
        ("read/-1?v=2", "seed"),
        ("read?v=2", "kind/seed"),
        ("read/7?side_hand=9&v=2", "side hand"),
        ("read/7?v=x", "version"),
    ],
)
def test_a_bad_drill_address_is_refused_with_a_reason(text, problem):
    with pytest.raises(InvalidNotationError, match=problem):
        DrillAddress.parse(text)


@pytest.mark.parametrize(
    "query",
    [
        {"side_hand": "5"},
        {"side_hand": "x"},
        {"hand_size": "14"},
        {"items": "royal"},
        {"convention": "nope"},
        {"rule": "nope"},
    ],
)
def test_bad_params_are_refused_with_a_reason(query):
    with pytest.raises(InvalidNotationError):
        DrillParams.from_query(query)


def test_unknown_kind_and_negative_seed_are_refused():
    with pytest.raises(InvalidNotationError, match="unknown drill kind"):
        make_drill("poker", 1)
    with pytest.raises(InvalidNotationError, match="seed"):
        make_drill("lead", -1)


@pytest.mark.parametrize(
    ("kind", "stored", "words"),
    [
        ("lead", "4S 8S", "4♠ then 8♠"),
        ("lead", "TD pass", "10♦ and pass"),
        ("read", "four_sf:XX.XX", "Four to a straight flush (XX.XX)"),
        ("read", "four_sf", "Four to a straight flush"),
        ("checklist", "two_pair", "Two pair"),
        ("reply", "play:7C-8C", "Play 7♣ then 8♣"),
        ("reply", "7C 8C", "Play 7♣ then 8♣"),
        ("reply", "9H", "Play 9♥"),
        ("reply", "pass", "Pass"),
        ("reply", "force", "Say “Play!”: partner completes the hand alone"),
        ("score", "12", "12"),
        ("read", "nonsense", "nonsense"),
        ("checklist", "nonsense", "nonsense"),
    ],
)
def test_stored_answers_read_as_words(kind, stored, words):
    from engine.drills import answer_words

    assert answer_words(kind, stored) == words


@st.composite
def _params(draw):
    """Settings a learner can ask for: a side hand, and a hand size its leader can hold."""
    side_hand = draw(st.one_of(st.none(), st.integers(1, 4)))
    lo, hi = LEADER_SIZES[side_hand] if side_hand else (3, 13)
    return DrillParams(
        convention=draw(st.sampled_from(["parlett-2008", "teach-yourself-1994"])),
        rule=draw(st.sampled_from(["classic", "contribution"])),
        side_hand=side_hand,
        hand_size=draw(st.one_of(st.none(), st.integers(max(lo, 3), hi))),
        own_hand=draw(st.booleans()),
    )


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**12), params=_params())
def test_any_drill_builds_and_has_exactly_one_right_answer(kind, seed, params):
    try:
        drill = make_drill(kind, seed, params)
    except InvalidNotationError as exc:  # no item of this kind fits a fixed side hand and size
        refused = str(exc)
    else:
        refused = ""
    if refused:
        assert "fits these settings" in refused
        reject()
    assert len(set(drill.hand)) == len(drill.hand)
    assert not set(drill.source) & set(drill.visible)
    key = answer_key(drill)
    assert key.accepted
    if kind == "lead":
        plays = encode(drill.hand, drill.side_hand, drill.convention).plays
        assert all(c1 in drill.hand and (c2 is None or c2 in drill.hand) for c1, c2 in plays)
        assert plays
        for c1, c2 in plays:
            answer = parse_answer(drill, {"c1": str(c1), "c2": str(c2) if c2 else "pass"})
            assert grade(drill, answer).correct
    else:
        verdicts = [
            grade(drill, parse_answer(drill, {"option": o.key})).correct for o in drill.options
        ]
        assert verdicts.count(True) == 1
