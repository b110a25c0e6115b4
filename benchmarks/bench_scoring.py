"""Five-card evaluation speed: our fast path against treys' ``Evaluator.evaluate``.

Both evaluate the same N random hands (fixed seed); treys' card ints are built before timing,
and both are timed in CPU time (``time.process_time``) in the same run.
Runs alternate and the best of several counts. The last line is ``ratio_vs_treys: X.XX``
(ours / treys, higher is faster)::

    .venv/bin/python benchmarks/bench_scoring.py [N] [ROUNDS]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK
from engine.scoring import category_index

SEED = 20240601


def main(argv: list[str]) -> int:
    try:
        from treys import Card as TreysCard
        from treys import Evaluator
    except ImportError:
        print("treys is not installed: pip install treys (or pip install -e '.[bench]')")
        return 1
    n = int(argv[1]) if len(argv) > 1 else 200_000
    rounds = int(argv[2]) if len(argv) > 2 else 5
    rng = random.Random(SEED)
    hands = [tuple(rng.sample(range(52), 5)) for _ in range(n)]
    treys_int = [TreysCard.new(c.rank_char + c.suit.char.lower()) for c in DECK]
    treys_hands = [([treys_int[i] for i in h[:2]], [treys_int[i] for i in h[2:]]) for h in hands]
    evaluator = Evaluator()

    def run_treys() -> float:
        evaluate = evaluator.evaluate
        start = time.process_time()
        for hand, board in treys_hands:
            evaluate(hand, board)
        return time.process_time() - start

    def run_ours() -> float:
        evaluate = category_index
        start = time.process_time()
        for a, b, c, d, e in hands:
            evaluate(a, b, c, d, e)
        return time.process_time() - start

    best_treys = best_ours = float("inf")
    for _ in range(rounds):
        best_treys = min(best_treys, run_treys())
        best_ours = min(best_ours, run_ours())
    treys_rate = n / best_treys
    ours_rate = n / best_ours
    print(f"hands: {n}, rounds: {rounds} (best of), seed: {SEED}")
    print(f"treys Evaluator.evaluate: {treys_rate:,.0f} evaluations/s")
    print(f"engine.scoring.category_index: {ours_rate:,.0f} evaluations/s")
    print(f"ratio_vs_treys: {ours_rate / treys_rate:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
