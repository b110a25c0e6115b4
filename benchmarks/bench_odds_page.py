"""CPU time of a read or reply drill's answer with its odds panel, against a plain drill page.

Run: ``.venv/bin/python benchmarks/bench_odds_page.py [--drills 30] [--kinds read reply]``.

In-process, with Django's test client, on a throwaway SQLite database (migrated here) and the
default (database) cache, as a signed-in learner. For each drill address (``/drills/<kind>/<seed>/
?v=2``, seeds 0..N-1) it times, with ``time.process_time``:

- ``GET``: the plain drill page (built and rendered);
- ``POST``: the answer (an option of the drill) — graded, the attempt written, and the odds
  chart of partner's signal (``trainer.core.game.odds.odds_for_drill``) computed, as the first
  learner to answer this drill makes it;
- ``POST again``: the same answer posted again, the odds now read from the cache.

Prints the medians (and the answers' means and maxima) and, as the last lines,
``ratio_answer_vs_page`` (median answer POST / median drill GET; the target is at most 3) per
kind and overall, the ratio of the means, and the median ratio for the second POST.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET = 3.0


def setup(directory: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(directory) / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "concerto_site.settings")
    os.environ.pop("CACHE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host is allowed, mail stays in memory
    logging.disable(logging.INFO)  # no sign-in chatter

    call_command("migrate", verbosity=0, interactive=False)


def showing_of(html: str) -> str:
    found = re.search(r'name="showing" value="([^"]+)"', html)
    if not found:
        raise SystemExit("no answer form on the drill page")
    return found[1]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--drills", type=int, default=30, help="drills of each kind (30)")
    parser.add_argument("--kinds", nargs="+", default=["read", "reply"])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        setup(directory)
        from django.contrib.auth import get_user_model
        from django.test import Client

        from engine.drills import DrillParams, make_drill
        from engine.signals import CONVENTIONS
        from engine.signals.decoder import readings_table
        from engine.signals.lead_filter import first_item

        for conv in CONVENTIONS.values():  # tables built once per process
            readings_table(conv)
            first_item(0, conv.checklist)
        user = get_user_model().objects.create_user("bench-odds", password="pass-word-123")
        client = Client()
        client.force_login(user)
        client.get("/drills/")  # warm the templates
        figures: dict[str, dict[str, list[float]]] = {}
        for kind in args.kinds:
            rows = figures[kind] = {"get": [], "post": [], "again": []}
            for seed in range(args.drills):
                drill = make_drill(kind, seed, DrillParams())
                url = f"/drills/{kind}/{seed}/?v=2"
                start = time.process_time()
                response = client.get(url)
                rows["get"].append(time.process_time() - start)
                if response.status_code != 200:
                    raise SystemExit(f"{url}: {response.status_code}")
                data = {
                    "showing": showing_of(response.content.decode()),
                    "option": drill.options[0].key,
                }
                times = []
                for _ in range(2):
                    start = time.process_time()
                    answer = client.post(url, data)
                    times.append(time.process_time() - start)
                    if answer.status_code != 200 or b"odds-chart" not in answer.content:
                        raise SystemExit(f"{url}: answer {answer.status_code}, no odds chart")
                rows["post"].append(times[0])
                rows["again"].append(times[1])
        all_rows: dict[str, list[float]] = {"get": [], "post": [], "again": []}
        for kind, rows in figures.items():
            for name, values in rows.items():
                all_rows[name] += values
            get, post, again = (statistics.median(rows[n]) * 1000 for n in ("get", "post", "again"))
            print(
                f"{kind:6} drills {len(rows['get']):3}  GET page {get:6.1f} ms  "
                f"POST answer {post:6.1f} ms (mean {statistics.mean(rows['post']) * 1000:5.1f}, "
                f"max {max(rows['post']) * 1000:6.1f})  POST again {again:6.1f} ms"
            )
        get, post, again = (statistics.median(all_rows[n]) * 1000 for n in ("get", "post", "again"))
        print(
            f"all    drills {len(all_rows['get']):3}  GET page {get:6.1f} ms  "
            f"POST answer {post:6.1f} ms  POST again {again:6.1f} ms"
        )
        for kind, rows in figures.items():
            ratio = statistics.median(rows["post"]) / statistics.median(rows["get"])
            print(f"ratio_answer_vs_page_{kind}: {ratio:.2f}")
        mean_ratio = statistics.mean(all_rows["post"]) / statistics.mean(all_rows["get"])
        print(f"ratio_answer_vs_page_of_means: {mean_ratio:.2f}")
        print(f"ratio_answer_again_vs_page: {again / get:.2f}")
        print(f"ratio_answer_vs_page: {post / get:.2f}  (target <= {TARGET:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
