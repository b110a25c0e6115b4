"""A tournament worker: plays the chunks sent to a Redis queue by
``python -m engine tournament --workers URL`` and ``python -m engine session --workers URL``
(no Django, no database; any machine with the
engine installed)::

    $ python -m engine.worker redis://queue.example.org:6379/0 [--threads 1]

Run one per core. It stops on SIGTERM or Ctrl-C; a chunk it was playing when killed goes back
to the queue once its heartbeats stop (``--heartbeat-timeout``) and another worker plays it.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence

from engine.duplicate.workers import session_actor
from engine.task_queue import HEARTBEAT_TIMEOUT, MAINTENANCE_CHANCE
from engine.tournament.workers import QUEUE, run_worker

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.worker",
        description="Play tournament chunks from a Redis queue (see docs/operations.md).",
    )
    parser.add_argument("url", metavar="URL", help="the Redis queue: redis://host:port/db")
    parser.add_argument("--threads", type=int, default=1, help="chunks at once (default 1)")
    parser.add_argument(
        "--heartbeat-timeout",
        type=float,
        default=float(os.environ.get("TASK_HEARTBEAT_TIMEOUT", HEARTBEAT_TIMEOUT)),
        metavar="SECONDS",
        help="a worker silent this long is dead and its chunks are played again "
        f"(default $TASK_HEARTBEAT_TIMEOUT or {HEARTBEAT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--maintenance-chance",
        type=int,
        default=int(os.environ.get("TASK_MAINTENANCE_CHANCE", MAINTENANCE_CHANCE)),
        help=argparse.SUPPRESS,
    )
    args = parser.parse_args(argv)
    if not args.url.startswith(("redis://", "rediss://", "unix://")):
        parser.error(f"not a Redis URL: {args.url!r}")
    if args.threads < 1:
        parser.error(f"--threads must be at least 1, not {args.threads}")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    def ready() -> None:
        print(f"worker ready: queue {QUEUE} at {args.url}", file=sys.stderr, flush=True)

    run_worker(
        args.url,
        threads=args.threads,
        heartbeat_timeout=args.heartbeat_timeout,
        maintenance_chance=args.maintenance_chance,
        ready=ready,
        stop=stop,
        actors=(session_actor,),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
