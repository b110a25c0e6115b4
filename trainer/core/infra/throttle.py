"""Rate limits: the ``limits`` library's fixed window, counting in Django's shared cache.

``limits`` decides (:class:`~limits.strategies.FixedWindowRateLimiter`: a window opens with its
first hit and lasts its rate's seconds); :class:`DjangoCacheStorage` is its storage over
Django's default cache, so every process and server counts together: the database cache in the
embedded default (several processes, nothing else running), Redis in the production shape
(``CACHE_URL``). ``limits``' own storages would not do: its Redis storage needs Redis, and its
memory storage counts per process.

Callers: the live tables' moves, joins and refreshes (:func:`allow`) and the class join codes'
failed attempts (:func:`count` and :func:`used_up`, ``trainer.classes.ratelimit``).

Every limit fails open while the cache cannot be reached (the outage is logged once,
:data:`trainer.core.infra.outage.cache`): a cache outage must not stop play or stop classes filling.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import transaction
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import Storage
from limits.strategies import FixedWindowRateLimiter

from trainer.core.infra import outage
from trainer.core.infra.dbretry import retry_on_lock
from trainer.core.infra.outage import CACHE_ERRORS

T = TypeVar("T")
#: The cache entry listing the keys counted lately (for :meth:`DjangoCacheStorage.reset`), and
#: how many it keeps: the oldest fall off, their windows long closed.
_INDEX = "throttle:keys"
_INDEX_MAX = 5_000


class DjangoCacheStorage(Storage):
    """A ``limits`` storage over Django's default cache.

    A count is kept beside the moment its window ends (``<key>:ends``), read on this process's
    clock, so a window closes on time whatever the cache's own expiry does (Django's database
    cache rewrites an entry's expiry on ``incr``) and tests move it with ``time_machine``."""

    STORAGE_SCHEME = ["django-cache"]

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return CACHE_ERRORS

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return _incr(key, expiry, amount)

    def get(self, key: str) -> int:
        found = cache.get_many([key, f"{key}:ends"])
        ends = found.get(f"{key}:ends")
        if ends is None or float(ends) <= time.time():
            return 0
        return int(found.get(key, 0))

    def get_expiry(self, key: str) -> float:
        ends = cache.get(f"{key}:ends")
        return float(ends) if ends is not None else time.time()

    def check(self) -> bool:
        cache.get("throttle:check")
        return True

    def reset(self) -> int | None:
        """Clear every count (the cache holds more than counts, and Django's cache cannot list
        keys by prefix: the keys come from the index each window's first hit adds to). Two
        windows opened at the same moment may both write the index and one of them be left
        out of it; that count still ends with its window. Returns how many keys it cleared."""
        keys = list(cache.get(_INDEX) or [])
        cache.delete_many([*keys, *(f"{k}:ends" for k in keys), _INDEX])
        return len(keys)

    def clear(self, key: str) -> None:
        cache.delete_many([key, f"{key}:ends"])


@retry_on_lock
def _incr(key: str, expiry: int, amount: int) -> int:
    # The database cache's incr is a read then a write: one transaction makes it one step
    # (SQLite's immediate transactions serialise them; dbretry waits out a locked database).
    # The usual case, a window already counting, costs an incr and a read.
    in_database = isinstance(caches["default"], DatabaseCache)
    with transaction.atomic() if in_database else contextlib.nullcontext():
        now = time.time()
        try:
            value = int(cache.incr(key, amount))
        except ValueError:  # no count: this hit opens a window (unless another's came first)
            if cache.add(key, amount, timeout=expiry):
                cache.set(f"{key}:ends", now + expiry, timeout=expiry)
                _remember(key)
                return amount
            value = int(cache.incr(key, amount))
        ends = cache.get(f"{key}:ends")
        if ends is None:  # the other process that opened the window has not said when it ends
            ends = now + expiry
            cache.add(f"{key}:ends", ends, timeout=expiry)
        elif float(ends) <= now:  # the last window closed (on this process's clock): a new one
            cache.set_many({key: amount, f"{key}:ends": now + expiry}, timeout=expiry)
            _remember(key)
            return amount
        if in_database:  # its incr rewrote the entry with the default expiry
            cache.touch(key, max(1, math.ceil(float(ends) - now)))
        return value


def _remember(key: str) -> None:
    """Add ``key`` to the index of counted keys (once per window it opens)."""
    known = list(cache.get(_INDEX) or [])
    if key not in known:
        cache.set(_INDEX, [*known[-(_INDEX_MAX - 1) :], key], timeout=None)


_LIMITER = FixedWindowRateLimiter(DjangoCacheStorage())


def _rate(limit: int, seconds: int) -> RateLimitItem:
    return RateLimitItemPerSecond(limit, seconds, namespace="throttle")


def _fail_open(what: str, ask: Callable[[], T], default: T) -> T:
    if not outage.cache.usable():  # failed moments ago: asked again after a pause
        return default
    try:
        answer = ask()
    except CACHE_ERRORS as exc:
        outage.cache_failed(exc, what)
        return default
    outage.cache.answered()
    return answer


def allow(key: str, *, limit: int, seconds: int) -> bool:
    """Count one for ``key`` and say whether it stays within ``limit`` in its window of
    ``seconds`` (True while the cache is down)."""
    return _fail_open("a rate limit", lambda: _LIMITER.hit(_rate(limit, seconds), key), True)


def count(key: str, *, limit: int, seconds: int, what: str = "a rate limit") -> None:
    """Count one for ``key`` without asking (a failure that is only counted)."""
    _fail_open(what, lambda: _LIMITER.hit(_rate(limit, seconds), key), True)


def used_up(key: str, *, limit: int, seconds: int, what: str = "a rate limit") -> bool:
    """Whether ``key`` has been counted ``limit`` times in its open window (never while the
    cache is down)."""
    return _fail_open(what, lambda: not _LIMITER.test(_rate(limit, seconds), key), False)
