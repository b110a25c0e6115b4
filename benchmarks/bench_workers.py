"""Tournament chunks on worker processes over Redis: deals per second for 1, 2 and N workers.

Starts a throwaway ``redis-server`` (Debian's) on a free port of 127.0.0.1, then for each
worker count starts that many ``python -m engine.worker`` processes (one thread
each), sends the same seeded tournament through the queue (``engine.tournament.workers``,
what ``python -m engine tournament --workers URL`` does) and stops the workers; Redis is
stopped at the end. For each count it prints:

- ``deals/s``: deals per wall-clock second, start to merged result (the speed-up is bounded by
  the free cores: ``os.cpu_count()`` and the load average are printed too);
- ``CPU ms/deal``: the workers' CPU time per deal (each chunk's ``thread_time``), which stays
  flat as workers are added: splitting the work into chunks costs nothing per deal;
- that every count gave the same result (the identity the tests check).

::

    .venv/bin/python benchmarks/bench_workers.py [DEALS] [N]     # default 400 deals, N = cores
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 20261201
CHUNK = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("redis-server exited at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def _start_workers(url: str, count: int, logs: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(count):
        log = logs / f"worker-{count}-{i}.log"
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "engine.worker", url],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=log.open("wb"),
            )
        )
    deadline = time.monotonic() + 60
    for i, proc in enumerate(procs):
        log = logs / f"worker-{count}-{i}.log"
        while b"worker ready" not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(log.read_text(errors="replace"))
            time.sleep(0.05)
    return procs


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str]) -> int:
    if shutil.which("redis-server") is None:
        print("redis-server is not installed (Debian: apt-get install redis-server)")
        return 1
    from engine.tournament import PairSpec, TournamentSpec
    from engine.tournament.workers import redis_broker, run_on_workers

    deals = int(argv[1]) if len(argv) > 1 else 400
    most = int(argv[2]) if len(argv) > 2 else max(2, os.cpu_count() or 2)
    counts = sorted({1, 2, most})
    spec = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=deals, seed=SEED)
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
        redis = subprocess.Popen(
            [
                *("redis-server", "--bind", "127.0.0.1", "--port", str(port), "--dir", tmp),
                *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            _wait_port(port, redis)
            url = f"redis://127.0.0.1:{port}/0"
            print(f"deals: {deals} duplicate (signal vs greedy), chunks of {CHUNK}")
            print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
            results = {}
            for count in counts:
                workers = _start_workers(url, count, Path(tmp))
                broker = redis_broker(url)
                try:
                    wall0 = time.perf_counter()
                    result = run_on_workers(spec, broker, chunk=CHUNK)
                    wall = time.perf_counter() - wall0
                finally:
                    broker.close()
                    _stop(workers)
                figures = result.as_json()
                cpu_per_deal = 1000.0 / figures.pop("deals_per_cpu_s")
                results[count] = figures
                print(
                    f"{count} worker{'s' if count > 1 else ''}: {deals / wall:.1f} deals/s, "
                    f"{cpu_per_deal:.2f} CPU ms/deal, {wall:.2f} s wall"
                )
            same = all(r == results[counts[0]] for r in results.values())
            print(f"load average after: {os.getloadavg()[0]:.2f}")
            print(f"same result for {', '.join(map(str, counts))} workers: {same}")
            return 0 if same else 1
        finally:
            redis.terminate()
            redis.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
