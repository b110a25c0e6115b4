"""Outages of the database and the cache, each logged once per outage in each process.

A dependency that stops answering is logged on its first failure, as one line without a
traceback; later failures are counted, not logged; once it answers again, after
``settle_seconds`` without a failure (so a flapping dependency does not log a pair of lines per
request), one line says it is back, how long it was away and how many failures went unlogged.
Each process (gunicorn worker) keeps its own state: an outage is one pair of lines per worker,
however many requests fail meanwhile. docs/operations.md describes what the site does meanwhile.

The cache is optional. While it is down, its users skip it (:meth:`Dependency.usable`) for
``retry_seconds`` after each failure instead of waiting on it in every call, then try it again,
so recovery needs no restart.

:class:`QuietOutageFilter` keeps Django's request log from repeating each outage: every 503 the
site sends is an outage page, already accounted for here.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from django.db import DatabaseError

try:
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - redis is a dependency; without it only the others
    RedisError = OSError  # type: ignore[assignment,misc]

logger = logging.getLogger("trainer.outage")

#: What a cache backend raises when its server cannot be reached or refuses work: Redis's
#: errors, socket errors, and the database's when the cache is the database cache.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError, DatabaseError)

_BRIEF_LENGTH = 200


def brief(exc: BaseException) -> str:
    """``OperationalError: connection … refused``: the error on one line, not too long."""
    text = " ".join(str(exc).split())
    if len(text) > _BRIEF_LENGTH:
        text = text[: _BRIEF_LENGTH - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Dependency:
    """The state of one thing the site depends on (the database, the cache), in this process."""

    def __init__(
        self,
        name: str,
        *,
        meanwhile: str,
        settle_seconds: float,
        retry_seconds: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        #: What the site does while it is down, for the log line.
        self.meanwhile = meanwhile
        self.settle_seconds = settle_seconds
        self.retry_seconds = retry_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._last_failure = 0.0
        self._failures = 0

    @property
    def is_down(self) -> bool:
        return self._down_since is not None

    def failed(self, exc: BaseException, where: str = "") -> None:
        """Note a failure: the first of an outage is logged, the others counted."""
        with self._lock:
            now = self.clock()
            self._last_failure = now
            if self._down_since is not None:
                self._failures += 1
                return
            self._down_since = now
            self._failures = 1
        logger.error(
            "The %s is unavailable (%s)%s: %s. Further failures are not logged until it is "
            "back (process %d).",
            self.name,
            brief(exc),
            f" on {where}" if where else "",
            self.meanwhile,
            os.getpid(),
        )

    def answered(self) -> None:
        """Note a success: ends an outage (one line) once no failure came for a while."""
        if self._down_since is None:  # the usual case, without the lock
            return
        with self._lock:
            if self._down_since is None:
                return
            now = self.clock()
            if now - self._last_failure < self.settle_seconds:
                return
            away, failures = now - self._down_since, self._failures
            self._down_since, self._failures = None, 0
        logger.warning(
            "The %s is back after %.0f s; %d failures were not logged (process %d).",
            self.name,
            away,
            failures,
            os.getpid(),
        )

    def usable(self) -> bool:
        """Whether to try it: always while it answers; while it is down, once
        ``retry_seconds`` have passed since its last failure."""
        if self._down_since is None:
            return True
        return self.clock() - self._last_failure >= self.retry_seconds

    def reset(self) -> None:
        """Forget any outage, silently (tests)."""
        with self._lock:
            self._down_since, self._failures, self._last_failure = None, 0, 0.0


database = Dependency(
    "database", meanwhile="pages are 503 until it answers again", settle_seconds=5.0
)
cache = Dependency(
    "cache",
    meanwhile=(
        "sessions are read from the database and the class join limit is not counted until it "
        "answers again"
    ),
    settle_seconds=5.0,
    retry_seconds=5.0,
)

#: The live tables' channel layer (Redis when ``CHANNEL_LAYER_URL`` is set).
channel_layer = Dependency(
    "channel layer",
    meanwhile=(
        "live tables' sockets are closed with 1013 (try again later) and their pages fall back "
        "to form posts until it answers again"
    ),
    settle_seconds=5.0,
)


def cache_failed(exc: BaseException, where: str = "") -> None:
    """Note a failed cache call: an outage of the cache, or of the database when the cache
    is the database cache (one outage, one line)."""
    (database if isinstance(exc, DatabaseError) else cache).failed(exc, where)


class QuietOutageFilter(logging.Filter):
    """For the ``django.request`` logger: drop its record of each 503 response (with the
    traceback of the database error behind it), which :data:`database` has logged once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503
