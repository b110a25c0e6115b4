"""Failed join attempts, counted in Django's cache per user and per client address.

A fixed window: the first failure opens a window of ``CLASSES_JOIN_WINDOW_SECONDS``; once a user
(``CLASSES_JOIN_MAX_FAILURES``) or an address (``CLASSES_JOIN_MAX_FAILURES_PER_IP``, higher,
since a whole school may share one address) reaches its limit, joining is refused until the
window closes. Counting uses ``cache.add`` and ``cache.incr``, atomic on the local-memory,
Redis and Memcached backends, so parallel guesses cannot slip past the limit; on the database
cache (the default) each count runs in one transaction, which SQLite's immediate transactions
serialise (on PostgreSQL two parallel guesses may count once: use Redis there). The cache is
shared by every process (``CACHE_URL``), so four workers do not give four times the tries.
The address is the real client's (:func:`trainer.core.client_ip.client_ip`), so behind a proxy one
address's bad codes do not lock out everyone else.

While the cache cannot be reached the limit fails open: joining works and failures are not
counted (a join code is one of 31¹⁰, far too many to guess in an outage's time, while refusing
every join would stop every class from filling). The outage is logged once
(:data:`trainer.core.outage.cache`); see docs/operations.md.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import transaction

from trainer.core import outage
from trainer.core.dbretry import retry_on_lock
from trainer.core.outage import CACHE_ERRORS

DEFAULT_MAX_FAILURES = 10
DEFAULT_MAX_FAILURES_PER_IP = 50
DEFAULT_WINDOW_SECONDS = 15 * 60
_PREFIX = "classes:join-failures"


@dataclass(frozen=True, slots=True)
class JoinLimits:
    per_user: int
    per_ip: int
    window_seconds: int

    @property
    def window_minutes(self) -> int:
        return max(1, round(self.window_seconds / 60))


def limits() -> JoinLimits:
    return JoinLimits(
        per_user=int(getattr(settings, "CLASSES_JOIN_MAX_FAILURES", DEFAULT_MAX_FAILURES)),
        per_ip=int(
            getattr(settings, "CLASSES_JOIN_MAX_FAILURES_PER_IP", DEFAULT_MAX_FAILURES_PER_IP)
        ),
        window_seconds=int(
            getattr(settings, "CLASSES_JOIN_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS)
        ),
    )


def _keys(user_id: int, ip: str) -> tuple[str, str]:
    return f"{_PREFIX}:user:{user_id}", f"{_PREFIX}:ip:{ip or 'unknown'}"


def join_blocked(*, user_id: int, ip: str) -> bool:
    """Whether this user or address has used up its failed joins for the current window
    (never while the cache is down: the limit fails open)."""
    current = limits()
    user_key, ip_key = _keys(user_id, ip)
    if not outage.cache.usable():
        return False
    try:
        counts = cache.get_many([user_key, ip_key, f"{user_key}:ends", f"{ip_key}:ends"])
    except CACHE_ERRORS as exc:
        outage.cache_failed(exc, "the class join limit")
        return False
    outage.cache.answered()
    now = time.time()

    def used_up(key: str, limit: int) -> bool:
        # The window's end is kept beside the count and read on this process's clock, so the
        # window closes on time whatever the cache's own expiry does (and tests can move the
        # clock with time_machine instead of sleeping).
        ends = counts.get(f"{key}:ends")
        open_window = ends is None or float(ends) > now
        return open_window and counts.get(key, 0) >= limit

    return used_up(user_key, current.per_user) or used_up(ip_key, current.per_ip)


def join_failed(*, user_id: int, ip: str) -> None:
    """Count one failed join (an unknown code) against the user and the address (not while
    the cache is down)."""
    window = limits().window_seconds
    if not outage.cache.usable():
        return
    try:
        for key in _keys(user_id, ip):
            _count(key, window)
    except CACHE_ERRORS as exc:
        outage.cache_failed(exc, "the class join limit")
        return
    outage.cache.answered()


@retry_on_lock
def _count(key: str, window: int) -> None:
    """Add one to ``key``'s count in a window that opens with its first failure and closes
    ``window`` seconds later. The window's end is kept beside the count: Django's database
    cache rewrites an entry on ``incr`` with the default timeout, which would stretch the
    window, so the count is given its remaining time back after each increment."""
    # The database cache's incr is a read then a write: one transaction makes it one step.
    in_database = isinstance(caches["default"], DatabaseCache)
    with transaction.atomic() if in_database else contextlib.nullcontext():
        now = time.time()
        cache.add(key, 0, timeout=window)
        cache.add(f"{key}:ends", now + window, timeout=window)
        ends = cache.get(f"{key}:ends") or now + window
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: start a new window
            ends = now + window
            cache.set(key, 1, timeout=window)
            cache.set(f"{key}:ends", ends, timeout=window)
        cache.touch(key, max(1, math.ceil(ends - now)))
