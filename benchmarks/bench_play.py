"""Time what the web does on each learner action: rebuild the table from its record
(:meth:`PlayTable.replay`), apply the action and let the bots answer (:meth:`PlayTable.act`),
then build the view. CPU time per request, over fresh deals (the bots' memo tables see new hands)::

    $ .venv/bin/python benchmarks/bench_play.py --deals 40 --opponents signal
    $ .venv/bin/python benchmarks/bench_play.py --deals 40 --south signal --partner strong

The web's target (a learner's action and the bots' turns within 2x the trivial page's p50) is
checked by ``benchmarks/bench_web.py``; this script shows the engine's share of it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import SignalBot
from engine.bots.signal import STANDARD
from engine.play.coach import coach_lead, coach_read
from engine.play.setup import LEARNER, OPPONENTS, PARTNERS, PlaySetup
from engine.play.table import PlayTable

__all__ = ["main", "measure"]


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(
    deals: int,
    opponents: str,
    *,
    coach: bool = False,
    south: str = "random",
    game: bool = False,
    seed: int = 1,
    partner: str = STANDARD,
) -> dict[str, float]:
    """Milliseconds of CPU per learner action (replay + act + view [+ coach]) over ``deals``
    deals (or games), South choosing at random or as the signal bot would (``south``)."""
    rng = random.Random(seed)
    bot = SignalBot()
    times: list[float] = []
    replays: list[float] = []
    for n in range(deals):
        setup = PlaySetup(seed=seed * 100_000 + n, opponents=opponents, game=game, partner=partner)
        table, _ = PlayTable.start(setup)
        actions = table.actions
        while not table.is_over():
            start = time.process_time()
            table = PlayTable.replay(setup, actions)
            replayed = time.process_time()
            if south == "signal":
                obs = table.deal.observation(LEARNER)
                table.act(bot.choose(obs, obs.legal_actions))
            else:
                table.act(rng.choice(table.legal()))
            table.view()
            if coach:
                coach_lead(table)
                coach_read(table)
            times.append(1000 * (time.process_time() - start))
            replays.append(1000 * (replayed - start))
            actions = table.actions
    return {
        "requests": len(times),
        "p50_ms": statistics.median(times),
        "p95_ms": _quantile(times, 0.95),
        "max_ms": max(times),
        "replay_p50_ms": statistics.median(replays),
        "replay_max_ms": max(replays),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--opponents", choices=OPPONENTS, default="greedy")
    parser.add_argument("--coach", action="store_true", help="also ask the coach each time")
    parser.add_argument("--south", choices=("random", "signal"), default="random")
    parser.add_argument("--game", action="store_true", help="whole games instead of deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partner", choices=PARTNERS, default=STANDARD, help="North's strength")
    ns = parser.parse_args(argv)
    result = measure(
        ns.deals,
        ns.opponents,
        coach=ns.coach,
        south=ns.south,
        game=ns.game,
        seed=ns.seed,
        partner=ns.partner,
    )
    print(
        " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items())
    )


if __name__ == "__main__":
    main()
