"""A fixed-window counter in the shared cache: ``allow(key, limit, seconds)`` is True while
``key`` has been counted fewer than ``limit`` times in the current window of ``seconds``.

For the live tables' joins and moves. With the cache down it allows (the table's own version
check still refuses a double move): a cache outage must not stop play.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def allow(key: str, *, limit: int, seconds: int, now: float | None = None) -> bool:
    window = int((time.time() if now is None else now) // seconds)
    name = f"throttle:{key}:{window}"
    try:
        try:
            count = cache.incr(name)  # (most calls: the window is counting already)
        except ValueError:  # the window's first count, unless another process's came first
            count = 1 if cache.add(name, 1, timeout=seconds + 1) else cache.incr(name)
    except Exception:
        return True
    return count <= limit
