"""Tournament throughput: duplicate deals of ``signal`` against ``greedy`` per CPU second.

One process, then two (``--jobs 2``), each run in a fresh interpreter so that neither inherits
the other's warm caches. CPU time is ``os.times()`` of the run's process plus its finished
children, so the figure counts the workers too. Prints both rates and the machine's load
average (the cores are often shared), then:

- ``ratio_vs_target``: one process against 100 deals per CPU second;
- ``cpu_ratio_2_jobs``: CPU seconds of the two-process run over the one-process run (1.00
  means splitting the work costs nothing; it does not depend on other load on the machine);
- ``speedup_bound_2_jobs``: 2 / ``cpu_ratio_2_jobs``, the speed-up two free cores give;
- last, ``speedup_2_jobs``: the wall-clock speed of two processes over one, as measured (the
  target is 1.7; it falls short when the second core is busy with other work).

::

    .venv/bin/python benchmarks/bench_tournament.py [DEALS]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 100.0
SEED = 20261130


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _one(deals: int, jobs: int) -> dict[str, float]:
    from engine.tournament import PairSpec, TournamentSpec, run_tournament

    spec = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=deals, seed=SEED)
    cpu0, wall0 = _cpu(), time.perf_counter()
    result = run_tournament(spec, jobs=jobs)
    return {"cpu": _cpu() - cpu0, "wall": time.perf_counter() - wall0, "diff": result.diff}


def main(argv: list[str]) -> int:
    if len(argv) > 2 and argv[1] == "--one":
        print(json.dumps(_one(int(argv[2]), int(argv[3]))))
        return 0
    deals = int(argv[1]) if len(argv) > 1 else 600
    runs = {}
    load = os.getloadavg()[0]
    for jobs in (1, 2):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(deals), str(jobs)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        runs[jobs] = json.loads(out.stdout)
    assert runs[1]["diff"] == runs[2]["diff"], "results must not depend on --jobs"
    cpu_ratio = runs[2]["cpu"] / runs[1]["cpu"]
    print(f"deals: {deals} duplicate (signal vs greedy), cores: {os.cpu_count()}")
    print(f"load average before: {load:.2f}, after: {os.getloadavg()[0]:.2f}")
    for jobs in (1, 2):
        run = runs[jobs]
        print(
            f"{jobs} job{'s' if jobs > 1 else ''}: {deals / run['cpu']:.1f} deals per CPU "
            f"second, {run['cpu']:.2f} CPU s, {run['wall']:.2f} s wall"
        )
    print(f"ratio_vs_target: {deals / runs[1]['cpu'] / TARGET:.2f}")
    print(f"cpu_ratio_2_jobs: {cpu_ratio:.2f}")
    print(f"speedup_bound_2_jobs: {2 / cpu_ratio:.2f}")
    print(f"speedup_2_jobs: {runs[1]['wall'] / runs[2]['wall']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
