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
        added = cache.add(name, 1, timeout=seconds + 1)
        count = 1 if added else cache.incr(name)
    except Exception:
        return True
    return count <= limit
