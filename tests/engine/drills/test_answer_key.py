"""Every answer the trainer marks right is right: the answer key checked over thousands of drills.

Each property runs over ``SEEDS`` drills per kind, convention and scoring rule (the settings vary
with the seed: the side hand chosen or fixed, the reader's own hand shown or not), and again over
``VOLUME_SEEDS`` more in the ``slow`` volume run. A failure lists the first few drills by address.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache

import pytest

from engine.cards import Card
from engine.drills import (
    LEADER_SIZES,
    Answer,
    AnswerKey,
    Drill,
    DrillParams,
    answer_key,
    grade,
    make_drill,
    parse_answer,
)
from engine.drills.build import _make_drill
from engine.drills.kinds.reply import legal_sequence, reply_state
from engine.drills.situation import MIN_DRILL_CARDS
from engine.game import FORCE, PASS
from engine.scoring import Combination, best_five, get_rule, leftover_value
from engine.seats import Seat
from engine.signals import decode, detect, encode, get_convention
from engine.signals.witness import IMPOSSIBLE, hand_readings

CONVENTIONS = ("parlett-2008", "teach-yourself-1994")
RULES = ("classic", "contribution")
#: Drills per kind, convention and rule in the default run, and more in the volume run.
SEEDS = 125
VOLUME_SEEDS = 2375
SWEEPS = [
    pytest.param(range(SEEDS), id="default"),
    pytest.param(range(SEEDS, SEEDS + VOLUME_SEEDS), id="volume", marks=pytest.mark.slow),
]
SIDE_HANDS = (None, None, 1, 2, 3, 4)
SYMBOL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def params_for(kind: str, seed: int, convention: str, rule: str) -> DrillParams:
    """The settings drill ``seed`` is built with: a third of them fix the side hand."""
    side_hand = None if kind == "score" else SIDE_HANDS[seed % len(SIDE_HANDS)]
    return DrillParams(
        convention=convention,
        rule=rule,
        side_hand=side_hand,
        own_hand=kind == "read" and seed % 4 == 1,
    )


@cache
def drills(kind: str, convention: str, rule: str, seeds: range) -> tuple[Drill, ...]:
    return tuple(make_drill(kind, s, params_for(kind, s, convention, rule)) for s in seeds)


@cache
def key_of(drill: Drill) -> AnswerKey:
    return answer_key(drill)


def sweep(*kinds: str) -> Callable:
    """Parametrize a property over kinds, conventions, rules and both seed sweeps."""

    def decorate(fn: Callable) -> Callable:
        fn = pytest.mark.parametrize("seeds", SWEEPS)(fn)
        fn = pytest.mark.parametrize("rule", RULES)(fn)
        fn = pytest.mark.parametrize("convention", CONVENTIONS)(fn)
        return pytest.mark.parametrize("kind", kinds)(fn)

    return decorate


def check(batch: Iterable[Drill], prop: Callable[[Drill], Iterator[str]]) -> None:
    """Run ``prop`` on every drill; fail listing the first problems found, by drill address."""
    problems = []
    for drill in batch:
        problems += [f"{drill.kind} {drill.seed} ?{drill.params.key()}: {p}" for p in prop(drill)]
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:8])


def table_cards(drill: Drill) -> tuple[Card, ...]:
    return tuple(c for h in (*drill.completed, *drill.opponents) for c in h)


def cards_in(text: str) -> list[Card]:
    return [
        Card.parse(("T" if rank == "10" else rank) + SUIT_LETTER[suit])
        for rank, suit in SYMBOL.findall(text)
    ]


def lead_of(key: str) -> tuple[Card, Card | None]:
    play = Answer.parse(key, "lead").play
    assert play is not None
    return play


def lead_form(key: str) -> dict[str, str]:
    c1, c2 = lead_of(key)
    return {"c1": str(c1), "c2": "pass" if c2 is None else str(c2)}


# -- every kind: the key's answers are the ones graded right -------------------------------------


@sweep("score", "checklist", "lead", "read", "reply")
def test_exactly_the_accepted_answers_grade_right(kind, convention, rule, seeds):
    def prop(drill: Drill) -> Iterator[str]:
        key = key_of(drill)
        if not key.accepted:
            yield "no accepted answer"
            return
        if len(set(key.accepted)) != len(key.accepted):
            yield f"an answer accepted twice: {key.accepted}"
        if kind == "lead":
            for accepted in key.accepted:
                if not grade(drill, parse_answer(drill, lead_form(accepted))).correct:
                    yield f"accepted lead {accepted} graded wrong"
            others = [
                f"{a} {b or 'pass'}"
                for a in drill.hand
                for b in (*drill.hand, None)
                if a is not b and f"{a} {b or 'pass'}" not in key.accepted
            ]
            for other in others[:: max(1, len(others) // 3)]:
                if grade(drill, parse_answer(drill, lead_form(other))).correct:
                    yield f"lead {other} is not accepted but graded right"
            return
        options = drill.option_keys
        if len(set(options)) != len(options):
            yield f"an option offered twice: {options}"
        right = [o for o in options if o in key.accepted]
        if len(right) != 1:
            yield f"{len(right)} right options among {options} (accepted {key.accepted})"
        if key.preferred not in options:
            yield f"the preferred answer {key.preferred!r} is not offered"
        for option in options:
            verdict = grade(drill, parse_answer(drill, {"option": option}))
            if verdict.correct != (option in key.accepted):
                yield f"option {option!r} graded {verdict.correct}, accepted {key.accepted}"
            if verdict.accepted != key.accepted or verdict.preferred != key.preferred:
                yield "the grade's accepted answers differ from the key's"

    check(drills(kind, convention, rule, seeds), prop)


# -- lead ----------------------------------------------------------------------------------------


@sweep("lead")
def test_every_accepted_lead_is_a_legal_play_partner_reads_as_the_hands_item(
    kind, convention, rule, seeds
):
    other = get_convention(next(c for c in CONVENTIONS if c != convention))

    def prop(drill: Drill) -> Iterator[str]:
        enc = encode(drill.hand, drill.side_hand, drill.convention)
        shown = enc.item
        if shown == "none":
            yield "the hand shows no item"
        for accepted in key_of(drill).accepted:
            c1, c2 = lead_of(accepted)
            if c1 not in drill.hand or (c2 is not None and c2 not in drill.hand) or c1 is c2:
                yield f"{accepted} is not a play from the hand"
                continue
            if enc.played_out:  # no signal: two cards of the four, read as two pair for now
                assert c2 is not None
                if c1.rank != c2.rank or sum(c.rank == c1.rank for c in drill.hand) != 4:
                    yield f"{accepted} does not play the four of a kind out"
                continue
            # Partner cannot see the leader's hand: only the completed hands prune the readings.
            items = [
                r.item
                for r in decode(c1, c2, drill.side_hand, drill.convention, table_cards(drill))
            ]
            if shown not in items:
                yield f"{accepted} reads as {items}, not the hand's {shown}"
        if not encode(drill.hand, drill.side_hand, other).plays:
            yield f"no lead for this hand in {other.name}"

    check(drills(kind, convention, rule, seeds), prop)


def test_the_play_out_lead_names_a_club_card_once():
    """A club's card is called by its title, which may end in "card" itself: the sentence
    does not add another ("the Riverside house card card gives it no signal")."""
    from engine.signals.cardfile import load_convention
    from engine.signals.conventions import register_convention, unregister_convention

    data = dict(get_convention("teach-yourself-1994").to_json())
    data.update(name="riverside-house", title="Riverside house card")
    register_convention(load_convention(data))
    try:
        params = DrillParams(convention="riverside-house", items=("fours",))
        text = str(answer_key(make_drill("lead", 3, params)).explanation)
    finally:
        unregister_convention("riverside-house")
    assert "Your card, Riverside house card, gives it no signal" in text
    assert "card card" not in text


@pytest.mark.parametrize(
    "seeds", [range(300), pytest.param(range(300, 1500), marks=pytest.mark.slow)]
)
def test_teach_yourself_four_of_a_kind_is_played_out_at_once_and_says_so(seeds):
    """1994: four of a kind has no signal; the holder plays it out on this lead. Any two
    cards of the four in either order are right, and partner reads them as two pair."""
    conv = get_convention("teach-yourself-1994")
    params = DrillParams(convention=conv.name, items=("fours",))

    def prop(drill: Drill) -> Iterator[str]:
        if detect(drill.hand, conv).item != "fours":
            yield "the hand's first item is not four of a kind"
        key = key_of(drill)
        fours = {c.rank for c in drill.hand if sum(x.rank == c.rank for x in drill.hand) == 4}
        every = {
            f"{a} {b}"
            for a in drill.hand
            for b in drill.hand
            if a is not b and a.rank == b.rank and a.rank in fours
        }
        if set(key.accepted) != every:
            yield f"accepted {sorted(key.accepted)}, not every two of the four {sorted(every)}"
        text = str(key.explanation)
        if "no signal" not in text or "play it out at once" not in text or "later" in text:
            yield f"the explanation does not say to play the fours out now: {text!r}"
        for accepted in key.accepted:
            readings = {
                r.item
                for r in decode(*lead_of(accepted), drill.side_hand, conv, table_cards(drill))
            }
            if readings != {"two_pair"}:
                yield f"{accepted} reads as {readings}, not two pair"
        right = grade(
            drill,
            parse_answer(
                drill, {"c1": key.accepted[-1].split()[0], "c2": key.accepted[-1].split()[1]}
            ),
        )
        if not right.correct:
            yield f"{key.accepted[-1]} is accepted but graded wrong"

    check((make_drill("lead", s, params) for s in seeds), prop)


# -- read ----------------------------------------------------------------------------------------


@sweep("read")
def test_read_answer_is_the_first_possible_reading_and_no_wrong_option_is_a_reading(
    kind, convention, rule, seeds
):
    def prop(drill: Drill) -> Iterator[str]:
        assert drill.signal is not None
        c1, c2 = drill.signal
        key = key_of(drill)
        if drill.signal not in encode(drill.source, drill.side_hand, drill.convention).plays:
            yield "partner's lead is not a correct lead of partner's hand"
        readings = [  # the readings a hand of partner's size can show (test_witness.py)
            r
            for r, found in hand_readings(
                drill.signal, drill.side_hand, len(drill.source), drill.visible, drill.convention
            )
            if found.answer != IMPOSSIBLE
        ]
        if key.accepted != (readings[0].item,):
            yield f"accepted {key.accepted}, the first reading is {readings[0].item}"
        every = {r.item for r in decode(c1, c2, drill.side_hand, drill.convention)}
        for option in drill.option_keys:
            if option not in key.accepted and option in every:
                yield f"wrong option {option!r} is a reading of the signal"
        for r in readings:
            if r.item == readings[0].item and r.text not in key.explanation:
                yield f"the explanation misses the reading {r.text!r}"
        if sorted(key.reveal) != sorted(drill.source):
            yield "the revealed cards are not partner's hand"
        if not key.highlight or not set(key.highlight) <= set(drill.source):
            yield f"highlighted {key.highlight} is not part of partner's hand"
        if not {c1, c2} - {None} <= set(key.highlight):
            yield "the highlighted holding does not hold the signal's cards"

    check(drills(kind, convention, rule, seeds), prop)


# -- reply ---------------------------------------------------------------------------------------


@sweep("reply")
def test_reply_options_are_legal_moves_of_the_real_deal(kind, convention, rule, seeds):
    def prop(drill: Drill) -> Iterator[str]:
        assert drill.signal is not None and drill.table is not None
        key = key_of(drill)
        if drill.signal not in encode(drill.source, drill.side_hand, drill.convention).plays:
            yield "partner's lead is not a correct lead of partner's hand"
        state = reply_state(drill)
        me = state.current_player()
        if me != drill.table.leader_seat.partner or set(state.held(me)) != set(drill.hand):
            yield f"{me} is to act holding {state.held(me)}, not the replier's hand"
        legal = state.legal_actions()
        keys = set(drill.option_keys) | set(key.accepted)
        for k in sorted(keys):
            if not legal_sequence(state, k):
                yield f"{k!r} is not a legal reply (legal: {[str(a) for a in legal]})"
        if "pass" in drill.option_keys and PASS not in legal:
            yield "pass offered where it is illegal"
        if "force" in drill.option_keys and FORCE not in legal:
            yield "force offered where it is illegal"
        if drill.signal[1] is None:
            if PASS in legal or FORCE in legal:
                yield "the engine allows a third pass"
            if keys & {"pass", "force"}:
                yield f"pass or force offered or accepted after card and pass: {sorted(keys)}"

    check(drills(kind, convention, rule, seeds), prop)


# -- positions that can arise in play ------------------------------------------------------------


@sweep("checklist", "lead", "read", "reply")
def test_hand_sizes_fit_the_side_hand_and_every_card_is_dealt_once(kind, convention, rule, seeds):
    def prop(drill: Drill) -> Iterator[str]:
        k = drill.side_hand
        leader = drill.hand if kind in ("lead", "checklist") else drill.source
        lo, hi = LEADER_SIZES[k]
        if not max(lo, MIN_DRILL_CARDS) <= len(leader) <= hi:
            yield f"side hand {k}: the leader holds {len(leader)} cards"
        if drill.params.side_hand not in (None, k):
            yield f"asked for side hand {drill.params.side_hand}, got {k}"
        shown = [*drill.hand, *drill.source, *table_cards(drill)]
        if len(set(shown)) != len(shown):
            yield "a card is dealt twice"
        if kind == "checklist":
            if drill.completed or drill.opponents:
                yield "a checklist drill shows a table"
            return
        partner = drill.partner_size
        if partner is None or len(leader) + partner != 26 - 5 * (k - 1):
            yield f"side hand {k}: the partners hold {len(leader)} + {partner} cards"
        if kind == "reply" and partner != len(drill.hand):
            yield f"partner_size {partner} is not the replier's {len(drill.hand)} cards"
        if kind == "read" and len(drill.hand) != (partner if drill.params.own_hand else 0):
            yield f"the reader's own hand has {len(drill.hand)} cards"
        for name, hands in (("completed", drill.completed), ("opponents", drill.opponents)):
            if len(hands) != k - 1 or any(len(h) != 5 for h in hands):
                yield f"side hand {k}: {name} hands {[len(h) for h in hands]}"
        table = drill.table
        if table is None:
            yield "no table"
            return
        if (table.completed, table.opponents) != (drill.completed, drill.opponents):
            yield "the table's completed hands are not the drill's"
        if sorted(table.leader) != sorted(leader) or len(table.partner) != partner:
            yield "the table's leader or partner is not the drill's"
        state = table.play_to_start()  # raises if the earlier hands cannot be played
        if state.current_player() != table.leader_seat:
            yield f"{state.current_player()} leads the side hand, not {table.leader_seat}"
        if set(state.held(table.leader_seat)) != set(leader):
            yield "the replayed deal leaves the leader other cards"

    check(drills(kind, convention, rule, seeds), prop)


# -- words ---------------------------------------------------------------------------------------


@sweep("score", "checklist", "lead", "read", "reply")
def test_explanations_name_only_the_drills_cards(kind, convention, rule, seeds):
    def prop(drill: Drill) -> Iterator[str]:
        key = key_of(drill)
        own = {*drill.hand, *drill.source, *drill.cards, *table_cards(drill)}
        own |= {c for c in drill.signal or () if c is not None}
        words = [key.explanation, *key.details, key.reveal_label]
        if kind == "lead":
            words += grade(drill, Answer.parse(key.preferred, "lead")).details
        for card in cards_in(" ".join(words)):
            if card not in own:
                yield f"{card.symbol} is not one of the drill's cards: {' '.join(words)!r}"
        if not set(key.highlight) <= own:
            yield f"highlighted cards {key.highlight} are not the drill's"

    check(drills(kind, convention, rule, seeds), prop)


def _shares(drill: Drill) -> Counter[Seat] | None:
    """Who supplied the cards the contribution rule splits, or None when no split counts."""
    rule = get_rule(drill.params.rule)
    if len(drill.cards) == 6:
        value = leftover_value(drill.cards, rule, by=drill.by or None)
        combination, five = value.combination, value.cards
    else:
        combination, five = best_five(drill.cards)
    if not drill.by or not rule.needs_split(combination):
        return None
    seat_of = dict(zip(drill.cards, drill.by, strict=True))
    if combination is Combination.FOURS:
        ranks = Counter(c.rank for c in five)
        five = tuple(c for c in five if ranks[c.rank] == 4)
    return Counter(seat_of[c] for c in five)


@sweep("score")
def test_score_feedback_counts_points_and_names_the_split(kind, convention, rule, seeds):
    def prop(drill: Drill) -> Iterator[str]:
        text = key_of(drill).explanation
        if re.search(r"\b1 points\b", text):
            yield f"'1 points': {text!r}"
        if key_of(drill).accepted == ("1",) and len(drill.cards) == 5 and "1 point" not in text:
            yield f"one point not named: {text!r}"
        shares = _shares(drill)
        if rule == "classic" and (drill.by or any(s.name_long in text for s in Seat)):
            yield "a classic drill names who played the cards"
        if shares is not None:
            for seat, n in shares.items():
                if f"{seat.name_long} {n}" not in text:
                    yield f"the split ({seat.name_long} {n}) is not named: {text!r}"

    check(drills(kind, convention, rule, seeds), prop)


# -- the same address, the same drill ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["score", "checklist", "lead", "read", "reply"])
@pytest.mark.parametrize("convention", CONVENTIONS)
def test_the_same_address_rebuilds_an_equal_drill(kind, convention):
    for seed in range(0, 3000, 60):
        params = params_for(kind, seed, convention, RULES[seed % 2])
        _make_drill.cache_clear()
        first = make_drill(kind, seed, params)
        _make_drill.cache_clear()
        again = make_drill(kind, seed, params)
        assert first is not again
        assert first == again and first.source == again.source and first.table == again.table
        assert answer_key(first) == answer_key(again)
