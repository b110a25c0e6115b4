"""The task queue: Dramatiq, its broker made once per process from the settings (by
:func:`engine.task_queue.make_broker`, the one broker factory, which the engine's tournaments
on workers use too).

``TASK_BROKER_URL=redis://host:6379/2`` uses Dramatiq's Redis broker: messages wait in Redis,
any number of worker processes on any machine play them (``dramatiq concerto_site.worker``),
a message is acknowledged only once its actor returns, and the messages of a worker that stops
sending heartbeats (``TASK_HEARTBEAT_TIMEOUT`` seconds) go back to the queue for the others.

Unset, the broker is Dramatiq's in-process ``StubBroker``, and the first message sent starts a
``dramatiq.Worker`` of ``TASK_WORKER_THREADS`` daemon threads in this process: ``make run``
runs background work with nothing else running. Messages then live in this process's memory
(a restart forgets the ones not yet played), so services keep their progress in the database
and can send what is missing again.

Actors are declared on :func:`broker` (``dramatiq.actor(broker=tasks.broker(), …)``) and sent
with :func:`send`. Results go to the database, so no result store is set up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dramatiq
from django.conf import settings
from dramatiq.brokers.stub import StubBroker

from engine.task_queue import make_broker

_lock = threading.RLock()
_broker: dramatiq.Broker | None = None
_worker: dramatiq.Worker | None = None


def broker() -> dramatiq.Broker:
    """This process's broker (made on first use, and made Dramatiq's global broker)."""
    global _broker
    with _lock:
        if _broker is None:
            _broker = _make_broker()
            dramatiq.set_broker(_broker)
        return _broker


def _make_broker() -> dramatiq.Broker:
    return make_broker(
        getattr(settings, "TASK_BROKER_URL", "") or None,
        namespace="concerto-tasks",
        heartbeat_timeout=settings.TASK_HEARTBEAT_TIMEOUT,
        maintenance_chance=settings.TASK_MAINTENANCE_CHANCE,
    )


def embedded() -> bool:
    """Whether the work is done in this process (no ``TASK_BROKER_URL``)."""
    return isinstance(broker(), StubBroker)


def send(actor: dramatiq.Actor[Any, Any], *args: Any) -> None:
    """Send a message to ``actor``; without a broker URL, make sure the in-process worker runs."""
    actor.send(*args)
    if embedded():
        start_embedded_worker()


def start_embedded_worker(threads: int | None = None) -> dramatiq.Worker:
    """The in-process worker (started once; ``threads`` defaults to ``TASK_WORKER_THREADS``)."""
    global _worker
    with _lock:
        if _worker is None:
            count = threads or max(1, int(getattr(settings, "TASK_WORKER_THREADS", 1)))
            worker = dramatiq.Worker(broker(), worker_threads=count, worker_timeout=250)
            worker.queue_prefetch = 1
            worker.start()
            _worker = worker
        return _worker


def stop_embedded_worker() -> None:
    """Stop the in-process worker (what it holds stays queued for the next one)."""
    global _worker
    with _lock:
        if _worker is not None:
            _worker.stop()
            _worker = None


@contextmanager
def embedded_worker(threads: int) -> Iterator[dramatiq.Worker]:
    """An in-process worker of ``threads`` threads for the block's length (tests)."""
    stop_embedded_worker()
    try:
        yield start_embedded_worker(threads)
    finally:
        stop_embedded_worker()


def join(queue_name: str, *, timeout: float = 60.0) -> None:
    """Wait until the in-process queue ``queue_name`` is empty and its messages done (tests)."""
    found = broker()
    if isinstance(found, StubBroker):
        found.join(queue_name, timeout=int(timeout * 1000), fail_fast=True)
