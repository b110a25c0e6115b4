"""The one place a Dramatiq broker is made, for the site's background work and the engine's
tournaments on workers alike. Settings-free: callers pass what they read from theirs.

``url`` (``redis://host:port/db``) gives Dramatiq's Redis broker: messages wait in Redis, a
message is acknowledged only once its actor returns, and the messages of a worker that stops
sending heartbeats for ``heartbeat_timeout`` seconds go back to the queue for the others
(``maintenance_chance`` of a million Redis commands look for them: Dramatiq's default, 1000,
finds them minutes late with a few idle workers). No ``url`` gives Dramatiq's in-process
``StubBroker``. Either way the broker knows the message being worked on (``CurrentMessage``)
and, with ``results``, keeps actors' results (in the same Redis, or in memory).

>>> broker = make_broker(None, results=True)
>>> type(broker).__name__, sorted(type(m).__name__ for m in broker.middleware)[:2]
('StubBroker', ['AgeLimit', 'Callbacks'])
"""

from __future__ import annotations

import dramatiq
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import CurrentMessage
from dramatiq.results import Results
from dramatiq.results.backends.stub import StubBackend

#: Seconds without a heartbeat after which a worker is taken for dead.
HEARTBEAT_TIMEOUT = 60.0
#: Out of a million Redis commands, how many look for dead workers' messages.
MAINTENANCE_CHANCE = 20_000
#: Milliseconds an actor's result is kept for whoever collects it.
RESULT_TTL = 24 * 3600 * 1000


def make_broker(
    url: str | None,
    *,
    namespace: str = "dramatiq",
    heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
    maintenance_chance: int = MAINTENANCE_CHANCE,
    results: bool = False,
) -> dramatiq.Broker:
    """Dramatiq's Redis broker at ``url``, or the in-process stub broker without one."""
    broker: dramatiq.Broker
    if url:
        from dramatiq.brokers.redis import RedisBroker
        from dramatiq.results.backends.redis import RedisBackend

        redis = RedisBroker(  # type: ignore[no-untyped-call]
            url=url,
            namespace=namespace,
            heartbeat_timeout=int(heartbeat_timeout * 1000),
            maintenance_chance=maintenance_chance,
        )
        if results:
            backend = RedisBackend(client=redis.client)  # type: ignore[no-untyped-call]
            redis.add_middleware(Results(backend=backend, result_ttl=RESULT_TTL))  # type: ignore[no-untyped-call]
        broker = redis
    else:
        broker = StubBroker()
        if results:
            broker.add_middleware(Results(backend=StubBackend(), result_ttl=RESULT_TTL))  # type: ignore[no-untyped-call]
    broker.add_middleware(CurrentMessage())
    return broker
