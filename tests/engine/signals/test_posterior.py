"""The odds of every reading: agreement with exact enumeration, determinism, bad input, CLI.

The reference here is computed independently of :mod:`engine.signals.posterior`: every hand
partner can hold is enumerated with ``itertools.combinations`` and weighed with ``encode``.
"""

import io
import json
import math
from itertools import combinations

import pytest

from engine.cards import DECK, card, parse_cards
from engine.cli import main
from engine.errors import ConcertoError
from engine.signals import CONVENTIONS, decode, encode
from engine.signals.posterior import (
    InvalidPosteriorError,
    Posterior,
    posterior,
    wilson_interval,
)

CONVENTION_NAMES = ("parlett-2008", "teach-yourself-1994")


def sig(c1, c2):
    return card(c1), (card(c2) if c2 and c2 != "pass" else None)


def exact(signal, side_hand, hand_size, visible, conv, model, by_item=False):
    """The conditional distribution by brute force: {key: probability}."""
    c1, c2 = signal
    shown = [c for c in signal if c is not None]
    seen = set(visible) | set(shown)
    pool = [c for c in DECK if c not in seen]
    totals: dict = {}
    for rest in combinations(pool, hand_size - len(shown)):
        enc = encode([*shown, *rest], side_hand, conv)
        if not enc.plays:
            continue
        if model == "preferred":
            weight = 1.0 if enc.plays[0] == (c1, c2) else 0.0
        else:
            weight = 1.0 / len(enc.plays) if (c1, c2) in enc.plays else 0.0
        if weight:
            key = enc.item if by_item else (enc.item, enc.shape)
            totals[key] = totals.get(key, 0.0) + weight
    total = sum(totals.values())
    return {k: v / total for k, v in totals.items()}


def as_dict(post: Posterior, by_item=False) -> dict:
    out: dict = {}
    for o in post.items:
        key = o.item if by_item else (o.item, o.shape)
        out[key] = out.get(key, 0.0) + o.p
    return out


def visible_except(pool_text, signal):
    """Everything but ``pool_text`` and the signal: the reader sees all the other cards."""
    keep = set(parse_cards(pool_text)) | {c for c in signal if c is not None}
    return tuple(c for c in DECK if c not in keep)


# Small worlds: partner's hand is drawn from a dozen unseen cards chosen to make several
# readings of the signal possible.
SMALL_CASES = [
    # (c1, c2, side hand, hand size, unseen pool)
    ("4S", "8S", 3, 6, "5S 6S 7S 9S KS AS 5H 6D 7C 2H JD QC 3H"),
    ("2D", "5D", 1, 6, "3D 4D 6D AD 8D JD QD 3S 4H 2C 5C 9S"),
    ("7D", "8D", 1, 5, "9D TD JD 2D KD 4S 8S 7C 9H TS QC 2H"),
    ("5S", "2S", 1, 6, "AS 4S 3S 6S 9S 3H 4D 6C AH 7D"),
    ("6D", "7H", 2, 8, "6S 6C 7S 7C 8S 9C 5H 4D KC"),
    ("JS", "7S", 1, 6, "8S 9S TS QS 2S 7H 8C 9D JC 4H 5D"),
    ("4H", "7S", 2, 6, "4C 4D 7C 7D 5S 6H 8C 3D 2S KH JC"),
    ("6H", "6D", 1, 6, "6S 6C 9S 9H KD KC 2C 3S 8H JD"),
    ("4D", "pass", 4, 4, "4S 4C 4H 9S 9C 5D 6H JC 2S 7H KD"),
]


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
@pytest.mark.parametrize("case", SMALL_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_sampler_agrees_with_exact_enumeration(case, model, conv_name):
    c1, c2, side, size, pool = case
    conv = CONVENTIONS[conv_name]
    signal = sig(c1, c2)
    visible = visible_except(pool, signal)
    by_item = model == "any"  # the reference cannot name the shape a non-preferred play shows
    want = exact(signal, side, size, visible, conv, model, by_item)
    post = posterior(
        signal, side, size, visible, conv, samples=2000, seed=3, model=model, method="sample"
    )
    if not want:
        assert post.empty and post.items == ()
        return
    got = as_dict(post, by_item)
    assert set(got) <= set(want)
    n = post.effective_samples
    assert n > 200, "the sampler should not waste its hands on this small world"
    for key, p in want.items():
        q = got.get(key, 0.0)
        tolerance = 4.5 * math.sqrt(max(p * (1 - p), 1 / n) / n) + 1e-9
        assert abs(q - p) <= tolerance, (key, p, q, n)


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
@pytest.mark.parametrize("case", SMALL_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_enumeration_is_exact(case, model, conv_name):
    c1, c2, side, size, pool = case
    conv = CONVENTIONS[conv_name]
    signal = sig(c1, c2)
    visible = visible_except(pool, signal)
    by_item = model == "any"
    want = exact(signal, side, size, visible, conv, model, by_item)
    post = posterior(signal, side, size, visible, conv, model=model, method="enumerate")
    assert post.exact and post.attempts == math.comb(
        52 - len(visible) - len(post.signal) + (signal[1] is None),
        size - (1 if signal[1] is None else 2),
    )
    got = as_dict(post, by_item)
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(p, abs=1e-12)
    for o in post.items:
        assert o.ci95 == (o.p, o.p)


def test_auto_enumerates_small_worlds():
    c1, c2, side, size, pool = SMALL_CASES[2]
    signal = sig(c1, c2)
    visible = visible_except(pool, signal)
    post = posterior(signal, side, size, visible, samples=1000)
    assert post.exact and post.how == "enumerated" and post.attempts == math.comb(12, 3)
    sampled = posterior(signal, side, size, visible, samples=1000, method="sample")
    assert not sampled.exact and sampled.how == "sampled"


def test_a_rare_signal_in_a_full_hand_is_found_and_right():
    """♦2 then ♦5 from 13 cards is four to a straight flush XXXX, whatever else is held."""
    post = posterior(sig("2D", "5D"), 1, 13, samples=500, seed=1)
    assert post.samples == 500
    assert post.attempts < 5000
    assert [(o.item, o.shape) for o in post.items] == [("four_sf", "XXXX")]


def test_only_reading_stops_at_first_hand_and_is_exact():
    signal = sig("6H", "6D")
    post = posterior(signal, 1, 13, samples=2000)
    assert post.exact and post.how == "only_reading"
    assert post.samples == 1 and post.attempts >= 1
    assert [(o.item, o.p, o.ci95) for o in post.items] == [("fours", 1.0, (1.0, 1.0))]
    # The same world sampled in full agrees.
    sampled = posterior(signal, 1, 13, samples=300, method="sample")
    assert [(o.item, o.p) for o in sampled.items] == [("fours", 1.0)]


def test_witness_proves_the_only_reading_at_once():
    hand = parse_cards("6H 6D 6S 6C 2S 3H 4D 8C 9S TH QD KC AS")
    post = posterior(sig("6H", "6D"), 1, 13, samples=2000, witness=hand)
    assert post.exact and post.attempts == 0 and post.items[0].item == "fours"


def test_determinism_per_seed():
    args = (sig("4S", "8S"), 3, 8)
    a = posterior(*args, samples=400, seed=11)
    b = posterior(*args, samples=400, seed=11)
    c = posterior(*args, samples=400, seed=12)
    assert a == b
    assert a.to_json() == b.to_json()
    assert (c.attempts, c.items) != (a.attempts, a.items)


def test_probabilities_sum_to_one_sorted_with_intervals_containing_p():
    for c1, c2, side, size in [
        ("4S", "8S", 3, 8),
        ("7D", "8D", 1, 11),
        ("4H", "7S", 2, 9),
        ("JS", "7S", 1, 13),
        ("3D", "4D", 4, 6),
    ]:
        post = posterior(sig(c1, c2), side, size, samples=300)
        assert post.items
        assert sum(o.p for o in post.items) == pytest.approx(1.0, abs=1e-9)
        ps = [o.p for o in post.items]
        assert ps == sorted(ps, reverse=True)
        for o in post.items:
            lo, hi = o.ci95
            assert 0.0 <= lo <= o.p <= hi <= 1.0
            if not post.exact and 0 < o.p < 1:
                assert lo < o.p < hi


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
def test_every_item_is_a_reading_of_the_signal(conv_name, model):
    conv = CONVENTIONS[conv_name]
    cases = [
        ("4S", "8S", 3, 8, ""),
        ("7D", "8D", 1, 11, "9D"),
        ("4H", "7S", 2, 9, "4C 5S"),
        ("JS", "7S", 1, 13, ""),
        ("3D", "4D", 4, 6, "5D 2S 2H"),
        ("AC", "4H", 4, 6, "2S 3D"),
        ("QH", "pass", 3, 6, "QS"),
    ]
    for c1, c2, side, size, seen in cases:
        signal = sig(c1, c2)
        visible = parse_cards(seen)
        post = posterior(signal, side, size, visible, conv, samples=200, model=model)
        readings = {(r.item, r.shape) for r in decode(*signal, side, conv, visible)}
        for o in post.items:
            assert (o.item, o.shape) in readings, (c1, c2, o)


def test_empty_posterior_is_a_result_not_a_crash():
    # A 13-card hand always holds more than one pair: nobody leads ♣Q and pass from it.
    post = posterior(sig("QC", "pass"), 1, 13, samples=20)
    assert post.empty and post.items == () and post.samples == 0
    assert post.to_json()["items"] == [] and post.to_json()["empty"] is True
    # A signal no reading survives (partner cannot hold four 7s when the reader holds one).
    post = posterior(
        sig("7H", "7D"),
        1,
        13,
        visible=parse_cards("7S"),
        convention="parlett-2008",
        samples=20,
        model="preferred",
    )
    assert post.empty and post.attempts == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand_size": 0}, "hand size must be 1..13"),
        ({"hand_size": 14}, "hand size must be 1..13"),
        ({"hand_size": 1}, "cannot lead a two-card signal"),
        ({"visible": parse_cards("4S")}, "cannot also see it"),
        ({"visible": (card("2C"), card("2C"))}, "a visible card twice"),
        ({"side_hand": 5}, "side hand must be 1..4"),
        ({"model": "greedy"}, "model must be one of"),
        ({"samples": 0}, "samples must be"),
        ({"method": "guess"}, "method must be one of"),
        ({"signal": (card("4S"), card("4S"))}, "the same card twice"),
        ({"signal": ("4S", "8S")}, "two cards"),
        (
            {"visible": tuple(c for c in DECK if c not in parse_cards("4S 8S 2C 3C"))},
            "cannot hold 8 cards",
        ),
        ({"convention": "bridge"}, "convention"),
    ],
)
def test_bad_input_raises_typed_errors(kwargs, message):
    args = {"signal": sig("4S", "8S"), "side_hand": 3, "hand_size": 8, "samples": 10}
    args.update(kwargs)
    with pytest.raises(ConcertoError, match=message) as info:
        posterior(**args)
    assert isinstance(info.value, ValueError)


def test_posterior_errors_are_value_errors():
    assert issubclass(InvalidPosteriorError, ValueError)


def test_wilson_interval():
    assert wilson_interval(0.0, 100)[0] == 0.0
    assert wilson_interval(1.0, 100)[1] == 1.0
    lo, hi = wilson_interval(0.3, 1000)
    assert lo < 0.3 < hi and hi - lo < 0.06
    assert wilson_interval(0.3, 0) == (0.0, 1.0)


# -- the command line --------------------------------------------------------------------------


def cli(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_posterior_prints_one_json_line():
    status, out, err = cli(
        "posterior",
        "4S",
        "8S",
        "--side-hand",
        "3",
        "--hand-size",
        "8",
        "--samples",
        "200",
        "--seed",
        "4",
    )
    assert (status, err) == (0, "") and out.count("\n") == 1
    data = json.loads(out)
    assert data["signal"] == ["4S", "8S"]
    assert (data["side_hand"], data["hand_size"], data["samples"]) == (3, 8, 200)
    assert data["attempts"] >= 200
    assert sum(i["p"] for i in data["items"]) == pytest.approx(1.0)
    assert [i["p"] for i in data["items"]] == sorted((i["p"] for i in data["items"]), reverse=True)
    for i in data["items"]:
        assert set(i) == {"item", "shape", "p", "ci95"}
        assert i["ci95"][0] <= i["p"] <= i["ci95"][1]
    direct = posterior(sig("4S", "8S"), 3, 8, samples=200, seed=4)
    assert data == json.loads(json.dumps(direct.to_json()))


def test_cli_posterior_pass_visible_model_and_convention():
    status, out, _ = cli(
        "posterior",
        "4D",
        "pass",
        "--side-hand",
        "4",
        "--hand-size",
        "5",
        "--visible",
        "4H",
        "2S",
        "--model",
        "any",
        "--convention",
        "teach-yourself-1994",
        "--samples",
        "100",
    )
    assert status == 0
    data = json.loads(out)
    assert data["signal"] == ["4D", "pass"] and data["model"] == "any"
    assert data["convention"] == "teach-yourself-1994"
    assert [i["item"] for i in data["items"]] == ["threes"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["posterior", "4S", "8S", "--hand-size", "8"], "--side-hand is required"),
        (["posterior", "4S", "8S", "--side-hand", "3"], "--hand-size is required"),
        (["posterior", "4S", "XS", "--side-hand", "3", "--hand-size", "8"], "not a card"),
        (
            ["posterior", "4S", "8S", "--side-hand", "3", "--hand-size", "8", "--visible", "8S"],
            "cannot also see it",
        ),
        (["posterior", "4S", "8S", "--side-hand", "3", "--hand-size", "20"], "hand size"),
        (
            ["posterior", "4S", "8S", "--side-hand", "3", "--hand-size", "8", "--model", "x"],
            "model must be",
        ),
        (["posterior", "4S", "--side-hand", "3", "--hand-size", "8"], "expected C1 and C2"),
    ],
)
def test_cli_posterior_bad_input_exits_2(argv, message):
    status, out, err = cli(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_cli_posterior_batch_mode():
    lines = "4S 8S --hand-size 8\n4S 4S --hand-size 8\n\n2D 5D --hand-size 13 --side-hand 1\n"
    status, out, err = cli("posterior", "--side-hand", "3", "--samples", "50", stdin=lines)
    assert status == 2
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["signal"] for a in answers] == [["4S", "8S"], ["2D", "5D"]]
    assert answers[1]["side_hand"] == 1 and answers[1]["items"][0]["item"] == "four_sf"
    assert err.startswith("error: line 2: ") and err.count("\n") == 1


@pytest.mark.parametrize("model", ["preferred", "any"])
def test_a_short_suited_reading_behind_a_common_one_is_found(model):
    """♥A then ♦10 from 8 cards: two threes (Aces and 10s) is easy to plant, three to a
    straight needs a hand with two cards of every suit and hardly anything else. The sampler
    must not report the first at 100%."""
    signal = sig("AH", "TD")
    pool = "AS JS 8H 6D 5C 2C 7H 2D 3C 3S JD 6H 5S KS 9S 3D QD 8C AD AC TC TS"
    visible = visible_except(pool, signal)
    conv = CONVENTIONS["parlett-2008"]
    want = exact(signal, 3, 8, visible, conv, model)
    assert set(want) == {("two_threes", None), ("three_straight", None)}
    assert min(want.values()) > 0.2
    post = posterior(
        signal, 3, 8, visible, conv, samples=1000, seed=1, model=model, method="sample"
    )
    got = as_dict(post)
    assert set(got) == set(want)
    for o in post.items:
        # The rare reading's hands carry large weights: judge by the interval reported,
        # doubled (about a 99.99% interval).
        p = want[(o.item, o.shape)]
        lo, hi = o.ci95
        assert o.p - 2 * (o.p - lo) <= p <= o.p + 2 * (hi - o.p), (o, p)


def test_docstring_examples_hold():
    import doctest

    import engine.signals.posterior as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 4


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("hands", [25, pytest.param(400, marks=pytest.mark.slow)])
def test_random_leads_report_only_readings_and_exact_answers_hold_the_hand(conv_name, hands):
    """Random hands of every size leading their preferred play, with a random table; a
    third of them hold four of a kind (which the 1994 card plays out, leading two of the four
    as two pair is led). Every reading reported is the card's or an unsignalled item played
    out, and an answer called exact holds the hand's own item."""
    import random

    conv = CONVENTIONS[conv_name]
    rng = random.Random(f"posterior-property:{conv_name}:{hands}")
    checked = fours = 0
    while checked < hands:
        side = rng.randint(1, 4)
        size = rng.randint(2, 13)
        deck = list(DECK)
        rng.shuffle(deck)
        if size >= 4 and rng.random() < 1 / 3:  # four of a kind in hand
            rank = deck[0].rank
            deck = [c for c in deck if c.rank == rank] + [c for c in deck if c.rank != rank]
        hand = deck[:size]
        enc = encode(hand, side, conv)
        if enc.preferred is None:
            continue
        checked += 1
        fours += enc.played_out
        visible = tuple(deck[size : size + rng.choice([0, 5, 10, 20, 30])])
        post = posterior(
            enc.preferred, side, size, visible, conv, samples=100, seed=checked, witness=hand
        )
        assert post.items, "the hand itself leads this way"
        readings = {(r.item, r.shape) for r in decode(*enc.preferred, side, conv, visible)}
        played_out = {(str(i), None) for i in conv.unsignalled_items}
        assert {(o.item, o.shape) for o in post.items} <= readings | played_out
        if post.exact:
            assert (enc.item, enc.shape) in {(o.item, o.shape) for o in post.items}
        if enc.played_out:
            assert not post.exact or post.how == "enumerated", "two pair leads it too"
    if conv.unsignalled_items:
        assert fours >= hands // 10, "the 1994 fours were drawn and played out"


# -- the fast path against the reference implementation ------------------------------------------
#
# ``posterior`` draws the same hands as ``_reference_posterior`` (the sampler as first written:
# card lists, ``random.sample``, every hand encoded) from the same random stream, skips only
# hands its lead filter proves cannot lead the signal, and encodes the others by a key with the
# same encoding: the answers must be equal, not merely close.


def reference_and_fast(*args, **kwargs):
    from engine.signals.posterior import _reference_posterior

    return _reference_posterior(*args, **kwargs), posterior(*args, **kwargs)


@pytest.mark.parametrize("conv_name", CONVENTION_NAMES)
@pytest.mark.parametrize("model", ["preferred", "any"])
@pytest.mark.parametrize("case", SMALL_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_fast_path_equals_reference_in_small_worlds(case, model, conv_name):
    c1, c2, side, size, pool = case
    signal = sig(c1, c2)
    visible = visible_except(pool, signal)
    for method in ("sample", "enumerate", "auto"):
        ref, fast = reference_and_fast(
            signal, side, size, visible, conv_name, samples=400, seed=7, model=model, method=method
        )
        assert fast == ref, method


def hard_case(seed):
    """Partner's first or second lead, the reader seeing their own hand only (the benchmark's
    hard cases): signal, side hand, partner's hand size, visible cards, convention, witness."""
    import random

    rng = random.Random(f"posterior-hard:{seed}")
    conv = CONVENTIONS[CONVENTION_NAMES[seed % 2]]
    while True:
        side = rng.choice((1, 2))
        size = 13 if side == 1 else rng.randint(9, 13)
        deck = list(DECK)
        rng.shuffle(deck)
        hand = deck[:size]
        enc = encode(hand, side, conv)
        if not enc.plays:
            continue
        play = rng.choice(enc.plays) if seed % 3 == 2 else enc.plays[0]
        visible = tuple(deck[13 : 13 + (13 if side == 1 else 21 - size)])
        return play, side, size, visible, conv, hand


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_equals_reference_on_hard_cases(seed):
    from engine.signals.posterior import model_for

    play, side, size, visible, conv, hand = hard_case(seed)
    model = model_for(hand, play, side, conv)
    ref, fast = reference_and_fast(
        play, side, size, visible, conv, samples=250, seed=seed, model=model, witness=hand
    )
    assert fast == ref
    # Always sampled (not answered at once from a single reading), the other model too.
    other = "any" if model == "preferred" else "preferred"
    for m in (model, other):
        ref, fast = reference_and_fast(
            play, side, size, visible, conv, samples=150, seed=seed, model=m, method="sample"
        )
        assert fast == ref, m


def test_fast_path_equals_reference_with_short_suit_proposals():
    """♥A then ♦10 from 8 cards: three to a straight needs hands of short suits (the capped
    proposals, drawn by their own code path)."""
    signal = sig("AH", "TD")
    pool = "AS JS 8H 6D 5C 2C 7H 2D 3C 3S JD 6H 5S KS 9S 3D QD 8C AD AC TC TS"
    visible = visible_except(pool, signal)
    for model in ("preferred", "any"):
        ref, fast = reference_and_fast(
            signal, 3, 8, visible, "parlett-2008", samples=300, seed=2, model=model, method="sample"
        )
        assert fast == ref
    ref, fast = reference_and_fast(sig("4S", "8S"), 3, 8, samples=300, seed=5)
    assert fast == ref


def test_fast_path_equals_reference_when_attempts_run_out():
    # ♦2 then ♦5 from 13 cards with a tight budget: both stop at the same hand.
    ref, fast = reference_and_fast(sig("2D", "5D"), 1, 13, samples=500, seed=1, max_attempts=300)
    assert fast == ref and fast.attempts == 300


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13, 21, 22, 30, 39, 45, 52])
def test_sample_replay_draws_what_random_sample_draws(n):
    """The fast path replays ``random.sample``'s algorithm with ``getrandbits``: the same
    choices, and the generator left in the same state."""
    import random

    from engine.signals.posterior import _sample_bits, _sample_steps

    population = [1 << i for i in range(n)]
    for k in sorted({0, 1, min(2, n), min(5, n), min(6, n), n // 2, n}):
        for seed in range(20):
            a, b = random.Random(seed), random.Random(seed)
            assert _sample_bits(b.getrandbits, population, k, _sample_steps(n, k)) == a.sample(
                population, k
            )
            assert a.random() == b.random()


# -- the 1994 card's four of a kind: played out, and led like two pair -------------------------


def test_a_1994_same_rank_signal_is_never_called_certain():
    """♠9 ♥9 on the 1994 card: two pair signals it, and four 9s played out lead it too. The
    one-reading shortcut took two pair (or whichever hand came first) as certain."""
    conv = CONVENTIONS["teach-yourself-1994"]
    signal = sig("9S", "9H")
    post = posterior(signal, 1, 13, convention=conv, samples=1000, seed=2)
    got = as_dict(post, by_item=True)
    assert set(got) == {"fours", "two_pair"} and not post.exact
    assert post.how == "sampled" and 0.8 < got["fours"] < 1.0
    # With a two-pair hand as witness (the trainer's odds chart) the fours are still there.
    witness = parse_cards("9S 9H 4C 4D 2S 3H 5D 7C TH QD KC AS 8S")
    seen = posterior(signal, 1, 13, convention=conv, samples=1000, seed=2, witness=witness)
    assert set(as_dict(seen, by_item=True)) == {"fours", "two_pair"} and not seen.exact


def _same_rank_world(rng, conv):
    """A random 1994 same-rank signal in a small world: partner's hand of 4-6 cards drawn
    from about a dozen unseen cards, the other two of the rank among them or not."""
    rank = rng.choice("23456789TJQKA")
    suits = rng.sample("SHDC", 4)
    signal = (card(rank + suits[0]), card(rank + suits[1]))
    others = [card(rank + s) for s in suits[2:]]
    rest = [c for c in DECK if c.rank != signal[0].rank]
    rng.shuffle(rest)
    pool = rest[: rng.randint(8, 11)] + others[: rng.randint(0, 2)]
    visible = tuple(c for c in DECK if c not in pool and c not in signal)
    return signal, rng.randint(1, 4), rng.randint(4, 6), visible


@pytest.mark.parametrize("cases", [range(12), pytest.param(range(12, 212), marks=pytest.mark.slow)])
def test_a_random_audit_of_1994_same_rank_signals_agrees_with_enumeration(cases):
    """Every reading's odds, sampled, within four standard errors of an independent
    enumeration; and an answer called exact is the enumeration's."""
    import random

    conv = CONVENTIONS["teach-yourself-1994"]
    checked = 0
    for case in cases:
        rng = random.Random(f"audit-1994:{case}")
        signal, side, size, visible = _same_rank_world(rng, conv)
        model = rng.choice(["preferred", "any"])
        want = exact(signal, side, size, visible, conv, model, by_item=True)
        if not want:
            continue
        checked += 1
        sampled = posterior(signal, side, size, visible, conv, 800, case, model, method="sample")
        got = as_dict(sampled, by_item=True)
        assert set(got) <= set(want), (case, got, want)
        for item, p in want.items():
            q = got.get(item, 0.0)
            se = math.sqrt(max(p * (1 - p), 1e-4) / max(sampled.effective_samples, 1.0))
            assert abs(q - p) <= 4 * se + 1e-9, (case, item, q, p, sampled.effective_samples)
        auto = posterior(signal, side, size, visible, conv, 800, case, model)
        if auto.exact:
            assert as_dict(auto, by_item=True) == pytest.approx(want), (case, auto.how)
    assert checked >= len(cases) // 2
