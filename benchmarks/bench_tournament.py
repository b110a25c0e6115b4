"""Tournament throughput: duplicate deals of ``signal`` against ``greedy`` per CPU second.

One process, then two (``--jobs 2``); CPU time is ``os.times()`` of this process plus its
finished children, so the figure counts the workers too. Prints both rates, then two ratios:
``ratio_vs_target`` (one process against 100 deals per CPU second) and, last,
``speedup_2_jobs`` (wall-clock speed of two processes over one; the target is 1.7 on two
free cores)::

    .venv/bin/python benchmarks/bench_tournament.py [DEALS]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tournament import PairSpec, TournamentSpec, run_tournament

TARGET = 100.0


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(argv: list[str]) -> int:
    deals = int(argv[1]) if len(argv) > 1 else 600
    spec = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=deals, seed=20261130)
    rates = {}
    walls = {}
    for jobs in (1, 2):
        cpu0, wall0 = _cpu(), time.perf_counter()
        run_tournament(spec, jobs=jobs)
        rates[jobs] = deals / (_cpu() - cpu0)
        walls[jobs] = time.perf_counter() - wall0
    print(f"deals: {deals} duplicate (signal vs greedy), cores: {os.cpu_count()}")
    print(f"1 job: {rates[1]:.1f} deals per CPU second, {walls[1]:.2f} s wall")
    print(f"2 jobs: {rates[2]:.1f} deals per CPU second, {walls[2]:.2f} s wall")
    print(f"ratio_vs_target: {rates[1] / TARGET:.2f}")
    print(f"speedup_2_jobs: {walls[1] / walls[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
