"""Retrying a write when SQLite reports ``database is locked``.

With immediate transactions, WAL and a busy timeout (see ``DATABASES`` in the settings) a writer
waits for the lock instead of failing, so this is the last line of defence: a transaction that
still times out (a long burst of writers) is run again, whole, a few times with a short random
pause. Only the outermost transaction can be retried: inside another ``atomic`` block the error
is passed on for that block's owner to handle. Use it on services that are idempotent, so that a
retry after an unclear outcome cannot write twice.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 5


def is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, OperationalError) and (
        "database is locked" in text or "database table is locked" in text
    )


def retry_on_lock(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` again (up to ``ATTEMPTS`` times in all) while SQLite says it is locked."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if not is_lock_error(exc) or connection.in_atomic_block or attempt == ATTEMPTS:
                    raise
                time.sleep(random.uniform(0.02, 0.1) * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    return wrapper
