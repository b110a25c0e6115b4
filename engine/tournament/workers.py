"""Tournaments on workers: the seeded chunks of a tournament sent through a task queue to any
number of worker processes on any number of machines, and merged into exactly the result one
process gives.

The queue is Dramatiq's: over Redis for real (its broker acknowledges a chunk only once it is
played, and gives the chunks of a worker that stopped sending heartbeats to the others), or in
process for tests (:func:`stub_broker`). The chunks' results come back through Dramatiq's
result store in the same Redis. Nothing here imports Django: a worker is only the engine::

    $ python -m engine.worker redis://queue.example.org:6379/0        # each machine
    $ python -m engine tournament --deals 10000 --workers redis://queue.example.org:6379/0

A chunk's message carries the whole spec (:meth:`TournamentSpec.to_json`, a club's card as its
JSON), so a worker needs no file and no database.

>>> from engine.tournament import run_tournament
>>> broker = stub_broker()
>>> spec = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=6, seed=3)
>>> with stub_worker(broker, threads=2):
...     on_workers = run_on_workers(spec, broker, chunk=2)
>>> on_workers.diff == run_tournament(spec).diff
True
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dramatiq
from dramatiq.results import ResultTimeout

from engine.task_queue import HEARTBEAT_TIMEOUT, MAINTENANCE_CHANCE, make_broker
from engine.tournament import (
    BoardResult,
    PairSpec,  # noqa: F401  (the doctest's)
    TournamentResult,
    TournamentSpec,
    plan_chunks,
    play_boards,
    summarise,
)

__all__ = [
    "ACTOR_NAME",
    "CHUNK",
    "QUEUE",
    "WorkersTimeoutError",
    "chunk_actor",
    "declare_actor",
    "play_chunk",
    "redis_broker",
    "run_on_workers",
    "run_worker",
    "stub_broker",
    "stub_worker",
]

#: The queue the chunks go through, and the actor that plays one.
QUEUE = "concerto-tournament"
ACTOR_NAME = "concerto_tournament_chunk"
#: Boards per chunk unless told: small enough to spread, big enough to keep the messages few.
CHUNK = 25
#: A chunk is retried this many times when it raises (a worker killed is not a failure: its
#: chunk is simply handed out again).
MAX_RETRIES = 3
#: Longest a chunk may take (ms) before Dramatiq interrupts it.
TIME_LIMIT = 6 * 3600 * 1000


class WorkersTimeoutError(RuntimeError):
    """No chunk came back for too long: are workers running on that queue?"""


def redis_broker(
    url: str,
    *,
    heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
    maintenance_chance: int = MAINTENANCE_CHANCE,
) -> dramatiq.Broker:
    """Dramatiq's Redis broker at ``url`` (``redis://host:port/db``) with its result store in
    the same Redis, and the tournament's actor declared on it."""
    broker = make_broker(
        url,
        heartbeat_timeout=heartbeat_timeout,
        maintenance_chance=maintenance_chance,
        results=True,
    )
    chunk_actor(broker)
    return broker


def stub_broker() -> dramatiq.Broker:
    """An in-process broker (Dramatiq's ``StubBroker``) with an in-memory result store: the
    same chunks and results, for tests and one machine without Redis."""
    broker = make_broker(None, results=True)
    chunk_actor(broker)
    return broker


def play_chunk(
    spec_json: dict[str, Any], start: int, stop: int, records: bool = False, par: bool = False
) -> dict[str, Any]:
    """Play one chunk: ``{"start", "stop", "cpu", "boards": [BoardResult JSON…]}``, ``cpu``
    being the CPU seconds this thread spent on it."""
    spec = TournamentSpec.from_json(spec_json)
    cpu0 = time.thread_time()
    boards = play_boards(spec, start, stop, records=records, par=par)
    return {
        "start": start,
        "stop": stop,
        "cpu": time.thread_time() - cpu0,
        "boards": [board.to_json() for board in boards],
    }


_DECLARE = threading.Lock()


def chunk_actor(broker: dramatiq.Broker) -> dramatiq.Actor[Any, Any]:
    """The actor that plays a chunk, declared on ``broker`` (once)."""
    return declare_actor(broker, play_chunk, ACTOR_NAME)


def declare_actor(broker: dramatiq.Broker, fn: Any, name: str) -> dramatiq.Actor[Any, Any]:
    """``fn`` as the actor ``name`` on the tournament's queue of ``broker``, declared once:
    its result stored, retried :data:`MAX_RETRIES` times, stopped after :data:`TIME_LIMIT`."""
    with _DECLARE:
        if name in broker.get_declared_actors():
            found: dramatiq.Actor[Any, Any] = broker.get_actor(name)
            return found
        return dramatiq.Actor(
            fn,
            broker=broker,
            actor_name=name,
            queue_name=QUEUE,
            priority=0,
            options={
                "store_results": True,
                "max_retries": MAX_RETRIES,
                "min_backoff": 1000,
                "time_limit": TIME_LIMIT,
            },
        )


def run_on_workers(
    spec: TournamentSpec,
    broker: dramatiq.Broker,
    *,
    chunk: int = CHUNK,
    records_path: str | None = None,
    progress: bool = False,
    par: bool = False,
    timeout: float = 600.0,
) -> TournamentResult:
    """Play ``spec`` on the workers of ``broker``: one message per chunk, the results merged
    by :func:`~engine.tournament.summarise` (the same as :func:`run_tournament` for any
    number of workers; ``deals_per_cpu_s`` counts the workers' CPU time).

    Raises :class:`WorkersTimeoutError` when no chunk comes back for ``timeout`` seconds, and
    Dramatiq's ``ResultFailure`` when a chunk failed on every try.
    """
    if spec.deals < 1:
        raise ValueError(f"deals must be at least 1, not {spec.deals}")
    actor = chunk_actor(broker)
    spec_json = spec.to_json()
    want_records = records_path is not None
    messages = [
        actor.send(spec_json, start, stop, want_records, par)
        for start, stop in plan_chunks(spec, chunk)
    ]
    results = broker.get_results_backend()
    bar = _progress_bar(spec.deals) if progress else None
    boards: list[BoardResult] = []
    cpu = 0.0
    sink = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    try:
        for message in messages:
            waited_since = time.monotonic()
            while True:
                try:
                    done: dict[str, Any] = results.get_result(message, block=True, timeout=2000)
                    break
                except ResultTimeout:
                    if time.monotonic() - waited_since > timeout:
                        raise WorkersTimeoutError(
                            f"no chunk came back in {timeout:g} s: is a worker running "
                            f"(python -m engine.worker URL)?"
                        ) from None
            chunk_boards = [BoardResult.from_json(b) for b in done["boards"]]
            cpu += float(done["cpu"])
            boards.extend(chunk_boards)
            if sink is not None:
                for board in chunk_boards:
                    for line in board.records:
                        sink.write(line + "\n")
            if bar is not None:
                bar.update(len(chunk_boards))
    finally:
        if sink is not None:
            sink.close()
        if bar is not None:
            bar.close()
    return summarise(spec, boards, cpu_seconds=cpu, par=par)


def _progress_bar(total: int) -> Any:
    try:  # the optional ``sim`` extra
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return None
    return tqdm(total=total, file=sys.stderr, unit="deal", disable=None)


@contextmanager
def stub_worker(broker: dramatiq.Broker, *, threads: int = 1) -> Iterator[dramatiq.Worker]:
    """A Dramatiq worker with ``threads`` threads in this process, for the block's length."""
    worker = dramatiq.Worker(broker, queues={QUEUE}, worker_threads=threads, worker_timeout=100)
    worker.queue_prefetch = 1
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


def run_worker(
    url: str,
    *,
    threads: int = 1,
    heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
    maintenance_chance: int = MAINTENANCE_CHANCE,
    ready: Any = None,
    stop: threading.Event | None = None,
    actors: tuple[Any, ...] = (),
) -> None:
    """Play chunks from the queue at ``url`` until ``stop`` is set (or forever). ``actors``
    declare the other actors on the same queue (a duplicate session's chunks:
    :func:`engine.duplicate.workers.session_actor`).

    One thread plays one chunk at a time (the play is pure Python: run a worker per core, each
    with one thread). A chunk is taken one at a time, so idle workers on other machines get
    the rest.
    """
    broker = redis_broker(
        url, heartbeat_timeout=heartbeat_timeout, maintenance_chance=maintenance_chance
    )
    for declare in actors:
        declare(broker)
    worker = dramatiq.Worker(broker, queues={QUEUE}, worker_threads=threads)
    worker.queue_prefetch = 1
    worker.start()
    if ready is not None:
        ready()
    stop = stop or threading.Event()
    try:
        while not stop.wait(1.0):
            pass
    finally:
        worker.stop()
        broker.close()
