"""Failed join attempts, counted per user and per client address (``trainer.core.infra.throttle``:
the ``limits`` library's fixed window in Django's shared cache).

The first failure opens a window of ``CLASSES_JOIN_WINDOW_SECONDS``; once a user
(``CLASSES_JOIN_MAX_FAILURES``) or an address (``CLASSES_JOIN_MAX_FAILURES_PER_IP``, higher,
since a whole school may share one address) reaches its limit, joining is refused until the
window closes. The cache is shared by every process (``CACHE_URL``), so four workers do not
give four times the tries; on the database cache (the default) each count is one transaction,
which SQLite serialises (on PostgreSQL two parallel guesses may count once: use Redis there).
The address is the real client's (:func:`trainer.core.web.client_ip.client_ip`), so behind a
proxy one address's bad codes do not lock out everyone else.

While the cache cannot be reached the limit fails open: joining works and failures are not
counted (a join code is one of 31¹⁰, far too many to guess in an outage's time, while refusing
every join would stop every class from filling). The outage is logged once
(:data:`trainer.core.infra.outage.cache`); see docs/operations.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from trainer.core.infra import throttle

DEFAULT_MAX_FAILURES = 10
DEFAULT_MAX_FAILURES_PER_IP = 50
DEFAULT_WINDOW_SECONDS = 15 * 60
_PREFIX = "classes:join-failures"
_WHAT = "the class join limit"


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
    seconds = current.window_seconds
    return throttle.used_up(
        user_key, limit=current.per_user, seconds=seconds, what=_WHAT
    ) or throttle.used_up(ip_key, limit=current.per_ip, seconds=seconds, what=_WHAT)


def join_failed(*, user_id: int, ip: str) -> None:
    """Count one failed join (an unknown code) against the user and the address (not while
    the cache is down)."""
    current = limits()
    user_key, ip_key = _keys(user_id, ip)
    seconds = current.window_seconds
    throttle.count(user_key, limit=current.per_user, seconds=seconds, what=_WHAT)
    throttle.count(ip_key, limit=current.per_ip, seconds=seconds, what=_WHAT)
