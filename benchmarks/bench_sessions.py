"""Duplicate sessions: the cost of scoring a daylong as its results arrive.

A daylong of ``PAIRS`` pairs (default 200), each playing ``BOARDS`` boards (default 12) against
the same bot pair: every result is added to the session's :class:`~engine.duplicate.matchpoints.
Scorer` and the whole ranking recomputed after each one, as the results page would show it.
Prints the CPU seconds (``time.process_time``) for the lot, the goal (under 1 s), and the ratio
to a reference measured in the same run: scoring the finished session once, from scratch (each
result's ranking costs a small fraction of that, as only its own board is re-scored).

::

    .venv/bin/python benchmarks/bench_sessions.py [PAIRS] [BOARDS]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.duplicate.matchpoints import Result, Scorer  # noqa: E402

GOAL_CPU_S = 1.0


def _results(pairs: int, boards: int) -> list[Result]:
    rng = random.Random(20261205)
    out = [
        Result(board, pair, -pair, rng.randint(0, 80), rng.randint(0, 80))
        for pair in range(1, pairs + 1)
        for board in range(1, boards + 1)
    ]
    rng.shuffle(out)  # pairs play whenever they like within the window
    return out


def _incremental(results: list[Result]) -> float:
    cpu0 = time.process_time()
    scorer = Scorer()
    for result in results:
        scorer.add(result)
        scorer.ranking()
    return time.process_time() - cpu0


def _once(results: list[Result]) -> float:
    cpu0 = time.process_time()
    for _ in range(5):
        Scorer.of(results).ranking()
    return (time.process_time() - cpu0) / 5


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    boards = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    results = _results(pairs, boards)
    incremental = _incremental(results)
    once = _once(results)
    print(f"daylong of {pairs} pairs x {boards} boards: {len(results)} results")
    print(
        f"  ranking after each result: {incremental:.3f} s CPU (goal < {GOAL_CPU_S:g} s): "
        f"{'met' if incremental < GOAL_CPU_S else 'MISSED'}"
    )
    print(
        f"  the finished session scored once: {once * 1000:.1f} ms CPU; each result's "
        f"ranking costs {incremental / len(results) / once:.3f}x that"
    )


if __name__ == "__main__":
    main()
