"""The bot ladder: every bot against ``greedy`` on the same duplicate deals, both scoring rules.

Prints a Markdown table (the one in docs/bot-ladder.md, *The ladder*) and, with ``--json``, one JSON
line per tournament. Each row is ``python -m engine tournament --ns BOT --ew greedy``::

    .venv/bin/python scripts/ladder.py --deals 10000 --jobs 2 --seed 1

Rows are independent seeded tournaments, so a long run can be split and put back together:
``--rows open --save FILE`` runs some rows and appends their results to FILE (one JSON line
each); ``--table FILE ...`` prints the table from saved rows without playing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tournament import PairSpec, TournamentSpec, run_tournament

#: (row name, bot, convention), weakest first.
LADDER = [
    ("random", "random", None),
    ("greedy", "greedy", None),
    ("beginner-2008", "beginner", "parlett-2008"),
    ("beginner-1994", "beginner", "teach-yourself-1994"),
    ("signal-2008", "signal", "parlett-2008"),
    ("signal-1994", "signal", "teach-yourself-1994"),
    ("strong-2008", "strong", "parlett-2008"),
    ("strong-1994", "strong", "teach-yourself-1994"),
    ("open", "open", None),
]
ROW_NAMES = [name for name, _, _ in LADDER]


def _play(ns: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for rule in ns.rules:
        for row, bot, conv in LADDER:
            if row not in ns.rows:
                continue
            deals = ns.open_deals if bot == "open" and ns.open_deals else ns.deals
            spec = TournamentSpec(PairSpec(bot, conv), PairSpec("greedy"), deals, ns.seed, rule)
            start = time.perf_counter()
            result = run_tournament(spec, jobs=ns.jobs, progress=sys.stderr.isatty())
            elapsed = time.perf_counter() - start
            line: dict[str, Any] = {"row": row, "name": bot + (f" ({conv})" if conv else "")}
            line |= {"elapsed_s": round(elapsed, 1), "result": result.as_json()}
            if ns.json:
                print(json.dumps(result.as_json()))
            if ns.save:
                with open(ns.save, "a", encoding="utf-8") as out:
                    out.write(json.dumps(line) + "\n")
            r = result
            print(
                f"{rule} {line['name']}: {r.diff:+.2f} [{r.ci95[0]:+.2f}, {r.ci95[1]:+.2f}] "
                f"in {elapsed:.0f} s ({r.deals_per_cpu_s:.1f} deals per CPU second)",
                file=sys.stderr,
                flush=True,
            )
            rows.append(line)
    return rows


def _table(rows: list[dict[str, Any]]) -> str:
    order = {
        (rule, row): i
        for i, (rule, row) in enumerate(
            (rule, row) for rule in ("classic", "contribution") for row in ROW_NAMES
        )
    }
    rows = sorted(rows, key=lambda x: order.get((x["result"]["rule"], x["row"]), len(order)))
    out = [
        "| Rule | Bot (NS) vs greedy | Deals | Points per deal | Greedy's | Difference "
        "(95% CI) | Hands | Left-over bonus | Reading right | Completed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for x in rows:
        r = x["result"]
        sig = r["signals"]["NS"]
        right, done = sig["first_reading_right"], sig["completed"]
        read = f"{right:.0%}" if right is not None else "–"
        done = f"{done:.0%}" if done is not None else "–"
        mean, hands, left = r["mean_per_deal"], r["hand_score_mean"], r["leftover_mean"]
        lo, hi = r["ci95"]
        out.append(
            f"| {r['rule']} | {x['name']} | {r['deals']} | {mean['NS']:.2f} | {mean['EW']:.2f} | "
            f"{r['diff']:+.2f} ({lo:+.2f} to {hi:+.2f}) | {hands['NS']:.2f} vs "
            f"{hands['EW']:.2f} | {left['NS']:.2f} vs {left['EW']:.2f} | {read} | {done} |"
        )
    return "\n".join(out)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=10000, help="duplicate deals per row")
    p.add_argument(
        "--open-deals", type=int, default=None, help="deals for the open rows (default --deals)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--rules", nargs="+", default=["classic", "contribution"])
    p.add_argument("--rows", nargs="+", choices=ROW_NAMES, default=ROW_NAMES)
    p.add_argument("--save", help="append each row's result to this file (JSON lines)")
    p.add_argument("--table", nargs="+", metavar="FILE", help="print the table of saved rows")
    p.add_argument("--json", action="store_true", help="also print each result as JSON")
    ns = p.parse_args(argv[1:])
    if ns.table:
        rows = [
            json.loads(line)
            for name in ns.table
            for line in Path(name).read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    else:
        rows = _play(ns)
    print(_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
