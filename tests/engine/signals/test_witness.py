"""A reading is taught only when a hand of partner's size can show it.

The witness search (``engine.signals.witness``) decides whether some hand of partner's size,
from the cards the reader cannot see, shows a reading and leads the signal for it. These tests
check it against independent answers — the checklist's finders, the posterior's exact
enumeration, the encoder on the hand it returns — and check that every read drill's key and
every reply's primary reading has such a hand (positive exact probability), while every reading
the card lists before it has none.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.cards import DECK, parse_cards
from engine.drills import DrillParams, make_drill
from engine.drills.grading import answer_key
from engine.signals import decode, encode, get_convention
from engine.signals.checklist import FINDERS, _Hand
from engine.signals.posterior import posterior
from engine.signals.reply import reply_advice
from engine.signals.witness import (
    _GROWING,
    _HOLDS,
    IMPOSSIBLE,
    POSSIBLE,
    UNDECIDED,
    _profile,
    hand_readings,
    holds,
    sized_primary,
    witness,
)

CONVENTIONS = ("parlett-2008", "teach-yourself-1994")
RULES = ("classic", "contribution")


def _random_mask(rng: random.Random) -> int:
    mask = 0
    for b in rng.sample(range(52), rng.randint(1, 13)):
        mask |= 1 << b
    return mask


@pytest.mark.parametrize("n", [3000, pytest.param(40_000, marks=pytest.mark.slow)])
def test_the_numbers_find_what_the_finders_find(n):
    """Each item is held by the numbers exactly when its finder finds it; a growing test,
    once passed, means the hand holds one of the items it names."""
    rng = random.Random(n)
    for _ in range(n):
        mask = _random_mask(rng)
        hand = _Hand(mask)
        for item in _HOLDS:
            assert holds(mask, item) == bool(FINDERS[item](hand)), (item, bin(mask))
            test, items = _GROWING[item]
            if test(_profile(mask)):
                assert any(FINDERS[i](hand) for i in items), (item, bin(mask))


def _small_case(rng: random.Random):
    """A random signal, side hand and hand size, with so few cards unseen that every hand
    can be enumerated."""
    conv = get_convention(rng.choice(CONVENTIONS))
    side_hand = rng.randint(1, 4)
    c1, c2 = rng.sample(DECK, 2)
    if rng.random() < 0.15:
        c2 = None
    rest = [c for c in DECK if c not in (c1, c2)]
    size = rng.choice([5, 6, 7, 8, 9, 10, 11])
    more = size - (1 if c2 is None else 2)
    n = more
    while n + 1 <= len(rest) and math.comb(n + 1, more) <= 20_000:
        n += 1
    pool = rng.sample(rest, n)
    visible = tuple(c for c in rest if c not in pool)
    return conv, side_hand, (c1, c2), size, visible


@pytest.mark.parametrize("cases", [120, pytest.param(2000, marks=pytest.mark.slow)])
def test_the_search_agrees_with_enumerating_every_hand(cases):
    """Possible exactly when the posterior, weighing every hand, gives the reading weight;
    never undecided; every hand returned is of the size, unseen, and leads the signal."""
    rng = random.Random(cases)
    tally: Counter[str] = Counter()
    for _ in range(cases):
        conv, side_hand, signal, size, visible = _small_case(rng)
        readings = decode(signal[0], signal[1], side_hand, conv, visible)
        if not readings:
            continue
        post = posterior(signal, side_hand, size, visible, conv, model="any", method="enumerate")
        weighed = {(str(o.item), o.shape) for o in post.items if o.p > 0}
        for r in readings:
            found = witness(r, signal, side_hand, size, visible, conv)
            tally[found.answer] += 1
            assert found.answer != UNDECIDED, (conv.name, signal, size, r)
            assert found.possible == ((str(r.item), r.shape) in weighed), (conv.name, signal, r)
            if found.hand:
                assert len(found.hand) == size and not set(found.hand) & set(visible)
                enc = encode(found.hand, side_hand, conv)
                assert enc.item == r.item and signal in enc.plays
    assert tally[POSSIBLE] and tally[IMPOSSIBLE]  # (both answers are exercised)


def _judge_first(drill, visible, key: str) -> None:
    """``key`` is the first reading a hand of the leader's size can show: it has a hand
    (checked by the encoder), and every reading listed before it has none."""
    conv = drill.convention
    size = len(drill.source)
    for r, found in hand_readings(drill.signal, drill.side_hand, size, visible, conv):
        assert found.answer != UNDECIDED, (drill.kind, drill.seed, r)
        if found.answer == IMPOSSIBLE:
            continue
        assert r.item == key, (drill.kind, drill.seed, drill.side_hand, r.item, key)
        enc = encode(found.hand, drill.side_hand, conv)
        assert enc.item == key and drill.signal in enc.plays
        return
    raise AssertionError(f"no reading of {drill.signal} has a hand of {size} cards")


def _drills(kind: str, seeds: range):
    for conv in CONVENTIONS:
        for rule in RULES:
            for seed in seeds:
                side_hand = 1 + seed % 4
                params = DrillParams(
                    convention=conv, rule=rule, side_hand=side_hand, own_hand=seed % 3 == 0
                )
                yield make_drill(kind, seed, params)


@pytest.mark.parametrize(
    "seeds", [range(60), pytest.param(range(60, 1060), marks=pytest.mark.slow)]
)
def test_every_read_key_is_the_first_reading_a_hand_of_partners_size_shows(seeds):
    for drill in _drills("read", seeds):
        key = answer_key(drill).accepted[0]
        _judge_first(drill, drill.visible, key)


@pytest.mark.parametrize(
    "seeds", [range(60), pytest.param(range(60, 1060), marks=pytest.mark.slow)]
)
def test_every_reply_rests_on_the_first_reading_a_hand_of_the_leaders_size_shows(seeds):
    for drill in _drills("reply", seeds):
        table = tuple(c for h in (*drill.completed, *drill.opponents) for c in h)
        visible = (*drill.hand, *table)
        c1, c2 = drill.signal
        size = len(drill.source)
        reading = sized_primary(drill.signal, drill.side_hand, size, visible, drill.convention)
        assert reading is not None
        _judge_first(drill, visible, reading.item)
        advice = reply_advice(
            drill.hand,
            c1,
            c2,
            drill.side_hand,
            drill.convention,
            table,
            leader_cards=size - (1 if c2 is None else 2),
        )
        named = advice.reason.params.get("item")
        if named is not None:
            assert named.key == str(reading.item), (drill.seed, named, reading.item)


def test_nine_cards_never_show_three_to_a_flush_after_jack_then_ten():
    """The case that showed the hole: partner's nine cards, ♥J then ♥10, with ♥A ♥9 ♥3 in
    sight. Every nine-card hand holding three hearts and no straight flush three holds two
    pair or four to a straight first, so the key is three to a straight flush and the answer
    says why three to a flush is out."""
    drill = make_drill("read", 142, DrillParams(side_hand=3))
    assert drill.signal == tuple(parse_cards("JH TH")) and len(drill.source) == 9
    assert decode(*drill.signal, 3, drill.convention, drill.visible)[0].item == "three_flush"

    key = answer_key(drill)

    assert key.accepted == ("three_sf",)
    assert any(d.id == "drill.read.hand_size" and d.params["n"] == 9 for d in key.details)
    assert "Ruled out by partner's 9 cards" in " ".join(key.details)


def test_a_known_hand_that_shows_the_reading_is_the_answer():
    drill = make_drill("read", 142, DrillParams(side_hand=3))
    found = witness(
        ("three_sf", "X.XX"),
        drill.signal,
        3,
        9,
        drill.visible,
        drill.convention,
        known=drill.source,
    )
    held = encode(drill.source, 3, drill.convention)
    if (held.item, held.shape) == ("three_sf", "X.XX"):
        assert found.hand == tuple(sorted(drill.source, key=lambda c: c.index))
    assert found.answer == POSSIBLE
