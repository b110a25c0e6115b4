"""The bot ladder: every bot against ``greedy`` on the same duplicate deals, both scoring rules.

Prints a Markdown table (the one in README.md, *The bot ladder*) and, with ``--json``, one JSON
line per tournament. Each row is ``python -m engine tournament --ns BOT --ew greedy``::

    .venv/bin/python scripts/ladder.py --deals 10000 --open-deals 10000 --jobs 2 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tournament import PairSpec, TournamentSpec, run_tournament

LADDER = [
    ("random", None),
    ("greedy", None),
    ("signal", "parlett-2008"),
    ("signal", "teach-yourself-1994"),
    ("open", None),
]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=10000, help="duplicate deals per row")
    p.add_argument(
        "--open-deals",
        type=int,
        default=None,
        help="deals for the open row (it solves par every hand; default --deals)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--rules", nargs="+", default=["classic", "contribution"])
    p.add_argument("--json", action="store_true", help="also print each result as JSON")
    ns = p.parse_args(argv[1:])
    rows = []
    for rule in ns.rules:
        for bot, conv in LADDER:
            deals = ns.open_deals if bot == "open" and ns.open_deals else ns.deals
            spec = TournamentSpec(PairSpec(bot, conv), PairSpec("greedy"), deals, ns.seed, rule)
            start = time.perf_counter()
            result = run_tournament(spec, jobs=ns.jobs, progress=sys.stderr.isatty())
            elapsed = time.perf_counter() - start
            if ns.json:
                print(json.dumps(result.as_json()))
            name = bot + (f" ({conv})" if conv else "")
            rows.append((rule, name, result, elapsed))
            print(
                f"{rule} {name}: {result.diff:+.2f} [{result.ci95[0]:+.2f}, "
                f"{result.ci95[1]:+.2f}] in {elapsed:.0f} s",
                file=sys.stderr,
            )
    print(
        "| Rule | Bot (NS) vs greedy | Deals | Points per deal | Greedy's | Difference "
        "(95% CI) | Hands | Left-over bonus | Reading right | Completed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rule, name, r, _ in rows:
        sig = r.signals["NS"]
        right, done = sig["first_reading_right"], sig["completed"]
        read = f"{right:.0%}" if right is not None else "–"
        done = f"{done:.0%}" if done is not None else "–"
        print(
            f"| {rule} | {name} | {r.deals} | {r.mean_per_deal['NS']:.2f} | "
            f"{r.mean_per_deal['EW']:.2f} | {r.diff:+.2f} ({r.ci95[0]:+.2f} to "
            f"{r.ci95[1]:+.2f}) | {r.hand_score_mean['NS']:.2f} vs "
            f"{r.hand_score_mean['EW']:.2f} | {r.leftover_mean['NS']:.2f} vs "
            f"{r.leftover_mean['EW']:.2f} | {read} | {done} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
