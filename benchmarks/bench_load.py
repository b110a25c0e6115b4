"""Load: N concurrent signed-in learners each fetching a drill and answering it, for a set time.

Starts the app under gunicorn (``--workers``, default 4 sync workers) on a free loopback port,
on a throwaway SQLite database, or on the PostgreSQL database that ``DATABASE_URL`` names (its
tables are migrated and its bench users and their attempts are removed afterwards). Each
learner is signed in through a session made beforehand (so the run measures drills, not
password hashing), then loops: GET ``/drills/lead/``, POST an answer to it. Learners are
threads spread over a few client processes so that the client is not the bottleneck.

For each number of learners it prints requests/s, p50/p95 latency, errors by status and
**answers posted vs attempts stored** (every answer that got a 200 must be stored exactly once;
``lost`` counts the ones that were not, ``errors`` the posts that got no 200). The last line is
one JSON object with every figure.

    python benchmarks/bench_load.py [--learners 20 100] [--seconds 15] [--workers 4]
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
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
USER_PREFIX = "bench-load-"

SETUP = """
import json, os
from django.contrib.auth import get_user_model, HASH_SESSION_KEY, SESSION_KEY, BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from trainer.progress.models import Attempt
User = get_user_model()
count = int(os.environ["BENCH_LEARNERS"])
User.objects.filter(username__startswith=PREFIX).delete()
keys = []
for i in range(count):
    user = User.objects.create_user(f"{PREFIX}{i}", password=None)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    keys.append(store.session_key)
print(json.dumps(keys))
"""

COUNT = """
from trainer.progress.models import Attempt
print(Attempt.objects.filter(user__username__startswith=PREFIX).count())
"""

CLEANUP = """
from django.contrib.auth import get_user_model
get_user_model().objects.filter(username__startswith=PREFIX).delete()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP client with a cookie jar (enough for Django sessions and CSRF)."""

    def __init__(self, port: int, session_key: str = "") -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {"sessionid": session_key} if session_key else {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = "http://127.0.0.1/"
            if "csrftoken" in self.cookies:
                headers["X-CSRFToken"] = self.cookies["csrftoken"]
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return 0, ""  # status 0: the connection failed
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return response.status, text


def answer_form(page: str) -> tuple[str, dict[str, str]] | None:
    action = re.search(r'<form method="post" action="(/drills/[^"]+)"', page)
    showing = re.search(r'name="showing" value="([^"]+)"', page)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    cards = re.findall(r'name="c1" value="([^"]+)"', page)
    if not (action and showing and token and len(cards) >= 2):
        return None
    return action[1].replace("&amp;", "&"), {
        "showing": showing[1],
        "csrfmiddlewaretoken": token[1],
        "c1": cards[0],
        "c2": cards[1],
    }


def learn(port: int, keys: list[str], seconds: float, queue) -> None:
    """Run one thread per session key for ``seconds``; put this process's figures on queue."""
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    posted = Counter()
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def learner(key: str) -> None:
        client = Client(port, key)
        mine: list[float] = []
        status_mine: Counter[str] = Counter()
        post_mine: Counter[str] = Counter()
        while time.perf_counter() < stop:
            t = time.perf_counter()
            status, page = client.request("GET", "/drills/lead/")
            mine.append(time.perf_counter() - t)
            status_mine[f"GET {status}"] += 1
            form = answer_form(page) if status == 200 else None
            if form is None:
                continue
            t = time.perf_counter()
            status, _ = client.request("POST", *form)
            mine.append(time.perf_counter() - t)
            status_mine[f"POST {status}"] += 1
            post_mine["sent"] += 1
            post_mine["ok" if status == 200 else "failed"] += 1
        with lock:
            latencies.extend(mine)
            statuses.update(status_mine)
            posted.update(post_mine)

    threads = [threading.Thread(target=learner, args=(k,)) for k in keys]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put({"latencies": latencies, "statuses": dict(statuses), "posted": dict(posted)})


def manage(env: dict[str, str], *args: str, script: str = "", extra: str = "") -> str:
    cmd = [PY, str(ROOT / "manage.py"), *args]
    if script:
        cmd += ["shell", "-c", f"PREFIX = {USER_PREFIX!r}\n" + script]
    env = {**env, "BENCH_LEARNERS": extra}
    out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{' '.join(args) or 'shell'} failed:\n{out.stdout}{out.stderr}")
    return out.stdout


def run_scenario(
    env: dict[str, str], learners: int, seconds: float, workers: int, processes: int
) -> dict[str, object]:
    keys = json.loads(manage(env, script=SETUP, extra=str(learners)).strip().splitlines()[-1])
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
            str(workers),
            "--log-level",
            "warning",
            "--backlog",
            "2048",
            "--timeout",
            "60",
        ],
        env=env,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    stderr_lines: list[str] = []
    reader = threading.Thread(target=lambda: stderr_lines.extend(server.stderr), daemon=True)
    reader.start()
    try:
        deadline = time.time() + 60
        while Client(port).request("GET", "/healthz")[0] != 200:
            if time.time() > deadline or server.poll() is not None:
                raise SystemExit("gunicorn did not start:\n" + "".join(stderr_lines))
            time.sleep(0.2)
        queue: multiprocessing.Queue = multiprocessing.Queue()
        procs = max(1, min(processes, learners))
        chunks = [keys[i::procs] for i in range(procs)]
        children = [
            multiprocessing.Process(target=learn, args=(port, chunk, seconds, queue))
            for chunk in chunks
        ]
        started = time.perf_counter()
        for child in children:
            child.start()
        parts = [queue.get(timeout=seconds * 4 + 120) for _ in children]
        elapsed = time.perf_counter() - started
        for child in children:
            child.join()
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = sorted(x for p in parts for x in p["latencies"])
    statuses: Counter[str] = Counter()
    posted: Counter[str] = Counter()
    for p in parts:
        statuses.update(p["statuses"])
        posted.update(p["posted"])
    stored = int(manage(env, script=COUNT).strip().splitlines()[-1])
    errors = {k: v for k, v in sorted(statuses.items()) if not k.endswith(" 200")}
    server_errors = [line for line in stderr_lines if "Error" in line or "error" in line]
    return {
        "learners": learners,
        "requests": len(latencies),
        "rps": len(latencies) / elapsed if elapsed else 0.0,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else 0.0,
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))] if latencies else 0.0,
        "errors": errors,
        "posted": posted.get("sent", 0),
        "posted_ok": posted.get("ok", 0),
        "stored": stored,
        "lost": max(0, posted.get("ok", 0) - stored),
        "server_error_lines": len(server_errors),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--processes",
        type=int,
        default=4,
        help="client processes the learners' threads are spread over",
    )
    args = parser.parse_args()

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": "bench-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_ROOT": f"{tmp}/static",
            "TRUSTED_PROXY_COUNT": "0",
        }
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if not os.environ.get("DATABASE_URL"):
            env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        database = env["DATABASE_URL"].split(":", 1)[0]
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "createcachetable")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        try:
            for n in args.learners:
                results.append(
                    {
                        "database": database,
                        **run_scenario(env, n, args.seconds, args.workers, args.processes),
                    }
                )
        finally:
            manage(env, script=CLEANUP)

    print(f"seconds per run: {args.seconds}, gunicorn workers: {args.workers}")
    print(
        "| learners | database | req/s | p50 ms | p95 ms | errors | posted | answered 200 "
        "| stored | lost |"
    )
    print("| ---: | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for r in results:
        errors = ", ".join(f"{k}: {v}" for k, v in r["errors"].items()) or "0"
        print(
            f"| {r['learners']} | {r['database']} | {r['rps']:.1f} | {r['p50_ms']:.0f} "
            f"| {r['p95_ms']:.0f} | {errors} | {r['posted']} | {r['posted_ok']} "
            f"| {r['stored']} | {r['lost']} |"
        )
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
