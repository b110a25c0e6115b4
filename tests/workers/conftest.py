"""Real workers on a real Redis: the task queue's tests that need more than one process.

They run only when ``TASK_BROKER_URL`` (or ``REDIS_URL``) names a Redis server, as in the
Redis section of ``.ci/run``; the site's also need PostgreSQL (a worker process shares the
test database). Each test flushes the Redis database it is given: use one of its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
#: A killed worker's chunk goes back to the queue after this many seconds without heartbeats;
#: the workers of these tests look for such chunks at every Redis command.
FAST_REQUEUE = {"TASK_HEARTBEAT_TIMEOUT": "2", "TASK_MAINTENANCE_CHANCE": "1000000"}


def redis_url() -> str:
    return os.environ.get("TASK_BROKER_URL") or os.environ.get("REDIS_URL") or ""


@pytest.fixture
def redis_client():
    url = redis_url()
    if not url:
        pytest.skip("set TASK_BROKER_URL (or REDIS_URL) to a Redis server to run real workers")
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis at {url}: {exc}")
    client.flushdb()
    yield client
    client.flushdb()


Start = Callable[..., subprocess.Popen]


@pytest.fixture
def start_process() -> Iterator[Start]:
    """``start(args, env=…, ready=text)``: a process in a session of its own (so a kill -9
    takes all of it), waited for until ``ready`` shows on its stderr; killed at the end."""
    started: list[subprocess.Popen] = []

    def start(args: list[str], *, env: dict[str, str], ready: str, timeout: float = 60):
        log = open(ROOT / "tests" / "workers" / f".worker-{len(started)}.log", "w+b")  # noqa: SIM115
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc.log = log  # type: ignore[attr-defined]
        started.append(proc)
        deadline = time.monotonic() + timeout
        while ready.encode() not in Path(log.name).read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(Path(log.name).read_text(errors="replace"))
            time.sleep(0.1)
        return proc

    yield start
    for proc in started:
        kill(proc, signal.SIGTERM)
        proc.log.close()  # type: ignore[attr-defined]
        Path(proc.log.name).unlink(missing_ok=True)  # type: ignore[attr-defined]


def kill(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Send ``sig`` to the process's whole session (a Dramatiq worker forks its processes)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def wait_for(condition: Callable[[], object], *, timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
