"""Duplicate sessions on the task-queue workers: a session's plays in chunks, sent through the
tournament's queue (the same workers play both: ``python -m engine.worker URL``) and
merged into exactly the JSON one process gives.

>>> from engine.tournament.workers import stub_broker, stub_worker
>>> from engine.duplicate.session import play_session
>>> broker = stub_broker()
>>> spec = SessionSpec(pairs=4, boards=3, seed=5, bots=("signal", "greedy"))
>>> with stub_worker(broker, threads=2):
...     on_workers = run_session_on_workers(spec, broker, chunk=2)
>>> on_workers == play_session(spec)
True
"""

from __future__ import annotations

import sys
import time
from typing import Any

import dramatiq
from dramatiq.results import ResultTimeout

from engine.duplicate.session import SessionSpec, plan_chunks, play_chunk, summarise_session
from engine.tournament.workers import WorkersTimeoutError, declare_actor

__all__ = ["SESSION_ACTOR", "run_session_on_workers", "session_actor"]

#: The actor that plays a chunk of a session (on the tournament's queue).
SESSION_ACTOR = "concerto_session_chunk"


def play_session_chunk(spec_json: dict[str, Any], start: int, stop: int) -> list[dict[str, Any]]:
    """Play plays ``start``..``stop - 1`` of the session ``spec_json``."""
    return play_chunk(SessionSpec.from_json(spec_json), start, stop)


def session_actor(broker: dramatiq.Broker) -> dramatiq.Actor[Any, Any]:
    """The actor playing a session's chunk, declared on ``broker`` (once)."""
    return declare_actor(broker, play_session_chunk, SESSION_ACTOR)


def run_session_on_workers(
    spec: SessionSpec,
    broker: dramatiq.Broker,
    *,
    chunk: int = 8,
    progress: bool = False,
    timeout: float = 600.0,
) -> dict[str, Any]:
    """Play ``spec`` on the workers of ``broker``, one message per chunk of plays, and score
    it (:func:`~engine.duplicate.session.summarise_session`: the same JSON as one process)."""
    actor = session_actor(broker)
    spec_json = spec.to_json()
    messages = [actor.send(spec_json, start, stop) for start, stop in plan_chunks(spec, chunk)]
    results = broker.get_results_backend()
    plays: list[dict[str, Any]] = []
    for number, message in enumerate(messages, start=1):
        waited_since = time.monotonic()
        while True:
            try:
                done: list[dict[str, Any]] = results.get_result(message, block=True, timeout=2000)
                break
            except ResultTimeout:
                if time.monotonic() - waited_since > timeout:
                    raise WorkersTimeoutError(
                        f"no chunk came back in {timeout:g} s: is a worker running "
                        f"(python -m engine.worker URL)?"
                    ) from None
        plays.extend(done)
        if progress:
            print(f"\rchunks: {number}/{len(messages)}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return summarise_session(spec, plays)
