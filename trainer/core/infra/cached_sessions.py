"""Sessions kept in the database and cached (Redis), that keep working while the cache is down.

``SESSION_ENGINE = "trainer.core.infra.cached_sessions"`` (the settings choose it with Redis). It is
Django's ``cached_db`` store — read from the cache, written through to the database — except
that a cache that cannot be reached is not an error: the session is read from and written to
the database alone (one query more per request), the first failure is logged once
(:data:`trainer.core.infra.outage.cache`), the cache is left alone for a few seconds after each
failure, then tried again, so recovery needs no restart.

Copies the cache may hold from before a change it missed (a sign-out, a new language, written
to the database while the cache could not be reached, say across a network split) must not be
read later. So:

- each session key whose cache entry could not be written or deleted is remembered, and those
  entries are deleted before this process next reads a session from the cache;
- an entry lives in the cache at most :data:`CACHE_SECONDS` (then it is read from the database
  again), which bounds how long another process can read such a copy.

The async methods (``aload``, ``asave``…: ``request.auser()``, ``alogin``) run the same code in
a thread, so they tolerate an outage too.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore

from trainer.core.infra import outage
from trainer.core.infra.outage import CACHE_ERRORS

if TYPE_CHECKING:
    from django.contrib.sessions.base_session import AbstractBaseSession
    from django.core.cache.backends.base import BaseCache

logger = logging.getLogger("django.contrib.sessions")

#: Longest a session stays in the cache before it is read from the database again.
CACHE_SECONDS = 5 * 60
#: Most cache entries remembered as possibly stale (beyond that, ``CACHE_SECONDS`` bounds them).
STALE_MAX = 10_000

_stale: set[str] = set()
_stale_lock = threading.Lock()


def _remember_stale(cache_key: str) -> None:
    with _stale_lock:
        if len(_stale) < STALE_MAX:
            _stale.add(cache_key)


class SessionStore(CachedDBStore):
    if TYPE_CHECKING:  # Django's private parts used here, which django-stubs does not declare
        _cache: BaseCache  # set by the cached_db store's __init__

        @property
        def _session(self) -> dict[str, Any]: ...  # SessionBase: the loaded session data

        def _get_session_from_db(self) -> AbstractBaseSession | None: ...  # the db store's

    def _cache_ready(self) -> bool:
        """Whether to use the cache now: it is not known to be down, and the entries it may
        hold from before a change it missed are gone."""
        if not outage.cache.usable():
            return False
        if _stale:
            with _stale_lock:
                keys = list(_stale)
            try:
                self._cache.delete_many(keys)
            except CACHE_ERRORS as exc:
                outage.cache_failed(exc, "sessions")
                return False
            with _stale_lock:
                _stale.difference_update(keys)
        return True

    def _cache_set(self, cache_key: str, data: dict[str, Any], expiry_age: int) -> None:
        try:
            self._cache.set(cache_key, data, max(0, min(CACHE_SECONDS, expiry_age)))
        except Exception as exc:
            _remember_stale(cache_key)  # an older copy may still be there
            if isinstance(exc, CACHE_ERRORS):
                outage.cache_failed(exc, "sessions")
            else:  # as Django's cached_db store: log it, the session is in the database
                logger.exception("Error saving to cache (%s)", self._cache)
        else:
            outage.cache.answered()

    def load(self) -> dict[str, Any]:
        use_cache = self._cache_ready()
        if use_cache:
            try:
                data: dict[str, Any] | None = self._cache.get(self.cache_key)
            except Exception as exc:  # as Django: an entry that cannot be read is a miss
                data = None
                if isinstance(exc, CACHE_ERRORS):
                    outage.cache_failed(exc, "sessions")
                    use_cache = False
            else:
                outage.cache.answered()
            if data is not None:
                return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        if use_cache:
            self._cache_set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        return data

    def exists(self, session_key: str) -> bool:
        if session_key and self._cache_ready():
            try:
                if (self.cache_key_prefix + session_key) in self._cache:
                    return True
            except CACHE_ERRORS as exc:
                outage.cache_failed(exc, "sessions")
        return DBStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        if self._cache_ready():
            self._cache_set(self.cache_key, self._session, self.get_expiry_age())
        else:
            _remember_stale(self.cache_key)

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        cache_key = self.cache_key_prefix + session_key
        if not self._cache_ready():
            _remember_stale(cache_key)
            return
        try:
            self._cache.delete(cache_key)
        except CACHE_ERRORS as exc:
            _remember_stale(cache_key)
            outage.cache_failed(exc, "sessions")
        else:
            outage.cache.answered()

    # The async API (``request.auser()``, ``alogin``, ``alogout``) through the same code.

    async def aload(self) -> dict[str, Any]:
        return await sync_to_async(self.load)()

    async def aexists(self, session_key: str) -> bool:
        return await sync_to_async(self.exists)(session_key)

    async def asave(self, must_create: bool = False) -> None:
        await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key: str | None = None) -> None:
        await sync_to_async(self.delete)(session_key)
