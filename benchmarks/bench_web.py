"""Web latency: a drill page against a trivial page, under gunicorn on SQLite.

Starts the app under gunicorn on a free loopback port with a throwaway SQLite database, then a
second process drives it with a bounded number of concurrent clients for a bounded time:

- ``bare``: GET /healthz, a view with no session or template (one database and one cache
  round trip: it checks both);
- ``trivial``: GET /accounts/login/ as a signed-in user, a page with no logic of its own that
  goes through the same stack as a drill (session, user, CSRF, the site layout);
- ``drill GET``: GET /drills/lead/ (a fresh lead drill, built and rendered);
- ``drill POST``: answer that drill as a signed-in user (graded, attempt and schedule written);
- ``play POST``: a learner's action at the table (``/play/<id>/act/``, as htmx posts it): the
  table rebuilt from its record, the action checked and applied, every bot turn until the
  learner's next turn, the row written, the table area rendered. Each client plays whole deals.

Prints p50/p95 latency and requests/s for each, then ``ratio_drill_vs_bare`` (against
/healthz), ``ratio_drill_vs_trivial`` (drill GET p50 / trivial page p50; the target is at most
2) and, as its last line, ``ratio_play_vs_trivial`` (play POST p50 / trivial page p50; the
target is at most 2). The play scenario requests the trivial page after each of its posts, and
its ratio is taken against those (``trivial (paired)``): on a shared machine the load changes
between scenarios, and a ratio of two figures measured at different moments mostly measures
that change (``ratio_play_vs_trivial_run`` is the unpaired figure).

    python benchmarks/bench_web.py [--clients 4] [--seconds 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
USER, PASSWORD = "bench-user", "bench-password-123"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP client with a cookie jar (enough for Django sessions and CSRF)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.location = ""

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        extra: dict[str, str] | None = None,
    ) -> str:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers.update(extra or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = "http://127.0.0.1/"
            if "csrftoken" in self.cookies:
                headers["X-CSRFToken"] = self.cookies["csrftoken"]
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode()
        self.location = response.getheader("Location") or ""
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        if response.status >= 400:
            raise RuntimeError(f"{method} {path} -> {response.status}: {text[:200]}")
        return text

    def login(self) -> None:
        page = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        self.request(
            "POST",
            "/accounts/login/",
            {"username": USER, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )


def answer_form(page: str) -> tuple[str, dict[str, str]]:
    # The drill's own form (the first form on the page is the header's logout form).
    action = re.search(r'<form method="post" action="(/drills/[^"]+)"', page)[1]
    action = action.replace("&amp;", "&")
    showing = re.search(r'name="showing" value="([^"]+)"', page)[1]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    cards = re.findall(r'name="c1" value="([^"]+)"', page)
    return action, {
        "showing": showing,
        "csrfmiddlewaretoken": token,
        "c1": cards[0],
        "c2": cards[1],
    }


def drive(port: int, clients: int, seconds: float) -> dict[str, dict[str, float]]:
    """Run each scenario with ``clients`` threads for ``seconds``; returns the figures."""
    results: dict[str, dict[str, float]] = {}

    def run(name: str, step) -> None:
        latencies: list[float] = []
        lock = threading.Lock()
        stop = time.perf_counter() + seconds

        def worker() -> None:
            client = Client(port)
            client.login()
            mine = []
            while time.perf_counter() < stop:
                mine.extend(step(client))
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=worker) for _ in range(clients)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        latencies.sort()
        results[name] = {
            "requests": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies),
            "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
            "rps": len(latencies) / elapsed,
        }

    def bare(client: Client) -> list[float]:
        t = time.perf_counter()
        client.request("GET", "/healthz")
        return [time.perf_counter() - t]

    def trivial(client: Client) -> list[float]:
        t = time.perf_counter()
        client.request("GET", "/accounts/login/")
        return [time.perf_counter() - t]

    def drill_get(client: Client) -> list[float]:
        t = time.perf_counter()
        client.request("GET", "/drills/lead/")
        return [time.perf_counter() - t]

    def drill_post(client: Client) -> list[float]:
        action, form = answer_form(client.request("GET", "/drills/lead/"))
        t = time.perf_counter()
        client.request("POST", action, form)
        return [time.perf_counter() - t]

    paired: list[float] = []
    paired_lock = threading.Lock()

    def play_post(client: Client) -> list[float]:
        """One whole deal: each learner action (with the bots' replies) timed."""
        page = client.request("GET", "/play/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        start = {
            "csrfmiddlewaretoken": token,
            "convention": "parlett-2008",
            "rule": "classic",
            "opponents": "greedy",
            "partner": "strong",  # the start form's default
            "length": "deal",
            "coach": "on",
        }
        client.request("POST", "/play/", start)
        table_url = client.location.split("?")[0]
        page = client.request("GET", table_url)
        timings = []
        while 'data-action="' in page:
            version = re.search(r'data-version="(\d+)"', page)[1]
            action = re.search(r'data-action="([^"]+)"', page)[1]
            t = time.perf_counter()
            page = client.request(
                "POST",
                table_url + "act/",
                {"action": action, "version": version},
                {"HX-Request": "true"},
            )
            timings.append(time.perf_counter() - t)
            # The trivial page again, in the same moment: the machine's load is shared.
            t = time.perf_counter()
            client.request("GET", "/accounts/login/")
            with paired_lock:
                paired.append(time.perf_counter() - t)
        return timings

    run("bare", bare)
    run("trivial", trivial)
    run("drill GET", drill_get)
    run("drill POST", drill_post)
    run("play POST", play_post)
    paired.sort()
    results["trivial (paired)"] = {
        "requests": len(paired),
        "p50_ms": 1000 * statistics.median(paired),
        "p95_ms": 1000 * paired[int(0.95 * (len(paired) - 1))],
        "rps": 0.0,
    }
    return results


def _drive_in_child(port: int, clients: int, seconds: float, queue) -> None:
    queue.put(drive(port, clients, seconds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
            "DEBUG": "0",
            "SECRET_KEY": "bench-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_ROOT": f"{tmp}/static",
        }
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        manage = [PY, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT)
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT
        )
        subprocess.run(
            [
                *manage,
                "shell",
                "-c",
                "from django.contrib.auth import get_user_model as g; "
                f"g().objects.create_user({USER!r}, password={PASSWORD!r})",
            ],
            env=env,
            check=True,
            cwd=ROOT,
        )
        port = free_port()
        server = subprocess.Popen(
            [
                PY,
                "-m",
                "gunicorn",
                "concerto_site.wsgi",
                "-b",
                f"127.0.0.1:{port}",
                "-w",
                str(args.workers),
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=ROOT,
        )
        try:
            deadline = time.time() + 30
            while True:
                try:
                    Client(port).request("GET", "/healthz")
                    break
                except (OSError, RuntimeError):
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("gunicorn did not start") from None
                    time.sleep(0.2)
            queue: multiprocessing.Queue = multiprocessing.Queue()
            child = multiprocessing.Process(
                target=_drive_in_child, args=(port, args.clients, args.seconds, queue)
            )
            child.start()
            results = queue.get(timeout=args.seconds * 3 + 120)
            child.join()
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(
        f"clients: {args.clients}, seconds per scenario: {args.seconds}, "
        f"gunicorn workers: {args.workers}"
    )
    for name, r in results.items():
        print(
            f"{name:>16}: p50 {r['p50_ms']:7.2f} ms  p95 {r['p95_ms']:7.2f} ms  "
            f"{r['rps']:8.1f} req/s  ({int(r['requests'])} requests)"
        )
    print(json.dumps(results))
    drill = results["drill GET"]["p50_ms"]
    print(f"ratio_drill_vs_bare: {drill / results['bare']['p50_ms']:.2f}")
    print(f"ratio_drill_vs_trivial: {drill / results['trivial']['p50_ms']:.2f}")
    play = results["play POST"]["p50_ms"]
    print(f"ratio_play_vs_trivial_run: {play / results['trivial']['p50_ms']:.2f}")
    # Against the trivial page requested between the play posts (same load, same moment).
    print(f"ratio_play_vs_trivial: {play / results['trivial (paired)']['p50_ms']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
