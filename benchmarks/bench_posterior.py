"""CPU time of the reading odds ("what could partner hold?"): read drills, then hard cases.

Run: ``.venv/bin/python benchmarks/bench_posterior.py [DRILLS] [SAMPLES] [--hard N]
[--no-reference]`` (default 40 drills, 1,000 samples, 24 hard cases, with the reference).

*Drills.* Builds read-drill situations with ``engine.drills.make_drill("read", seed)`` for
seeds 0.. (signal, side hand, the leader's hand size, the cards the reader sees, the leader's
hand as witness, and the model that explains the lead, as the trainer calls it); a seed the
drill generator cannot build is replaced by a situation dealt here: a random hand of a size
that fits a random side hand, its preferred lead, and completed hands on the table.

*Hard cases.* Partner's first or second lead with few cards seen, as a bot partner reads it in
play: side hand 1 (partner holds 13 cards) or 2 (9 to 13), the reader sees only their own hand
(13 cards, or in side hand 2 the 21 the two partners hold less the leader's), partner leads
the preferred play of a dealt hand (model ``preferred``, as the bots lead); kept when more than
one reading of the signal is left (the others are answered exactly at once). Each is timed
with :func:`posterior` and, unless ``--no-reference``, with the slow reference implementation
(``_reference_posterior``, the sampler as first written: the same answer from the same random
stream), which gives the speed-up in the same run; the two answers are checked equal.

Every posterior is timed with ``time.process_time`` (CPU, one core) after the decoder's tables
are built, from the same cache state: the encoder's and the checklist's memo tables, which
either implementation fills while it runs, are emptied before each one. The machine's speed
is measured in the same run with a fixed treys loop (5-card ``Evaluator.evaluate`` over
100,000 seeded hands, best of 3 rounds before and 3 after the posteriors): figures are
normalised to a machine doing 2,000,000 treys evaluations per CPU second,
``ms × treys_rate / 2,000,000``. The target is a median of at most 150 normalised ms
over the situations that are sampled (not answered exactly by enumeration or by a single
possible reading). The last lines print the raw and normalised medians and the ratios to the
target (lower is better; at most 1 meets it)::

    drills_ratio_vs_target: X.XX
    hard_ratio_vs_target: X.XX
    ratio_vs_target: X.XX      (the larger of the two)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK, Card
from engine.signals import CONVENTIONS, decode, encode
from engine.signals.decoder import readings_table
from engine.signals.lead_filter import first_item
from engine.signals.posterior import _reference_posterior, model_for, posterior

TARGET_MS = 150.0
#: The reference machine of the target: treys evaluations per CPU second.
REFERENCE_TREYS_RATE = 2_000_000
TREYS_HANDS = 100_000
TREYS_SEED = 20240601
#: Hand sizes the leader can hold at the start of each side hand (docs/rules.md).
LEADER_SIZES = {1: (13, 13), 2: (9, 13), 3: (4, 12), 4: (2, 11)}


def treys_loop() -> Callable[[], float] | None:
    """A fixed treys loop: returns a function timing one round, in evaluations per CPU s."""
    try:
        from treys import Card as TreysCard
        from treys import Evaluator
    except ImportError:
        return None
    rng = random.Random(TREYS_SEED)
    ints = [TreysCard.new(c.rank_char + c.suit.char.lower()) for c in DECK]
    hands = []
    for _ in range(TREYS_HANDS):
        h = rng.sample(ints, 5)
        hands.append((h[:2], h[2:]))
    evaluate = Evaluator().evaluate

    def one_round() -> float:
        start = time.process_time()
        for hand, board in hands:
            evaluate(hand, board)
        return TREYS_HANDS / (time.process_time() - start)

    return one_round


def drill_situation(seed: int) -> dict[str, Any] | None:
    """A read drill's situation, or ``None`` when the generator cannot build this seed."""
    try:
        from engine.drills import make_drill

        d = make_drill("read", seed)
        signal, source = d.signal, tuple(d.source)
        if signal is None or not source:
            return None
        return {
            "signal": signal,
            "side_hand": d.side_hand,
            "hand_size": len(source),
            "visible": tuple(d.visible),
            "convention": d.convention,
            "witness": source,
            "origin": f"drill {seed}",
        }
    except Exception:
        return None


def dealt_situation(seed: int) -> dict[str, Any]:
    """A random lead: a hand fitting a side hand, its preferred play, the table so far."""
    rng = random.Random(f"bench-posterior:{seed}")
    conv = list(CONVENTIONS.values())[seed % len(CONVENTIONS)]
    while True:
        side = rng.randint(1, 4)
        size = rng.randint(*LEADER_SIZES[side])
        deck = list(DECK)
        rng.shuffle(deck)
        hand = tuple(deck[:size])
        play = encode(hand, side, conv).preferred
        if play is None:
            continue
        table: tuple[Card, ...] = tuple(deck[size : size + 5 * (side - 1)])
        return {
            "signal": play,
            "side_hand": side,
            "hand_size": size,
            "visible": table,
            "convention": conv,
            "witness": hand,
            "origin": f"dealt {seed}",
        }


def hard_situations(count: int) -> list[dict[str, Any]]:
    """Partner's first or second lead, the reader seeing only their own hand; kept when more
    than one reading is left (see the module's docstring)."""
    out: list[dict[str, Any]] = []
    convs = list(CONVENTIONS.values())
    attempt = 0
    while len(out) < count:
        rng = random.Random(f"bench-posterior-hard:{attempt}")
        attempt += 1
        side = 1 + len(out) % 2
        conv = convs[(len(out) // 2) % len(convs)]
        size = rng.randint(*LEADER_SIZES[side])
        deck = list(DECK)
        rng.shuffle(deck)
        hand = tuple(deck[:size])
        play = encode(hand, side, conv).preferred
        if play is None:
            continue
        # The reader's own hand: 13 cards, or in side hand 2 the 21 the partners hold
        # between them less the leader's (docs/rules.md).
        own = 13 if side == 1 else 21 - size
        visible = tuple(deck[13 : 13 + own])
        if len(decode(play[0], play[1], side, conv, visible)) < 2:
            continue
        out.append(
            {
                "signal": play,
                "side_hand": side,
                "hand_size": size,
                "visible": visible,
                "convention": conv,
                "witness": hand,
                "origin": f"hard {len(out)}",
            }
        )
    return out


def cold() -> None:
    """Empty the memo tables the encoder and the checklist fill while a posterior runs."""
    from engine.signals import checklist, encoder

    plays = getattr(encoder, "_CACHE", None)
    if isinstance(plays, dict):
        plays.clear()
    runs = getattr(checklist, "runs", None)
    if hasattr(runs, "cache_clear"):
        runs.cache_clear()


def timed(
    func: Callable[..., Any], s: dict[str, Any], seed: int, samples: int
) -> tuple[float, Any]:
    model = model_for(s["witness"], s["signal"], s["side_hand"], s["convention"])
    cold()
    start = time.process_time()
    post = func(
        s["signal"],
        s["side_hand"],
        s["hand_size"],
        s["visible"],
        s["convention"],
        samples=samples,
        seed=seed,
        model=model,
        witness=s["witness"],
    )
    return (time.process_time() - start) * 1000, post


def line(s: dict[str, Any], ms: float, post: Any, extra: str = "") -> str:
    c1, c2 = s["signal"]
    top = post.items[0] if post.items else None
    return (
        f"{s['origin']:>9}  {c1} {str(c2) if c2 else 'pass':4}  side {s['side_hand']}  "
        f"size {s['hand_size']:2}  seen {len(s['visible']):2}  {post.model:9}  "
        f"{ms:7.1f} ms{extra}  samples {post.samples:5}  ess {post.effective_samples:7.1f}  "
        f"attempts {post.attempts:6}  {'exact' if post.exact else 'sampled'}  "
        f"{top.label + f' {top.p:.0%}' if top else 'no hand leads this way'}"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("drills", nargs="?", type=int, default=40)
    parser.add_argument("samples", nargs="?", type=int, default=1000)
    parser.add_argument("--hard", type=int, default=24, help="hard cases (default 24)")
    parser.add_argument(
        "--no-reference", action="store_true", help="do not time the reference implementation"
    )
    args = parser.parse_args(argv)
    samples = args.samples
    for conv in CONVENTIONS.values():
        readings_table(conv)
        first_item(0, conv.checklist)  # the lead filter's tables
    treys = treys_loop()
    rates = [treys() for _ in range(3)] if treys else []

    print(f"== read drills ({args.drills}), {samples} samples")
    rows = []
    for seed in range(args.drills):
        s = drill_situation(seed) or dealt_situation(seed)
        ms, post = timed(posterior, s, seed, samples)
        rows.append((ms, post))
        print(line(s, ms, post))
    all_ms = [ms for ms, _ in rows]
    sampled = [ms for ms, p in rows if not p.exact]
    enough = sum(1 for _, p in rows if p.exact or p.samples >= samples)
    print(
        f"situations: {len(rows)}  answered exactly: {len(rows) - len(sampled)}  "
        f"with >= {samples} samples or exact: {enough}"
    )
    print(f"median_ms_all: {statistics.median(all_ms):.1f}")
    print(f"max_ms: {max(all_ms):.1f}")
    drills_median = statistics.median(sampled) if sampled else 0.0
    print(f"median_ms_sampled: {drills_median:.1f}")

    print(f"== hard cases ({args.hard}): side hand 1 or 2, the reader's own hand seen")
    hard = []
    for i, s in enumerate(hard_situations(args.hard)):
        ms, post = timed(posterior, s, i, samples)
        extra = ""
        ref_ms = None
        if not args.no_reference:
            ref_ms, ref = timed(_reference_posterior, s, i, samples)
            if ref != post:
                print(f"{s['origin']}: the reference's answer differs", file=sys.stderr)
                return 1
            extra = f" (reference {ref_ms:7.1f} ms, x{ref_ms / ms:4.1f})"
        hard.append((ms, ref_ms, post))
        print(line(s, ms, post, extra))
    hard_sampled = [(ms, ref) for ms, ref, p in hard if not p.exact]
    hard_median = statistics.median(ms for ms, _ in hard_sampled) if hard_sampled else 0.0
    print(f"hard situations: {len(hard)}  sampled: {len(hard_sampled)}")
    if not args.no_reference and hard_sampled:
        pairs = [(ms, ref) for ms, ref in hard_sampled if ref is not None]
        ref_median = statistics.median(ref for _, ref in pairs)
        speedups = [ref / ms for ms, ref in pairs]
        print(f"hard_reference_median_ms_sampled: {ref_median:.1f}")
        # Each case against itself (the cases differ tenfold in cost, so a ratio of the two
        # medians would compare different cases).
        print(
            f"hard_speedup: median x{statistics.median(speedups):.1f} per case "
            f"(x{min(speedups):.1f}..x{max(speedups):.1f}; geometric mean "
            f"x{statistics.geometric_mean(speedups):.1f}; total CPU "
            f"x{sum(ref for _, ref in pairs) / sum(ms for ms, _ in pairs):.1f})"
        )

    if treys:
        rates += [treys() for _ in range(3)]
    if rates:
        rate = max(rates)
        scale = rate / REFERENCE_TREYS_RATE
        print(
            f"treys_evaluations_per_cpu_s: {rate:,.0f} (best of {len(rates)} rounds of "
            f"{TREYS_HANDS:,}; rounds {', '.join(f'{r:,.0f}' for r in rates)})"
        )
    else:
        scale = 1.0
        print("treys is not installed: figures are not normalised (pip install -e '.[bench]')")
    print(
        f"drills_median_ms_sampled: raw {drills_median:.1f}  normalised {drills_median * scale:.1f}"
    )
    print(f"hard_median_ms_sampled: raw {hard_median:.1f}  normalised {hard_median * scale:.1f}")
    drills_ratio = drills_median * scale / TARGET_MS
    hard_ratio = hard_median * scale / TARGET_MS
    print(f"drills_ratio_vs_target: {drills_ratio:.2f}")
    print(f"hard_ratio_vs_target: {hard_ratio:.2f}")
    print(f"ratio_vs_target: {max(drills_ratio, hard_ratio):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
